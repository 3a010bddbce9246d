#!/usr/bin/env python3
"""Runs nsight-python's own examples and tests, unchanged, against kscope.

nsight-python's scripts import ``nsight``. This script writes, in a fresh temporary directory,
a package ``nsight`` whose ``__init__`` only re-exports kscope: it makes ``nsight`` and every
``nsight.<module>`` the kscope package and its modules (the same objects), and puts that
directory first on ``PYTHONPATH``. Then it runs, each in its own process, every example
``examples/NN_*.py`` of the checkout in the range asked for (as ``python NN_*.py`` in a copy of
the examples directory) and pytest on a copy of the checkout's ``tests/`` directory, and prints
per-item results and pass/fail counts. Nothing is fetched: the checkout is given, and kscope
must be importable by this Python (installed, or ``PYTHONPATH=python`` in a kscope checkout
with the in-tree module built).

Usage:
    python3 scripts/run_nsight_python_suite.py CHECKOUT [--examples 00-11] [--no-tests]
        [--no-examples] [--out DIR] [--example-timeout S] [--test-timeout S] [-k EXPR]

Exit status: 0 when everything that ran passed, 1 when anything failed, 2 for a usage error
(no checkout, kscope not importable). docs/python.md ("Running nsight-python's suite") lists
the differences that stay.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

#: The ``nsight`` package written at run time: it re-exports kscope and nothing else.
SHIM_INIT = '''"""nsight: kscope under nsight-python's name (written by kscope's
scripts/run_nsight_python_suite.py). `nsight` and `nsight.<module>` are kscope's package and
modules themselves."""
import sys

import kscope

for _name, _module in list(sys.modules.items()):
    if _name == "kscope" or _name.startswith("kscope."):
        sys.modules["nsight" + _name[len("kscope"):]] = _module
'''


@dataclass
class Outcome:
    """One example or one test."""

    name: str
    status: str  # "passed", "failed", "error", "skipped", "timeout"
    seconds: float = 0.0
    detail: str = ""


@dataclass
class Summary:
    """Outcomes of one part (examples or tests)."""

    title: str
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    def line(self) -> str:
        parts = [f"{self.count(s)} {s}" for s in ("passed", "failed", "error", "timeout", "skipped")
                 if self.count(s)]  # fmt: skip
        return f"{self.title}: {', '.join(parts) or 'nothing ran'} (of {len(self.outcomes)})"


def write_shim(directory: str) -> str:
    """Writes the ``nsight`` package into ``directory`` and returns ``directory``."""
    package = os.path.join(directory, "nsight")
    os.makedirs(package, exist_ok=True)
    with open(os.path.join(package, "__init__.py"), "w", encoding="utf-8") as f:
        f.write(SHIM_INIT)
    return directory


def shim_environment(shim_dir: str) -> dict[str, str]:
    """This process's environment with the shim first on PYTHONPATH and non-interactive
    matplotlib."""
    env = dict(os.environ)
    # Absolute: the children run in other directories (PYTHONPATH=python from a kscope checkout).
    rest = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([shim_dir, *rest])
    env.setdefault("MPLBACKEND", "Agg")
    return env


def check_shim(env: dict[str, str]) -> str:
    """"" when ``import nsight`` gives kscope in a child process, else why not."""
    probe = ("import nsight, kscope, nsight.collection.core, nsight.utils; "
             "assert nsight is kscope and nsight.utils is kscope.utils, nsight.__file__")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                          cwd=tempfile.gettempdir(), check=False)  # fmt: skip
    return "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1]


def example_range(text: str) -> tuple[int, int]:
    """``"00-11"`` -> (0, 11); ``"09"`` -> (9, 9)."""
    match = re.fullmatch(r"(\d+)(?:-(\d+))?", text)
    if not match:
        raise argparse.ArgumentTypeError(f"expected NN or NN-MM, got {text!r}")
    low = int(match.group(1))
    return low, int(match.group(2) or low)


def run_examples(checkout: str, work: str, env: dict[str, str], numbers: tuple[int, int],
                 timeout: float, logs: str) -> Summary:
    """Runs every ``examples/NN_*.py`` with NN in ``numbers`` as a script, in a copy of the
    examples directory (what they write stays out of the checkout)."""
    summary = Summary("examples")
    source = os.path.join(checkout, "examples")
    copy = os.path.join(work, "examples")
    shutil.copytree(source, copy)
    scripts = sorted(f for f in os.listdir(copy) if re.match(r"\d\d_.*\.py$", f))
    for script in scripts:
        if not numbers[0] <= int(script[:2]) <= numbers[1]:
            continue
        log = os.path.join(logs, f"example-{script[:-3]}.log")
        start = time.monotonic()
        with open(log, "w", encoding="utf-8") as out:
            try:
                status = subprocess.run([sys.executable, script], cwd=copy, env=env, stdout=out,
                                        stderr=subprocess.STDOUT, timeout=timeout,
                                        check=False).returncode  # fmt: skip
                result = "passed" if status == 0 else "failed"
            except subprocess.TimeoutExpired:
                status, result = -1, "timeout"
        detail = "" if result == "passed" else f"exit {status}: {last_error(log)} ({log})"
        summary.outcomes.append(Outcome(script, result, time.monotonic() - start, detail))
        print(f"[{result.upper():7}] example {script} ({time.monotonic() - start:.0f} s) {detail}",
              flush=True)  # fmt: skip
    return summary


def last_error(log: str) -> str:
    """The last line of a log that looks like an exception, else its last line."""
    with open(log, encoding="utf-8", errors="replace") as f:
        lines = [line.rstrip() for line in f if line.strip()]
    errors = [line for line in lines if re.match(r"^\w+(\.\w+)*(Error|Exception)\b", line)]
    return (errors or lines or ["(no output)"])[-1][:200]


def run_tests(checkout: str, work: str, env: dict[str, str], timeout: float, logs: str,
              select: str | None) -> Summary:
    """pytest on a copy of the checkout's ``tests/`` directory, one JUnit report; collection
    errors (a test file that cannot be imported) count as errors."""
    summary = Summary("tests")
    copy = os.path.join(work, "tests")
    shutil.copytree(os.path.join(checkout, "tests"), copy)
    report = os.path.join(logs, "tests-junit.xml")
    log = os.path.join(logs, "tests.log")
    command = [sys.executable, "-m", "pytest", copy, "-q", "-rA", "-p", "no:cacheprovider",
               "--continue-on-collection-errors", f"--junitxml={report}", "--rootdir", copy]  # fmt: skip
    if select:
        command += ["-k", select]
    with open(log, "w", encoding="utf-8") as out:
        try:
            subprocess.run(command, cwd=copy, env=env, stdout=out, stderr=subprocess.STDOUT,
                           timeout=timeout, check=False)  # fmt: skip
        except subprocess.TimeoutExpired:
            summary.outcomes.append(Outcome("pytest", "timeout", timeout, f"see {log}"))
    if not os.path.exists(report):
        summary.outcomes.append(Outcome("pytest", "error", 0, f"no JUnit report; see {log}"))
        return summary
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        status, detail = "passed", ""
        for tag in ("failure", "error", "skipped"):
            element = case.find(tag)
            if element is not None:
                status = {"failure": "failed"}.get(tag, tag)
                detail = (element.get("message") or "").splitlines()[0][:200] if (
                    element.get("message")) else ""
                break
        summary.outcomes.append(Outcome(name, status, float(case.get("time", 0) or 0), detail))
    for o in summary.outcomes:
        print(f"[{o.status.upper():7}] test {o.name} {o.detail}".rstrip(), flush=True)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", help="a checkout of nsight-python (its examples/ and tests/)")
    parser.add_argument("--examples", type=example_range, default=(0, 11), metavar="NN-MM",
                        help="the examples to run (default 00-11)")
    parser.add_argument("--no-examples", action="store_true", help="run no example")
    parser.add_argument("--no-tests", action="store_true", help="do not run tests/")
    parser.add_argument("-k", dest="select", help="pytest -k expression for tests/")
    parser.add_argument("--out", help="directory for the logs (default: a temporary one)")
    parser.add_argument("--example-timeout", type=float, default=900, metavar="S")
    parser.add_argument("--test-timeout", type=float, default=3600, metavar="S")
    args = parser.parse_args(argv)

    checkout = os.path.abspath(args.checkout)
    for part in ("examples", "tests"):
        if not os.path.isdir(os.path.join(checkout, part)):
            print(f"error: {checkout} has no {part}/ directory: not a checkout of nsight-python",
                  file=sys.stderr)  # fmt: skip
            return 2
    work = tempfile.mkdtemp(prefix="kscope-nsight-suite-")
    logs = os.path.abspath(args.out) if args.out else os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    env = shim_environment(write_shim(os.path.join(work, "shim")))
    problem = check_shim(env)
    if problem:
        print(f"error: `import nsight` does not give kscope through the shim: {problem}\n"
              "Install kscope or put its python/ directory on PYTHONPATH.", file=sys.stderr)
        return 2
    print(f"[suite] nsight-python checkout {checkout}; shim {work}/shim/nsight; logs {logs}",
          flush=True)  # fmt: skip

    summaries = []
    if not args.no_examples:
        summaries.append(run_examples(checkout, work, env, args.examples, args.example_timeout,
                                      logs))  # fmt: skip
    if not args.no_tests:
        summaries.append(run_tests(checkout, work, env, args.test_timeout, logs, args.select))
    print()
    for summary in summaries:
        print(f"[suite] {summary.line()}")
    failed = any(s.count(x) for s in summaries for x in ("failed", "error", "timeout"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
