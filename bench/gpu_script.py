"""What the GPU benchmark scripts run by run_bench.py share: why one cannot run here (printed as
its one JSON line, which run_bench.py reports as a skip) and timing a call."""

from __future__ import annotations

import time
from typing import Any, Callable

import kscope


def skip_reason() -> str | None:
    """Why the script cannot measure here (no device, no torch), or None."""
    if not kscope.device_available():
        return f"no CUDA device: {kscope.device_unavailable_reason()}"
    try:
        import torch  # noqa: F401
    except ImportError as e:
        return f"torch not installed ({e})"
    return None


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """fn's result and its wall time in ms."""
    t0 = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - t0) * 1e3
