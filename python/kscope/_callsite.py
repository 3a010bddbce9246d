"""Warnings attributed to the user's code rather than to kscope's internals."""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` with the stack level of the first frame outside the kscope package,
    so the warning points at the user's call (nsight-python does the same)."""
    frame: FrameType | None = sys._getframe(0)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
