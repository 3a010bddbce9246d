"""kscope: GPU kernel benchmarking and profiling, with nsight-python's API.

A script written for nsight-python runs after ``import kscope as nsight``::

    import kscope

    @kscope.analyze.kernel(configs=[(1024,), (2048,)], runs=10)
    def matmul(n):
        a = torch.randn(n, n, device="cuda"); b = torch.randn(n, n, device="cuda")
        with kscope.annotate("torch"):
            a @ b

    df = matmul().to_dataframe()

The modules are nsight-python's, one per stage of a call: :mod:`~kscope.analyze` (the
decorators), :mod:`~kscope.annotation`, :mod:`~kscope.collection` (``core``: the session and
``ProfileResults``), :mod:`~kscope.extraction` (derived metrics), :mod:`~kscope.transformation`
(DataFrames), :mod:`~kscope.visualization` (plots), :mod:`~kscope.info_collector`,
:mod:`~kscope.thermovision`, :mod:`~kscope.tools_manager`, :mod:`~kscope.exceptions`,
:mod:`~kscope.experimental`, :mod:`~kscope.utils`; and kscope's :mod:`~kscope.sanitize`,
:mod:`~kscope.comparison` (:func:`compare`), :mod:`~kscope.timing` (:func:`time`: one
measurement of a callable) and :mod:`~kscope.testing` (``do_bench`` for Triton's users). See
docs/python.md.
"""

from __future__ import annotations

from . import exceptions
from ._native import native as _native
from . import (
    analyze,
    annotation,
    collection,
    comparison,
    experimental,
    extraction,
    info_collector,
    testing,
    thermovision,
    timing,
    tools_manager,
    transformation,
    utils,
    visualization,
)
from ._cupti_handoff import release
from .annotation import annotate
from .collection.core import OutputFormat, ProfileResults, load, load_ncu, output_formats
from .comparison import Comparison, compare
from .info_collector import CollectionScope, InfoCollector
from .sanitize import sanitize
from .timing import Timing, time
from .tools_manager import Tool, activate, deactivate, get_active_tool
from .utils import (
    VerbosityLevel,
    col_panel,
    device_available,
    device_unavailable_reason,
    row_panel,
)

__version__: str = _native.version()

__all__ = [
    "CollectionScope",
    "Comparison",
    "InfoCollector",
    "OutputFormat",
    "ProfileResults",
    "Timing",
    "Tool",
    "VerbosityLevel",
    "activate",
    "analyze",
    "annotate",
    "annotation",
    "col_panel",
    "collection",
    "compare",
    "comparison",
    "deactivate",
    "device_available",
    "device_unavailable_reason",
    "exceptions",
    "experimental",
    "extraction",
    "get_active_tool",
    "info_collector",
    "load",
    "load_ncu",
    "output_formats",
    "release",
    "row_panel",
    "sanitize",
    "testing",
    "thermovision",
    "time",
    "timing",
    "tools_manager",
    "transformation",
    "utils",
    "visualization",
]
