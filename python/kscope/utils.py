"""``kscope.utils``: what every stage shares (nsight-python's ``nsight.utils``): the verbosity
levels, the plot-panel markers, warnings attributed to the user's call, the value helpers for
config values, the sweep's progress display and the tables' length in notebooks, and the device
check.
"""

from __future__ import annotations

import importlib
import numbers
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from enum import IntEnum
from types import FrameType, ModuleType
from typing import Any

import numpy as np

from ._native import native

#: nsight-python's flag for whether ``annotate(..., ignore_failures=True)`` can work (it needs
#: cuda-core there, to launch a dummy kernel). kscope's engine records a failed run itself, so
#: it is always True (docs/python.md, "Differences from nsight-python").
CUDA_CORE_AVAILABLE: bool = True


class VerbosityLevel(IntEnum):
    """Output levels; level N enables the output of every level <= N.

    - ``SILENT``: nothing on stdout.
    - ``INFO`` (default): header box, progress, completion messages, file paths.
    - ``DEBUG``: additionally a box per config and the tools' details.
    """

    SILENT = 0
    INFO = 3
    DEBUG = 4


class row_panel:  # noqa: N801 - nsight-python's name
    """nsight-python's marker class (``nsight.row_panel``); kscope's plots take
    ``row_panels=[...]`` field names instead (docs/plots.md)."""


class col_panel:  # noqa: N801 - nsight-python's name
    """nsight-python's marker class (``nsight.col_panel``); kscope's plots take
    ``col_panels=[...]`` field names instead (docs/plots.md)."""


# ---------------------------------------------------------------------------------------------
# Warnings attributed to the user's code rather than to kscope's internals.

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def find_external_stacklevel() -> int:
    """The ``warnings.warn`` stack level of the first frame outside the kscope package (the
    caller of this function counts as level 1)."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level


def _external_frame() -> FrameType | None:
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    return frame


def user_package_name() -> str:
    """The name under which the calling user code reaches this package, so that messages name
    the call the user wrote: ``"nsight"`` after ``import kscope as nsight`` or through a module
    ``nsight`` that re-exports kscope, else ``"kscope"``.

    Looks for a package whose ``analyze`` is :mod:`kscope.analyze` among the globals of the
    first frame outside kscope (an alias wins over ``kscope`` itself), then among the imported
    top-level packages."""
    analyze = sys.modules.get(__package__ + ".analyze")

    def reexports(value: Any) -> bool:
        # The module's own namespace only: getattr could run a lazy module's __getattr__.
        if not isinstance(value, ModuleType):
            return False
        namespace = getattr(value, "__dict__", {})
        return "__path__" in namespace and namespace.get("analyze") is analyze

    frame = _external_frame()
    globals_ = frame.f_globals if frame is not None else {}
    names = [name for name, value in globals_.items() if reexports(value)]
    names += [name for name, module in list(sys.modules.items())
              if "." not in name and reexports(module)]
    aliases = [name for name in names if name != __package__]
    return aliases[0] if aliases else __package__


def warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` with the stack level of the first frame outside the kscope package,
    so the warning points at the user's call (nsight-python does the same)."""
    warnings.warn(message, category, stacklevel=find_external_stacklevel())


# ---------------------------------------------------------------------------------------------
# Config values: how they are told apart and shown.

_LABEL_WIDTH = 48


def is_scalar(config: Any) -> bool:
    """Whether a config is a scalar (a str, or anything that is not a sequence)."""
    return isinstance(config, str) or not isinstance(config, Sequence)


def is_bool(value: Any) -> bool:
    """Python or numpy bool (numpy's is not an int subclass, and not a ``bool``)."""
    return isinstance(value, (bool, np.bool_))


def label(value: Any) -> str:
    """A short one-line text for a value the engine cannot hold (tensor, tuple, dict, ...)."""
    shape, dtype = (None, None) if type(value) in (int, float) else (
        getattr(value, "shape", None), getattr(value, "dtype", None))  # a sweep's million ints
    if shape is not None and dtype is not None and not isinstance(value, numbers.Number):
        text = f"{type(value).__name__}(shape={tuple(shape)}, dtype={dtype})"
    else:
        text = " ".join(repr(value).split())
    return text if len(text) <= _LABEL_WIDTH else text[: _LABEL_WIDTH - 3] + "..."


# ---------------------------------------------------------------------------------------------
# The sweep's progress where it runs: in Jupyter, a live ``tqdm.auto`` widget when tqdm and
# ipywidgets are installed (``pip install 'kernelscope[progress]'``); elsewhere the engine's own
# line (redrawn in place on a terminal, plain lines every few seconds in logs and in notebooks
# without them).


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython's ZMQ shell), where stdout is no terminal but a
    live widget can be drawn."""
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if callable(get_ipython) else None
    return type(shell).__name__ == "ZMQInteractiveShell"


class NotebookProgress:
    """Feeds the engine's progress updates (``ProgressUpdate``) into one tqdm bar per sweep,
    created at the first update and closed at the last."""

    def __init__(self, tqdm: Callable[..., Any], name: str) -> None:
        self._tqdm = tqdm
        self._name = name
        self._bar: Any = None

    def __call__(self, update: Any) -> None:
        if self._bar is None:
            self._bar = self._tqdm(total=update.total_runs, desc=self._name, unit="run")
        self._bar.n = update.done_runs
        label = f" ({update.label})" if update.label else ""
        self._bar.set_postfix_str(f"config {update.config + 1}/{update.num_configs}{label}")
        self._bar.refresh()
        if update.finished:
            self._bar.close()
            self._bar = None


def notebook_progress(name: str) -> Callable[[Any], None] | None:
    """A progress display for the sweep of ``name``, or None for the engine's printed line:
    only inside Jupyter with tqdm and ipywidgets installed (without ipywidgets tqdm.auto warns
    and falls back to a text bar; the engine's line is the better text)."""
    if not in_notebook():
        return None
    try:
        importlib.import_module("ipywidgets")
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return NotebookProgress(tqdm, name)


def notebook_max_rows() -> int:
    """How many rows the HTML tables of a notebook show (``ProfileResults._repr_html_``,
    ``Comparison._repr_html_``): pandas' ``display.max_rows`` (60 by default), 0 (all) when that
    is None or 0. The rest are left out, with a line saying how many."""
    import pandas as pd

    value = pd.get_option("display.max_rows")
    return int(value) if value else 0


# ---------------------------------------------------------------------------------------------
# Whether a CUDA device is usable here: the engine's own check (the one that makes a sweep stop
# with "no CUDA device: <why>"), for skipping GPU work the way kscope's tests do::
#
#     gpu = pytest.mark.skipif(not kscope.device_available(),
#                              reason=kscope.device_unavailable_reason())


def device_available() -> bool:
    """True when a CUDA device is usable (a driver is loaded and a device answers); starting
    no profiler and changing no device state."""
    available, _ = native.device_available()
    return bool(available)


def device_unavailable_reason() -> str:
    """Why no CUDA device is usable (the text after "no CUDA device: "), or "" when one is."""
    available, reason = native.device_available()
    return "" if available else str(reason)


__all__ = [
    "CUDA_CORE_AVAILABLE",
    "NotebookProgress",
    "VerbosityLevel",
    "col_panel",
    "device_available",
    "device_unavailable_reason",
    "find_external_stacklevel",
    "in_notebook",
    "is_bool",
    "is_scalar",
    "label",
    "notebook_max_rows",
    "notebook_progress",
    "row_panel",
    "user_package_name",
    "warn",
]
