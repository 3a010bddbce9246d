"""``kscope.collection``: how measurements are collected (nsight-python's
``nsight.collection``). :mod:`kscope.collection.core` runs one profiling session of the engine
per call of a decorated function; :mod:`kscope.collection.reexec` says how the program is
started again for the tools that re-run it (ncu, compute-sanitizer). The tools themselves are
the engine's (src/collect/); which one measures is chosen in :mod:`kscope.tools_manager`.
"""

from __future__ import annotations

from . import core, reexec

__all__ = ["core", "reexec"]
