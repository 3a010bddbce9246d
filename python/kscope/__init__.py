"""kscope: GPU kernel benchmarking and profiling, with nsight-python's API.

A script written for nsight-python runs after ``import kscope as nsight``::

    import kscope

    @kscope.analyze.kernel(configs=[(1024,), (2048,)], runs=10)
    def matmul(n):
        a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
        with kscope.annotate("torch"):
            a @ b

    df = matmul().to_dataframe()

See docs/python.md.
"""

from __future__ import annotations

from . import exceptions
from ._native import native as _native
from . import analyze, experimental
from .annotation import annotate
from .device import device_available, device_unavailable_reason
from .info_collectors import CollectionScope, InfoCollector
from .results import ProfileResults, load, load_ncu
from .sanitize import sanitize
from .tools import Tool, activate, deactivate, get_active_tool
from .verbosity import VerbosityLevel

__version__: str = _native.version()

__all__ = [
    "CollectionScope",
    "InfoCollector",
    "ProfileResults",
    "Tool",
    "VerbosityLevel",
    "activate",
    "analyze",
    "annotate",
    "deactivate",
    "device_available",
    "device_unavailable_reason",
    "exceptions",
    "experimental",
    "get_active_tool",
    "load",
    "load_ncu",
    "sanitize",
]
