"""How this Python program can be started again, for the tools that re-run it under an external
profiler (ncu, compute-sanitizer; docs/tools/ncu.md, "re-execution protocol")."""

from __future__ import annotations

import os
import sys


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


__all__ = ["reexec_command"]
