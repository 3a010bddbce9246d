"""The engine's command-line tool (the C++ ``kscope`` executable, cli/) as seen from the
``kscope`` command of the Python package.

The wheel carries the executable at ``kscope/_bin/kscope``; the in-tree CMake build
(``-DKSCOPE_BUILD_PYTHON=ON``) links the same path to the one it built. ``KSCOPE_CLI`` names
another executable.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Sequence

from ._cuda_libs import child_environment

#: The engine's subcommands and their one-line summaries (``kscope --help``).
COMMANDS: dict[str, str] = {
    "show": "print a saved result (JSON) or journal (.jsonl) as a table",
    "query-metrics": "list the hardware metrics the cupti tool can collect on a chip",
    "check-metrics": "check metric names against a chip's catalogue, count replay passes",
    "import-ncu": "read an Nsight Compute report (.ncu-rep or raw CSV) as kscope results",
    "merge": "join the shards of one sweep (results or journals) into one result",
}

ENVIRONMENT_VARIABLE = "KSCOPE_CLI"


class EngineToolMissing(RuntimeError):
    """The engine's executable is not part of this installation."""


def executable() -> str:
    """The path of the engine's executable: ``$KSCOPE_CLI`` when set, else the package's
    ``_bin/kscope``. Raises :class:`EngineToolMissing` when that file is not executable."""
    override = os.environ.get(ENVIRONMENT_VARIABLE)
    path = override or os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "kscope")
    if not os.access(path, os.X_OK):
        origin = f"${ENVIRONMENT_VARIABLE}" if override else "this installation of kscope"
        raise EngineToolMissing(
            f"the engine's command-line tool {path} (from {origin}) is missing or not "
            "executable: install the wheel (pip install 'kernelscope[plot]'), build the "
            "in-tree module with the CLI (-DKSCOPE_BUILD_PYTHON=ON, target kscope_cli), or set "
            f"{ENVIRONMENT_VARIABLE} to the kscope executable"
        )
    return path


def run(argv: Sequence[str]) -> int:
    """Runs the engine's executable with ``argv`` (a subcommand and its arguments), with the
    standard streams of this process, and returns its exit status (128 + N when signal N
    ended it, as a shell reports it)."""
    # argv[0] "kscope": the tool's usage lines name the command the user typed, not its path.
    status = subprocess.call(
        ["kscope", *argv], executable=executable(), env=child_environment(os.environ)
    )
    if status < 0:
        return 128 + signal.Signals(-status).value
    return status
