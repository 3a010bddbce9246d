"""How this Python program can be started again, for the tools that re-run it under an external
profiler (ncu, compute-sanitizer; docs/tools/ncu.md, "re-execution protocol")."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

# Set by the parent in the re-run program (src/subprocess/child_marker.hpp).
CHILD_SESSION_VARIABLE = "KSCOPE_CHILD_SESSION"


def _interactive_reason() -> str:
    ipython = sys.modules.get("IPython")
    if ipython is not None and getattr(ipython, "get_ipython", lambda: None)() is not None:
        return "this is an interactive IPython/Jupyter session, which cannot be re-run"
    if not sys.argv or sys.argv[0] in ("", "-"):
        return "the program was typed interactively or read from standard input"
    if sys.argv[0] == "-c":
        return "the program was given with `python -c`, which cannot be re-run"
    if not sys.executable or not os.access(sys.executable, os.X_OK):
        return "Python runs embedded in another program (sys.executable is not usable)"
    return ""


def reexec_command() -> tuple[list[str], str]:
    """``(argv, reason)``: the command that starts this program again, or ``([], reason)``
    when it cannot be re-run. ``sys.orig_argv`` keeps the interpreter's own options (``-m``,
    ``-X``, ``-W``), so ``python -m pytest ...`` re-runs as ``python -m pytest ...``."""
    reason = _interactive_reason()
    if reason:
        return [], reason
    original = getattr(sys, "orig_argv", None)
    arguments = list(original[1:]) if original else list(sys.argv)
    return [sys.executable, *arguments], ""


def in_reexecuted_child() -> bool:
    """Whether this process is the program re-run under ncu or compute-sanitizer."""
    return CHILD_SESSION_VARIABLE in os.environ


def flush_standard_streams() -> None:
    """Flushes ``sys.stdout`` and ``sys.stderr``. The re-run program ends inside the engine with
    C++ ``std::_Exit`` right after the marked session, which flushes C's buffers but not
    Python's: what the program printed would be lost when its output is a pipe or a file."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (AttributeError, OSError, ValueError):  # replaced, closed or broken streams
            pass


def flushing_in_child(run: Callable[[Any], None]) -> Callable[[Any], None]:
    """The benchmark callable for the engine. In the re-run program, where the engine ends the
    process after the marked session without returning, Python's output is flushed now and after
    every run; elsewhere ``run`` is returned as it is."""
    if not in_reexecuted_child():
        return run
    flush_standard_streams()

    def flushing(config: Any) -> None:
        try:
            run(config)
        finally:
            flush_standard_streams()

    return flushing


__all__ = ["flush_standard_streams", "flushing_in_child", "in_reexecuted_child", "reexec_command"]
