"""compute-sanitizer's findings of a ``tool="sanitizer"`` result as a DataFrame (one row per
finding, docs/tools/sanitizer.md). The engine carries them in its JSON document, so they are read
from there."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._dataframe import _object_column, _parameter_columns

#: The columns of a findings DataFrame, parameters after ``Annotation``.
LEADING_COLUMNS = ("Check", "Kind", "Category", "Severity", "Annotation")
TRAILING_COLUMNS = ("Kernel", "Block", "Thread", "Address", "Size", "File", "Line", "Detail",
                    "Count", "Config", "Run", "Attribution", "HostStack")  # fmt: skip


def engine_findings(results: Any) -> list[dict[str, Any]]:
    """The findings of an engine ``Results`` (empty for the measuring tools), as the JSON
    document spells them."""
    if str(results.metadata.tool) != "sanitizer":
        return []
    return list(json.loads(results.to_json()).get("findings", []))


def _dim3(value: Any) -> tuple[int, int, int] | None:
    return None if value is None else tuple(int(v) for v in value)  # type: ignore[return-value]


def findings_frame(
    findings: Sequence[dict[str, Any]], parameters: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> pd.DataFrame:
    """``Check, Kind, Category, Severity, Annotation, <parameters>, Kernel, Block, Thread,
    Address, Size, File, Line, Detail, Count, Config, Run, Attribution, HostStack``: one row per
    finding (``Category``: compute-sanitizer's record kind, ``ApiError`` for a failed CUDA API
    call), the parameter columns holding the config's Python values (None when the config is
    unknown). No findings: an empty frame with the same columns."""
    n = len(findings)
    known = [f.get("config") is not None and f["config"] < len(rows) for f in findings]
    columns: dict[str, Any] = {
        "Check": [f.get("check", "") for f in findings],
        "Kind": [f.get("kind", "") for f in findings],
        "Category": [f.get("category", "") for f in findings],
        "Severity": [f.get("severity", "") for f in findings],
        "Annotation": [f.get("annotation", "") for f in findings],
    }
    padded = list(rows) + [tuple(None for _ in parameters)]
    config_of_row = [f["config"] if k else len(rows) for f, k in zip(findings, known)]
    columns.update(_parameter_columns(parameters, padded, config_of_row))
    columns.update(
        {
            "Kernel": [f.get("kernel", "") for f in findings],
            "Block": _object_column([_dim3(f.get("block")) for f in findings]),
            "Thread": _object_column([_dim3(f.get("thread")) for f in findings]),
            "Address": pd.array([f.get("address") for f in findings], dtype="UInt64"),
            "Size": pd.array([f.get("size") for f in findings], dtype="UInt64"),
            "File": [f.get("file", "") for f in findings],
            "Line": pd.array([f.get("line") for f in findings], dtype="Int64"),
            "Detail": [f.get("detail", "") for f in findings],
            "Count": np.array([f.get("count", 1) for f in findings], dtype=np.int64),
            "Config": pd.array([f.get("config") for f in findings], dtype="Int64"),
            "Run": pd.array([f.get("run") for f in findings], dtype="Int64"),
            "Attribution": [f.get("attribution", "") for f in findings],
            "HostStack": _object_column([list(f.get("host_stack", [])) for f in findings]),
        }
    )
    return pd.DataFrame(columns, index=pd.RangeIndex(n))


__all__ = ["LEADING_COLUMNS", "TRAILING_COLUMNS", "engine_findings", "findings_frame"]
