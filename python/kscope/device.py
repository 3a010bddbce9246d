"""Whether a CUDA device is usable here: the engine's own check (the one that makes a sweep
stop with "no CUDA device: <why>"), for skipping GPU work the way kscope's tests do::

    import pytest, kscope

    gpu = pytest.mark.skipif(not kscope.device_available(),
                             reason=kscope.device_unavailable_reason())
"""

from __future__ import annotations

from ._native import native


def device_available() -> bool:
    """True when a CUDA device is usable (a driver is loaded and a device answers); starting
    no profiler and changing no device state."""
    available, _ = native.device_available()
    return bool(available)


def device_unavailable_reason() -> str:
    """Why no CUDA device is usable (the text after "no CUDA device: "), or "" when one is."""
    available, reason = native.device_available()
    return "" if available else str(reason)


__all__ = ["device_available", "device_unavailable_reason"]
