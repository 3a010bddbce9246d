"""The sweep's progress where it runs: in Jupyter, a live ``tqdm.auto`` bar when tqdm is
installed (``pip install 'kernelscope[progress]'``); elsewhere the engine's own line (redrawn in
place on a terminal, plain lines every few seconds in logs and in notebooks without tqdm)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


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
    only inside Jupyter with tqdm installed."""
    if not in_notebook():
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return NotebookProgress(tqdm, name)


__all__ = ["NotebookProgress", "in_notebook", "notebook_progress"]
