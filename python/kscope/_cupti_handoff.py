"""kscope's CUPTI state between sweeps, and torch.profiler.

The cupti tool keeps its CUPTI subscription and kernel activity records from one sweep to the
next (docs/cost.md), and CUPTI has one subscriber per process. torch.profiler (Kineto) subscribes
when a profiler starts, so after a sweep its two entry points are wrapped: they release kscope's
CUPTI state first (:func:`kscope.release`), and torch.profiler works as without kscope.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

from ._native import native

_ENTRY_POINTS = ("_prepare_profiler", "_enable_profiler")  # torch.autograd.profiler's calls


def release() -> None:
    """Gives up what kscope keeps loaded between sweeps of this process: the cupti tool's CUPTI
    subscription and kernel activity records, a range profiler kept by ``KSCOPE_KEEP_COUNTERS_S``,
    and NVML. The next sweep sets them up again, which costs what a process's first sweep pays for
    them (tens of milliseconds on an H200; docs/cost.md). Call it before another CUPTI client
    of your own needs the process; kscope does it by itself before torch.profiler starts, before
    ncu or compute-sanitizer re-run the program, and at exit."""
    native.release()


def _releasing(original: Any) -> Any:
    @functools.wraps(original)
    def call(*args: Any, **kwargs: Any) -> Any:
        native.release()
        return original(*args, **kwargs)

    call.__kscope_releases__ = True  # type: ignore[attr-defined]
    return call


def hand_over_to_torch_profiler() -> None:
    """Wraps torch.profiler's entry points (when torch is imported) so that they release
    kscope's CUPTI state first; done once."""
    module = sys.modules.get("torch.autograd.profiler")
    if module is None:
        return
    for name in _ENTRY_POINTS:
        original = getattr(module, name, None)
        if original is not None and not getattr(original, "__kscope_releases__", False):
            setattr(module, name, _releasing(original))


__all__ = ["hand_over_to_torch_profiler", "release"]
