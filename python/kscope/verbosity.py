"""How much kscope prints."""

from __future__ import annotations

from enum import IntEnum


class VerbosityLevel(IntEnum):
    """Output levels; level N enables the output of every level <= N.

    - ``SILENT``: nothing on stdout.
    - ``INFO`` (default): header box, progress, completion messages, file paths.
    - ``DEBUG``: additionally a box per config and the tools' details.
    """

    SILENT = 0
    INFO = 3
    DEBUG = 4


__all__ = ["VerbosityLevel"]
