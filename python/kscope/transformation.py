"""``kscope.transformation``: the engine's results as pandas DataFrames (nsight-python's
``nsight.transformation``): the processed and raw tables in nsight-python's column order
(docs/output-schema.md) with the original Python objects in the parameter columns, the
findings of the sanitizer tool (one row per finding, docs/tools/sanitizer.md; the engine carries
them in its JSON document, so they are read from there), and nsight-python's
:func:`aggregate_data` over a raw frame.

The statistics themselves (averages, deviations, CI95, normalisation, geomean) are computed by
the engine (src/core/transformation*), for C++ and Python alike.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._native import native
from .utils import VerbosityLevel


def _object_column(values: Sequence[Any]) -> pd.Series:
    # Filled element by element so that tuples, lists and tensors stay single objects (a plain
    # constructor would try to broadcast them); infer_objects then gives ints int64, floats
    # float64, and so on.
    array = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        array[i] = value
    return pd.Series(array, dtype=object).infer_objects()


def _parameter_columns(
    parameters: Sequence[str], rows: Sequence[tuple[Any, ...]], config_of_row: Sequence[int]
) -> dict[str, pd.Series]:
    return {
        name: _object_column([rows[c][j] if j < len(rows[c]) else None for c in config_of_row])
        for j, name in enumerate(parameters)
    }


def _info_columns(names: Sequence[str], rows: Sequence[Any]) -> dict[str, Any]:
    # The engine's values are floats, strings or None: numeric columns become float64, the rest
    # keep their strings.
    return {
        name: _object_column([r.info[i] if i < len(r.info) else None for r in rows])
        for i, name in enumerate(names)
    }


def _environment_columns(metadata: Any, n: int) -> dict[str, Any]:
    return {
        "GPU": [metadata.gpu] * n,
        "Host": [metadata.host] * n,
        "ComputeClock": np.full(n, metadata.compute_clock, dtype=np.int64),
        "MemoryClock": np.full(n, metadata.memory_clock, dtype=np.int64),
    }


#: How a kind of the engine's processed columns (``processed_frame_columns``) becomes a
#: DataFrame column.
_FRAME_COLUMN: dict[str, Callable[[list[Any]], Any]] = {
    "float": lambda values: np.array(values, dtype=float),
    "int": lambda values: np.array(values, dtype=np.int64),
    "boolean": lambda values: pd.array(values, dtype="boolean"),
    "list": lambda values: values,
    "object": _object_column,
}


#: nsight-python's statistics of :func:`aggregate_data`, in its order (NormalizationValue only
#: when normalised).
AGGREGATE_COLUMNS = ("AvgValue", "StdDev", "MinValue", "MaxValue", "NumRuns", "CI95_Lower",
                     "CI95_Upper", "RelativeStdDevPct", "StableMeasurement", "Normalized",
                     "NormalizationValue", "Geomean")  # fmt: skip


def processed_frame(results: Any, rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """One row per (annotation, metric, config), the engine's processed columns in their order
    (``Annotation, Metric, <parameters>, AvgValue, ...``, docs/output-schema.md): each column as
    the CSV file has it, numbers as float64 or int64; an info collector's columns are
    ``<name>`` or ``<name>_Avg/_Std/_Min/_Max`` (docs/info-collectors.md). ``attrs`` holds
    ``duration_definition``, what made its durations (:func:`_with_definition`)."""
    columns: dict[str, Any] = {}
    for name, kind, values in native.processed_frame_columns(results):
        if kind == "parameters":
            columns.update(_parameter_columns(results.parameters, rows, values))
        else:
            columns[name] = _FRAME_COLUMN[kind](values)
    frame = pd.DataFrame(columns, index=pd.RangeIndex(len(results.processed)))
    return _with_definition(frame, results)


def _with_definition(frame: pd.DataFrame, results: Any) -> pd.DataFrame:
    """``frame`` with ``attrs["duration_definition"]``: ``"activity"``, ``"profiler"``,
    ``"events"``, ``"ncu"``, ``"ncu import"`` (``"mixed"``: a merge of several; ``""``: no
    duration, or a file written before kscope recorded it; docs/tools/cupti.md#durations)."""
    frame.attrs["duration_definition"] = str(results.metadata.duration_definition)
    return frame


def stops_frame(results: Any, rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """``runs="auto"``: one row per config, ``<parameters>, Runs, StopReason, RelCI95,
    Seconds`` (docs/options.md, "Adaptive runs"); empty with a fixed run count."""
    stops = list(results.stops)
    columns: dict[str, Any] = dict(
        _parameter_columns(results.parameters, rows, [s.config for s in stops])
    )
    columns["Runs"] = np.array([s.runs for s in stops], dtype=np.int64)
    columns["StopReason"] = [str(s.reason) for s in stops]
    columns["RelCI95"] = np.array([s.rel_ci for s in stops], dtype=float)
    columns["Seconds"] = np.array([s.seconds for s in stops], dtype=float)
    return pd.DataFrame(columns, index=pd.RangeIndex(len(stops)))


def raw_frame(results: Any, rows: Sequence[tuple[Any, ...]]) -> pd.DataFrame:
    """One row per (annotation, metric, config, run): ``Annotation, Value, Metric, Kernel, GPU,
    Host, ComputeClock, MemoryClock, Unit, <info collectors>, <parameters>``."""
    raw = results.raw
    n = len(raw)
    columns: dict[str, Any] = {
        "Annotation": [r.annotation for r in raw],
        "Value": np.array([r.value for r in raw], dtype=float),
        "Metric": [r.metric for r in raw],
        "Kernel": [r.kernel for r in raw],
    }
    columns.update(_environment_columns(results.metadata, n))
    columns["Unit"] = [np.nan if r.unit is None else r.unit for r in raw]
    columns.update(_info_columns(native.raw_info_columns(results.info_columns), raw))
    columns.update(_parameter_columns(results.parameters, rows, [r.config for r in raw]))
    return _with_definition(pd.DataFrame(columns, index=pd.RangeIndex(n)), results)


#: The columns of a findings DataFrame, parameters after ``Annotation``.
LEADING_COLUMNS = ("Check", "Kind", "Category", "Severity", "Annotation")
TRAILING_COLUMNS = ("Kernel", "Block", "Thread", "Address", "Size", "File", "Line", "Detail",
                    "Count", "Config", "Run", "Attribution", "HostStack")  # fmt: skip


def engine_findings(results: Any) -> list[dict[str, Any]]:
    """The findings of an engine ``Results`` (empty for the measuring tools), as the JSON
    document spells them."""
    if not results.checked:
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


def _config_key(value: Any) -> Any:
    # Configs are grouped by value where values compare as scalars, by identity for arrays and
    # tensors (whose == is elementwise), by their text for lists and dicts (unhashable).
    if getattr(value, "shape", None) is not None and not isinstance(value, (int, float, str)):
        return ("object", id(value))
    try:
        hash(value)
    except TypeError:
        return ("text", type(value).__name__, repr(value))
    return ("value", value)


def aggregate_data(
    df: pd.DataFrame,
    func: Callable[..., Any],
    normalize_against: str | None,
    verbosity: VerbosityLevel,
) -> pd.DataFrame:
    """nsight-python's ``aggregate_data``: a raw frame (one row per run: ``Annotation``,
    ``Metric``, ``Value``, any other columns, then one column per parameter of ``func``, last)
    grouped by annotation, metric and config with the engine's statistics
    (``kscope::aggregate_rows``, as ``ProfileResults.to_dataframe()`` computes them).

    Returns ``Annotation, Metric, <other columns: the group's first value>, <parameters>,
    AvgValue, StdDev, MinValue, MaxValue, NumRuns, CI95_Lower, CI95_Upper, RelativeStdDevPct,
    StableMeasurement, Normalized, [NormalizationValue], Geomean`` in first-appearance order; the
    parameter columns hold the configs' objects (dicts, lists and tensors stay themselves).
    """
    if verbosity >= VerbosityLevel.INFO:
        print("[kscope] Processing profiled data")
    params = [p for p in inspect.signature(func).parameters.values()
              if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    parameters = list(df.columns[-len(params):]) if params else []
    others = [c for c in df.columns if c not in ("Annotation", "Metric", "Value", *parameters)]
    keys: dict[tuple[Any, ...], int] = {}
    configs: list[tuple[Any, ...]] = []
    runs: dict[tuple[str, str, int], int] = {}
    rows = []
    first_of_group: dict[tuple[str, str, int], int] = {}
    for position, record in enumerate(df.itertuples(index=False)):
        values = dict(zip(df.columns, record))
        config = tuple(values[c] for c in parameters)
        key = tuple(_config_key(v) for v in config)
        index = keys.setdefault(key, len(configs))
        if index == len(configs):
            configs.append(config)
        row = native.RawRow()
        row.annotation = str(values["Annotation"])
        row.metric = str(values["Metric"])
        row.value = float(values["Value"])
        row.kernel = str(values.get("Kernel", ""))
        unit = values.get("Unit")
        row.unit = unit if isinstance(unit, str) else None
        row.config = index
        group = (row.annotation, row.metric, index)
        row.run = runs.get(group, 0)
        runs[group] = row.run + 1
        first_of_group.setdefault(group, position)
        rows.append(row)
    processed = native.aggregate_rows(rows, normalize_against or "")
    n = len(processed)
    firsts = [first_of_group[(p.annotation, p.metric, p.config)] for p in processed]
    columns: dict[str, Any] = {
        "Annotation": [p.annotation for p in processed],
        "Metric": [p.metric for p in processed],
    }
    for name in others:
        columns[name] = _object_column([df[name].iloc[i] for i in firsts])
    columns.update(_parameter_columns(parameters, configs, [p.config for p in processed]))
    for name, kind, values in native.row_frame_columns(processed, AGGREGATE_COLUMNS):
        columns[name] = _FRAME_COLUMN[kind](values)
    return pd.DataFrame(columns, index=pd.RangeIndex(n))


__all__ = [
    "LEADING_COLUMNS", "TRAILING_COLUMNS", "aggregate_data", "engine_findings", "findings_frame",
    "processed_frame", "raw_frame",
]  # fmt: skip
