"""Start-up time of the ``kscope`` command: how long ``kscope show --help`` takes from the shell,
through the console script pip installs, against the engine's executable alone.

    python3 bench/cli_startup.py [--runs 20] [--build build]

The console script is made as pip makes it (``import re, sys; from <module> import <function>``;
pip's template) in a temporary folder, with ``python/`` on ``PYTHONPATH`` and the in-tree build's
``python/kscope/_bin/kscope``; ``--entry`` names another entry point (``kscope.__main__:main``
measures the command as it was before the launcher). Measured, each ``--runs`` times: the console
script, ``python3 -m kscope``, and the executable ``<build>/cli/kscope``; and once, with
``python3 -X importtime``, the modules the console script imports beyond the interpreter's own
start-up (their number, and those outside the standard library). Needs no GPU. Prints one JSON object: per command the wall times in ms.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON_DIR = ROOT / "python"
ARGS = ["show", "--help"]

# pip's console-script template (pip/_internal/operations/install/wheel.py, distlib's
# ScriptMaker): what `kscope` runs once the wheel is installed.
SCRIPT = """#!{python}
# -*- coding: utf-8 -*-
import re
import sys
from {module} import {function}
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
    sys.exit({function}())
"""


def console_script(folder: Path, entry: str) -> Path:
    """Writes the console script of ``entry`` (``module:function``) as ``folder/kscope``."""
    module, function = entry.split(":")
    path = folder / "kscope"
    path.write_text(SCRIPT.format(python=sys.executable, module=module, function=function))
    path.chmod(0o755)
    return path


def environment() -> dict[str, str]:
    """This process's environment with ``python/`` first on ``PYTHONPATH``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PYTHON_DIR), env.get("PYTHONPATH")) if p)
    return env


def wall_ms(argv: list[str], env: dict[str, str], runs: int) -> list[float]:
    """Wall time of ``argv`` in ms, ``runs`` times (after one unmeasured run that warms the
    page cache); a run that fails stops the measurement with its stderr."""
    samples = []
    for i in range(runs + 1):
        t0 = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, text=True)
        elapsed = (time.perf_counter() - t0) * 1e3
        if done.returncode != 0:
            raise SystemExit(f"cli_startup.py: {' '.join(argv)} exited {done.returncode}: "
                             f"{done.stderr.strip()}")
        if i > 0:
            samples.append(elapsed)
    return samples


def imported_modules(argv: list[str], env: dict[str, str]) -> list[str]:
    """The modules ``python3 -X importtime *argv`` imports, in import order."""
    done = subprocess.run([sys.executable, "-X", "importtime", *argv], env=env,
                          capture_output=True, text=True)
    return re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, flags=re.M)


def script_imports(script: Path, env: dict[str, str]) -> list[str]:
    """The modules the console script imports beyond the interpreter's own start-up (``site``
    and what it loads, ``sitecustomize`` included), in import order."""
    start_up = set(imported_modules(["-c", "pass"], env))
    return [m for m in imported_modules([str(script), *ARGS], env) if m not in start_up]


def outside_stdlib(modules: list[str]) -> list[str]:
    """The top-level packages of ``modules`` that are not part of the standard library."""
    tops = {m.split(".")[0] for m in modules}
    return sorted(t for t in tops if t not in sys.stdlib_module_names and not t.startswith("_"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="measured runs per command")
    parser.add_argument("--build", default="build", help="CMake build folder (its cli/kscope)")
    parser.add_argument("--entry", default="kscope_launcher:main",
                        help="the console script's entry point (module:function)")
    args = parser.parse_args()
    env = environment()
    with tempfile.TemporaryDirectory() as folder:
        script = console_script(Path(folder), args.entry)
        commands = {
            "console script": [str(script), *ARGS],
            "python3 -m kscope": [sys.executable, "-m", "kscope", *ARGS],
            "engine executable": [str((ROOT / args.build / "cli" / "kscope").resolve()), *ARGS],
        }
        result: dict[str, object] = {"entry": args.entry, "args": ARGS}
        for name, argv in commands.items():
            result[name] = wall_ms(argv, env, args.runs)
        modules = script_imports(script, env)
    result["imported modules"] = len(modules)
    result["imported outside the standard library"] = outside_stdlib(modules)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
