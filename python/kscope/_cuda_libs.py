"""CUPTI from NVIDIA's ``nvidia-cuda-cupti`` wheel, loaded before the engine's module: the
module needs ``libcupti.so.13``, and CUPTI opens its profiler libraries by name. Where the wheel
is, and the engine executable's ``LD_LIBRARY_PATH``, are :mod:`kscope_launcher.cuda_libs`'s.
"""

from __future__ import annotations

import ctypes
import os

from kscope_launcher.cuda_libs import CUPTI, cupti_wheel_dir

_PROFILER_LIBRARIES = ("libnvperf_host.so", "libnvperf_target.so")


def preload() -> None:
    """Loads the wheel's CUPTI and profiler libraries process-wide, so that the engine's module
    (which needs ``libcupti.so.13``) and CUPTI itself find them; nothing without the wheel."""
    directory = cupti_wheel_dir()
    if directory is None:
        return
    for name in (CUPTI, *_PROFILER_LIBRARIES):
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


__all__ = ["CUPTI", "preload"]
