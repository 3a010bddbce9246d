"""Access to the private extension module ``kscope._kscope`` (the C++ engine).

Every other module imports the engine through here, so that a missing build fails with one
message that says how to build it, and so that the engine's error classes are mapped onto
:mod:`kscope.exceptions` exactly once.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import _cuda_libs, exceptions

_cuda_libs.preload()  # CUPTI from the nvidia-cuda-cupti wheel when installed
try:
    # Imported by name: the extension has no type stubs, so `native` is typed Any.
    native: Any = importlib.import_module("kscope._kscope")
except ImportError as error:  # pragma: no cover - depends on the build
    raise ImportError(
        "kscope's native module kscope._kscope is not built or cannot be loaded "
        f"({error}). When it names {_cuda_libs.CUPTI}: install NVIDIA's CUPTI wheel "
        "(pip install 'nvidia-cuda-cupti~=13.0.85', a dependency of kernelscope) or put the "
        "CUDA toolkit's lib directory on LD_LIBRARY_PATH. Otherwise install the package "
        "(pip install 'kernelscope[plot]', or `pip install .` in a checkout), or build it "
        "in-tree with `cmake -S . -B build -G Ninja -DKSCOPE_BUILD_PYTHON=ON && ninja -C build "
        "_kscope` and put the repository's python/ directory on PYTHONPATH."
    ) from error

native._register_exceptions(exceptions.ENGINE_EXCEPTIONS)

__all__ = ["native"]
