"""What a plot shows, computed from the processed DataFrame without drawing anything: the
metric, the panels, one series per annotation (or annotation variant) with its points, CI95
error sizes and aggregates, the labels and the y scale (nsight-python's plots, with kscope's
changes listed in docs/plots.md).

Parameter columns are found by name (the results' ``parameters``), and compared through their
text (``field=value``), so lists, dicts and tensors in configs work as well as numbers.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ._configs import label
from ._plot_options import PlotOptions
from .exceptions import InvalidArgumentError, ProfilerException

AVG = "Avg"
GEOMEAN = "Geomean"
#: Values spanning more than this ratio (three decades) get a log-scale y axis by default.
LOG_RATIO = 1e3


@dataclass
class Series:
    """One line (or one group of bars) in one panel."""

    label: str
    style: int  # index of the series in the whole figure: same colour in every panel
    x: np.ndarray  # positions of the points: indices into the panel's x_labels
    y: np.ndarray  # AvgValue
    errors: np.ndarray | None  # shape (2, n): distance to CI95 lower and upper; None: no CI
    aggregates: dict[str, float] = field(default_factory=dict)


@dataclass
class Panel:
    """One subplot: its place in the grid, its title and its series."""

    row: int
    col: int
    title: str
    x_labels: list[str]
    series: list[Series]


@dataclass
class FigureData:
    """Everything the drawing needs."""

    title: str
    ylabel: str
    nrows: int
    ncols: int
    panels: list[Panel]
    aggregates: tuple[str, ...]  # names of the aggregate groups after the configurations
    log_y: bool
    table: pd.DataFrame  # the plotted rows, for print_data


def value_text(value: Any) -> str:
    """A parameter value as it appears in labels (``n=1024``, ``shape=[1024, 512]``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return str(float(value))
    return label(value)


def select_metric(frame: pd.DataFrame, metric: str | None) -> str:
    """The metric to plot: ``metric`` if the results have it, else the only one there is
    (nsight-python's texts)."""
    found = list(pd.unique(frame["Metric"]))
    if metric is None:
        if len(found) > 1:
            raise InvalidArgumentError(
                f"Cannot visualize multiple metrics ({len(found)} > 1) with the "
                "@nsight.analyze.plot decorator. Please specify a metric to plot. "
                f"The metrics found are: {found}"
            )
        if not found:
            raise InvalidArgumentError(
                "No metrics found in the profile results. Please ensure that the profiler is "
                "configured correctly."
            )
        return str(found[0])
    if metric not in found:
        raise InvalidArgumentError(
            f"Metric '{metric}' not found in the profile results. Please check the metric name "
            f"and try again. The metrics found are: {found}."
        )
    return metric


def _missing_field(name: str, available: Sequence[str]) -> ProfilerException:
    return ProfilerException(
        f"Field '{name}' is not present in the DataFrame. Available fields: {list(available)}"
    )


def check_fields(parameters: Sequence[str], options: PlotOptions) -> None:
    """Raises unless every field the options name is a parameter (and x_keys do not reuse a
    panel or variant field)."""
    for name in (*options.row_panels, *options.col_panels, *options.variant_fields):
        if name not in parameters:
            raise _missing_field(name, parameters)
    if options.x_keys is None:
        return
    used = {*options.row_panels, *options.col_panels, *options.variant_fields}
    overlap = used & set(options.x_keys)
    if overlap:
        raise InvalidArgumentError(
            "x_keys cannot contain fields used in row_panels, col_panels, or variant_fields: "
            f"{overlap}"
        )
    available = [p for p in parameters if p not in used]
    for name in options.x_keys:
        if name not in available:
            raise _missing_field(name, available)


def frame_parameters(frame: pd.DataFrame) -> list[str]:
    """The parameter columns of a processed frame without other information: the columns
    between ``Metric`` and ``AvgValue`` (nsight-python's rule)."""
    columns = list(frame.columns)
    return columns[columns.index("Metric") + 1 : columns.index("AvgValue")]


def _joined(names: Sequence[str], texts: pd.DataFrame, sep: str = ", ") -> pd.Series:
    if not names:
        return pd.Series([""] * len(texts), index=texts.index, dtype=object)
    return texts[list(names)].apply(
        lambda row: sep.join(f"{name}={row[name]}" for name in names), axis=1
    )


def _series_labels(rows: pd.DataFrame, texts: pd.DataFrame, options: PlotOptions) -> pd.Series:
    """The annotation, or ``"<annotation> f1=v1, f2=v2"`` for a split (variant) annotation."""
    labels = rows["Annotation"].astype(str)
    if not options.variant_fields:
        return labels
    if options.variant_annotations is None:  # kscope: no list means every annotation
        split = pd.Series(True, index=labels.index)
    else:
        split = labels.isin(options.variant_annotations)
    return labels.where(~split, labels + " " + _joined(options.variant_fields, texts))


def _unique(values: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys(values))


def _ci_errors(rows: pd.DataFrame) -> np.ndarray | None:
    """Distances from AvgValue to the CI95 bounds, scaled like AvgValue when normalised
    (the engine normalises AvgValue only); NaN where a point has no interval (one run)."""
    if "NormalizationValue" in rows:
        normalized = rows["Normalized"].astype(object).ne(False)
        scale = rows["NormalizationValue"].where(normalized, 1.0).astype(float)
    else:
        scale = pd.Series(1.0, index=rows.index)
    y = rows["AvgValue"].to_numpy(dtype=float)
    low = y - (rows["CI95_Lower"] / scale).to_numpy(dtype=float)
    high = (rows["CI95_Upper"] / scale).to_numpy(dtype=float) - y
    usable = (rows["NumRuns"].to_numpy() > 1) & np.isfinite(low) & np.isfinite(high)
    if not usable.any():
        return None
    errors = np.vstack([low, high])
    errors[:, ~usable] = np.nan
    clipped: np.ndarray = np.clip(errors, 0.0, None)
    return clipped


def _aggregates(y: np.ndarray, names: tuple[str, ...]) -> dict[str, float]:
    finite = y[np.isfinite(y)]
    out: dict[str, float] = {}
    if AVG in names:
        out[AVG] = float(finite.mean()) if finite.size else math.nan
    if GEOMEAN in names:
        positive = finite.size and (finite > 0).all()
        out[GEOMEAN] = float(np.exp(np.log(finite).mean())) if positive else math.nan
    return out


def _series(
    mine: pd.DataFrame, name: str, style: int, x: pd.Series, aggregates: tuple[str, ...]
) -> Series:
    """The series of the rows ``mine``; ``x`` maps every row to its x position."""
    y = mine["AvgValue"].to_numpy(dtype=float)
    return Series(label=name, style=style, x=x[mine.index].to_numpy(dtype=float), y=y,
                  errors=_ci_errors(mine), aggregates=_aggregates(y, aggregates))  # fmt: skip


def _panel_title(row_key: str, col_key: str) -> str:
    return "\n".join(t for t in (row_key, col_key) if t)


def _ylabel(rows: pd.DataFrame, metric: str, options: PlotOptions) -> str:
    text = options.ylabel
    if not text:
        text = metric
        baselines = [b for b in pd.unique(rows["Normalized"].astype(object)) if b is not False]
        if baselines:
            text += f" relative to {baselines[0]}"
    runs = rows["NumRuns"].max() if len(rows) else 0
    return f"{text} (avg: {int(runs)} runs)"


def _auto_log(panels: list[Panel]) -> bool:
    values = np.concatenate([s.y for p in panels for s in p.series] or [np.empty(0)])
    values = values[np.isfinite(values)]
    if values.size == 0 or (values <= 0).any():
        return False
    return bool(values.max() / values.min() > LOG_RATIO)


def shape(
    frame: pd.DataFrame,
    parameters: Sequence[str],
    metric: str,
    options: PlotOptions,
    title: str,
) -> FigureData:
    """The plot of ``metric`` from the processed ``frame`` whose parameter columns are
    ``parameters``; ``title`` is the first title line (GPU and host are added)."""
    check_fields(parameters, options)
    rows = frame[frame["Metric"] == metric].reset_index(drop=True)
    texts = pd.DataFrame(
        {p: [value_text(v) for v in rows[p]] for p in parameters}, index=rows.index
    )
    in_panels = {*options.row_panels, *options.col_panels, *options.variant_fields}
    x_fields = options.x_keys or [p for p in parameters if p not in in_panels]

    series_label = _series_labels(rows, texts, options)
    config_label = _joined(x_fields, texts)
    row_key = _joined(options.row_panels, texts, "\n")
    col_key = _joined(options.col_panels, texts, "\n")
    styles = {name: i for i, name in enumerate(_unique(series_label))}
    aggregates = (AVG,) if options.show_avg else (GEOMEAN,) if options.show_geomean else ()
    row_keys, col_keys = _unique(row_key), _unique(col_key)

    panels = []
    for r, rk in enumerate(row_keys or [""]):
        for c, ck in enumerate(col_keys or [""]):
            here = (row_key == rk) & (col_key == ck)
            x_labels = _unique(config_label[here])
            position = {text: i for i, text in enumerate(x_labels)}
            series = [
                _series(rows[here & (series_label == name)], name, styles[name],
                        config_label.map(position), aggregates)
                for name in _unique(series_label[here])
            ]  # fmt: skip
            panels.append(Panel(r, c, _panel_title(rk, ck), x_labels, series))

    first = frame.iloc[0] if len(frame) else {"GPU": "", "Host": ""}
    table = rows[["Metric", *parameters, "AvgValue", "NumRuns"]].copy()
    table.insert(0, "Annotation", series_label)
    return FigureData(
        title=f"{title}\n{first['GPU']}, {first['Host']}",
        ylabel=_ylabel(rows, metric, options),
        nrows=max(len(row_keys), 1),
        ncols=max(len(col_keys), 1),
        panels=panels,
        aggregates=aggregates,
        log_y=_auto_log(panels) if options.log_y is None else options.log_y,
        table=table,
    )


__all__ = [
    "AVG", "GEOMEAN", "LOG_RATIO", "FigureData", "Panel", "Series", "check_fields",
    "frame_parameters", "select_metric", "shape", "value_text",
]  # fmt: skip
