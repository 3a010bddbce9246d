"""Where CUPTI comes from, as PyTorch's wheels find their CUDA libraries: NVIDIA's
``nvidia-cuda-cupti`` wheel for CUDA 13 (``site-packages/nvidia/cu13/lib``) when it is installed,
else the CUDA toolkit (the run path of the engine's binaries and the dynamic loader's cache).

CUPTI opens its profiler libraries (``libnvperf_host.so``, ``libnvperf_target.so``) by name at
run time, which the run path of kscope's binaries does not reach; so the wheel's directory is put
on ``LD_LIBRARY_PATH`` for the engine's executable here, and :mod:`kscope._cuda_libs` loads the
wheel's libraries before the engine's module. Standard library only: the launcher imports it.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping

CUPTI = "libcupti.so.13"


def cupti_wheel_dir() -> str | None:
    """The ``nvidia/cu13/lib`` directory of an installed nvidia-cuda-cupti wheel, or None."""
    spec = importlib.util.find_spec("nvidia")  # a namespace package: no code runs
    for base in (spec.submodule_search_locations or []) if spec is not None else []:
        directory = os.path.join(base, "cu13", "lib")
        if os.path.isfile(os.path.join(directory, CUPTI)):
            return directory
    return None


def child_environment(environment: Mapping[str, str]) -> dict[str, str]:
    """``environment`` with the wheel's library directory first on ``LD_LIBRARY_PATH`` (for the
    engine's executable); unchanged without the wheel."""
    env = dict(environment)
    directory = cupti_wheel_dir()
    if directory is not None:
        rest = env.get("LD_LIBRARY_PATH")
        env["LD_LIBRARY_PATH"] = directory + (os.pathsep + rest if rest else "")
    return env


__all__ = ["CUPTI", "child_environment", "cupti_wheel_dir"]
