"""Whether the ``kscope`` command colours what it writes (docs/cli.md, "Colour"); the engine's
executable follows the same rule (cli/colour.cpp)."""

from __future__ import annotations

import os
from typing import TextIO

#: ANSI sequences of the colours the command uses, and the reset.
BOLD, RED, GREEN, YELLOW, RESET = "\x1b[1m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"


def colour_for(stream: TextIO) -> bool:
    """True when text written to ``stream`` gets ANSI colours: never when ``NO_COLOR`` is set and
    not empty (https://no-color.org); else always when ``FORCE_COLOR`` is set, not empty and not
    ``"0"``; else when ``stream`` is a terminal and ``TERM`` is not ``"dumb"``."""
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR", "")
    if force and force != "0":
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def tinted(text: str, colour: str, stream: TextIO) -> str:
    """``text`` in ``colour`` (one of the sequences above) when ``stream`` gets colours."""
    return f"{colour}{text}{RESET}" if colour_for(stream) else text


__all__ = ["BOLD", "GREEN", "RED", "RESET", "YELLOW", "colour_for", "tinted"]
