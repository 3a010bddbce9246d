"""The ``kscope`` command's entry point, which starts at once: it imports nothing outside the
standard library and never the ``kscope`` package (whose ``__init__`` loads numpy and pandas).

``kscope plot`` is drawn in Python (:mod:`kscope._plot_command`, imported only then). Every other
command line, ``kscope --help``, ``--version`` and the usage errors included, is the engine's
executable's (``kscope/_bin/kscope``, cli/), which this process becomes (``os.execve``), with the
environment :func:`kscope_launcher.cuda_libs.child_environment` gives it; so its output and exit
status are the command's. ``KSCOPE_CLI`` names another executable. docs/cli.md describes the
command.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence

from .cuda_libs import child_environment
from .exit_status import EXIT_ERROR
from .messages import print_error

#: The environment variable naming another engine executable than the package's.
ENVIRONMENT_VARIABLE = "KSCOPE_CLI"
#: The one subcommand served by the Python package.
PLOT = "plot"


class EngineToolMissing(RuntimeError):
    """The engine's executable is not part of this installation."""


def executable() -> str:
    """The path of the engine's executable: ``$KSCOPE_CLI`` when set, else the ``kscope``
    package's ``_bin/kscope`` (found without importing the package). Raises
    :class:`EngineToolMissing` when that file is not executable."""
    override = os.environ.get(ENVIRONMENT_VARIABLE)
    path = override or _package_executable()
    if not path or not os.access(path, os.X_OK):
        origin = f"${ENVIRONMENT_VARIABLE}" if override else "this installation of kscope"
        raise EngineToolMissing(
            f"the engine's command-line tool {path or 'kscope/_bin/kscope'} (from {origin}) is "
            "missing or not executable: install the wheel (pip install 'kernelscope[plot]'), "
            "build the in-tree module with the CLI (-DKSCOPE_BUILD_PYTHON=ON, target "
            f"kscope_cli), or set {ENVIRONMENT_VARIABLE} to the kscope executable"
        )
    return path


def _package_executable() -> str:
    """``<kscope package>/_bin/kscope``, or "" when the package is not installed."""
    spec = importlib.util.find_spec("kscope")  # finds the package without running its __init__
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return os.path.join(locations[0], "_bin", "kscope") if locations else ""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``kscope`` command with ``argv`` (default: the process arguments). ``plot``
    returns its exit status; everything else replaces this process with the engine's
    executable, so this returns only when that executable is missing (status 1)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == [PLOT]:
        from kscope._plot_command import run

        return run(args[1:])
    try:
        path = executable()
    except EngineToolMissing as error:
        print_error(str(error))
        return EXIT_ERROR
    sys.stdout.flush()
    try:
        # argv[0] "kscope": the usage lines name the command the user typed, not the file.
        os.execve(path, ["kscope", *args], child_environment(os.environ))
    except OSError as error:  # executable by its mode, but no program (a truncated install)
        print_error(f"cannot run the engine's command-line tool {path}: {error.strerror}")
        return EXIT_ERROR


__all__ = ["ENVIRONMENT_VARIABLE", "PLOT", "EngineToolMissing", "executable", "main"]
