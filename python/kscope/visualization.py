"""``kscope.visualization``: plots of kscope results (nsight-python's ``nsight.visualization``),
the drawing behind ``@kscope.analyze.plot``, ``ProfileResults.plot`` and ``kscope plot``
(docs/plots.md). Three parts, in the order a plot is made:

1. the options (:class:`PlotOptions`): one validated, immutable record, checked when the
   decorator is applied so that a typo fails before the sweep runs;
2. what a plot shows (:func:`shape`), computed from the processed DataFrame without drawing
   anything: the metric, the panels, one series per annotation (or annotation variant) with its
   points, CI95 error sizes and aggregates, the labels and the y scale (nsight-python's plots,
   with kscope's changes listed in docs/plots.md). Parameter columns are found by name (the
   results' ``parameters``) and compared through their text (``field=value``), so lists, dicts
   and tensors in configs work as well as numbers;
3. the drawing (:func:`draw`, :func:`render`, :func:`plot_dataframe`). Figures are built with
   matplotlib's object API and rendered by the Agg canvas, so no window ever opens and
   pyplot's global state is untouched. When matplotlib.pyplot has not been imported yet and
   there is no display, pyplot's backend is set to Agg as well (for ``plot_callback`` code that
   uses pyplot on a server).

matplotlib is imported by the drawing only, so options and fields are checked without it.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, get_args

import numpy as np
import pandas as pd

from .exceptions import FileFormatError, InvalidArgumentError, ProfilerException
from .utils import label

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _matplotlib() -> Any:
    """The ``matplotlib`` module, imported on first use; ImportError naming the extra without
    it."""
    try:
        import matplotlib
        import matplotlib.backends.backend_agg
        import matplotlib.figure
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ImportError(
            f"kscope's plots need matplotlib ({error}): pip install 'kernelscope[plot]' "
            "(or pip install matplotlib)"
        ) from error
    return matplotlib


# ---------------------------------------------------------------------------------------------
# 1. The options.

PlotType = Literal["line", "bar"]
Aggregate = Literal["avg", "geomean"]
PLOT_TYPES: tuple[str, ...] = get_args(PlotType)
AGGREGATES: tuple[str, ...] = get_args(Aggregate)


def _fields(name: str, value: str | Sequence[str] | None) -> tuple[str, ...]:
    """A list of parameter names; one name alone (a str) is accepted as a list of one."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{name} must be a list of parameter names, got {value!r}")
    return tuple(value)


def _choice(name: str, value: Any, allowed: tuple[str, ...], none_ok: bool) -> None:
    if (value is None and none_ok) or value in allowed:
        return
    choices = ", ".join(repr(a) for a in allowed) + (" or None" if none_ok else "")
    raise InvalidArgumentError(f"Invalid {name} {value!r}. Expected one of: {choices}.")


def _size(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value) > 0:
        raise InvalidArgumentError(f"{name} must be a positive number of inches, got {value!r}")
    return float(value)


def _optional_bool(name: str, value: Any) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{name} must be True, False or None (automatic), got {value!r}")
    return value


@dataclass(frozen=True)
class PlotOptions:
    """Validated plot options (see :func:`kscope.analyze.plot` for their meaning).

    Field lists are tuples; ``error_bars`` and ``log_y`` are None for "automatic".
    """

    title: str | None = None
    ylabel: str | None = None
    annotate_points: bool = False
    show_aggregate: Aggregate | None = None
    plot_type: PlotType = "line"
    plot_width: float = 6.0
    plot_height: float = 4.0
    row_panels: tuple[str, ...] = ()
    col_panels: tuple[str, ...] = ()
    x_keys: tuple[str, ...] | None = None
    print_data: bool = False
    variant_fields: tuple[str, ...] = ()
    variant_annotations: tuple[str, ...] | None = None
    plot_callback: Callable[[Any], None] | None = None
    error_bars: bool | None = None
    log_y: bool | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: normalise the fields once, here
        _choice("plot_type", self.plot_type, PLOT_TYPES, none_ok=False)
        _choice("show_aggregate", self.show_aggregate, AGGREGATES, none_ok=True)
        set_(self, "plot_width", _size("plot_width", self.plot_width))
        set_(self, "plot_height", _size("plot_height", self.plot_height))
        for name in ("row_panels", "col_panels", "variant_fields"):
            set_(self, name, _fields(name, getattr(self, name)))
        for name in ("x_keys", "variant_annotations"):
            value = getattr(self, name)
            set_(self, name, None if value is None else _fields(name, value))
        if self.x_keys == ():
            set_(self, "x_keys", None)
        if self.variant_annotations and not self.variant_fields:
            raise InvalidArgumentError(
                "variant_annotations needs variant_fields: the parameters whose values split "
                "those annotations into one line each"
            )
        if self.plot_callback is not None and not callable(self.plot_callback):
            raise TypeError(f"plot_callback must be callable, got {self.plot_callback!r}")
        for name in ("error_bars", "log_y"):
            _optional_bool(name, getattr(self, name))

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The option names, in declaration order."""
        return tuple(f.name for f in fields(cls))

    @property
    def show_avg(self) -> bool:
        """An "Avg" group of bars after the configurations."""
        return self.show_aggregate == "avg"

    @property
    def show_geomean(self) -> bool:
        """A "Geomean" group of bars after the configurations."""
        return self.show_aggregate == "geomean"

    @property
    def draws_error_bars(self) -> bool:
        """Error bars from the CI95 columns: on for line plots unless switched off."""
        return self.plot_type == "line" if self.error_bars is None else self.error_bars


# ---------------------------------------------------------------------------------------------
# 2. What a plot shows.

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


def select_metric(frame: pd.DataFrame, metric: str | None,
                  decorator: str = "@kscope.analyze.plot") -> str:
    """The metric to plot: ``metric`` if the results have it, else the only one there is
    (nsight-python's texts; ``decorator`` names the plot decorator as the user wrote it)."""
    found = list(pd.unique(frame["Metric"]))
    if metric is None:
        if len(found) > 1:
            raise InvalidArgumentError(
                f"Cannot visualize multiple metrics ({len(found)} > 1) with the "
                f"{decorator} decorator. Please specify a metric to plot. "
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
    """The user's label, else the metric with its unit, or ``relative to <baseline>`` when
    normalised (a ratio has no unit), as the HTML report's plots (src/report/svg_plot.cpp);
    then `` (avg: N runs)``."""
    text = options.ylabel
    if not text:
        text = metric
        baselines = [b for b in pd.unique(rows["Normalized"].astype(object)) if b is not False]
        units = [u for u in rows.get("Unit", pd.Series(dtype=object)) if isinstance(u, str) and u]
        if baselines:
            text += f" relative to {baselines[0]}"
        elif units:
            text += f" ({units[0]})"
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


# ---------------------------------------------------------------------------------------------
# 3. The drawing.

#: nsight-python's colours, in order; series beyond them reuse them with another line style,
#: marker and hatch (nsight-python silently drops series beyond the 14th).
PALETTE: tuple[str, ...] = (
    "#76B900", "#0070C5", "#5C1682", "#890C57", "#FAC200", "#008564", "#FF5733",
    "#C70039", "#900C3F", "#581845", "#1F618D", "#28B463", "#F39C12", "#D35400",
)  # fmt: skip
_LINESTYLES = ("-", "--", ":", "-.")
_MARKERS = ("o", "s", "^", "D", "v", "P")
_HATCHES = (None, "//", "..", "xx", "\\\\", "++")
#: Legends with more entries than this go outside the axes, on the right.
_LEGEND_INSIDE_MAX = 8


def use_agg_without_display() -> None:
    """Selects the Agg backend for pyplot on a machine without a display, unless pyplot is
    already in use or ``MPLBACKEND`` chooses one."""
    if "matplotlib.pyplot" in sys.modules or os.environ.get("MPLBACKEND"):
        return
    headless = not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if sys.platform.startswith("linux") and headless:
        _matplotlib().use("Agg")


def series_style(index: int) -> dict[str, Any]:
    """Colour, line style, marker and hatch of the ``index``-th series (unlimited)."""
    turn = index // len(PALETTE)
    return {
        "color": PALETTE[index % len(PALETTE)],
        "linestyle": _LINESTYLES[turn % len(_LINESTYLES)],
        "marker": _MARKERS[turn % len(_MARKERS)],
        "hatch": _HATCHES[turn % len(_HATCHES)],
    }


def value_label(y: float) -> str:
    """A point's value as written above it: two decimals below 100 (ratios, speedups), whole
    numbers up to a million, else three significant digits."""
    size = abs(y)
    if y == 0 or 1e-2 <= size < 100:
        return f"{y:.2f}"
    return f"{y:.0f}" if 100 <= size < 1e6 else f"{y:.3g}"


def _offsets(count: int) -> tuple[float, list[float]]:
    """Bar width and the x offset of each of ``count`` bars grouped around a tick."""
    width = 0.8 / max(count, 1)
    return width, [(k - (count - 1) / 2) * width for k in range(count)]


def _label_points(ax: Any, x: np.ndarray, y: np.ndarray, color: str, upright: bool,
                  **text: Any) -> None:  # fmt: skip
    """Values above points; ``upright`` (over narrow grouped bars) writes them bottom-up so
    that neighbours do not overlap."""
    for xi, yi in zip(x, y):
        if np.isfinite(yi):
            ax.annotate(value_label(float(yi)), (xi, yi), xytext=(0, 3), ha="center",
                        va="bottom", rotation=90 if upright else 0, color=color,
                        textcoords="offset points", **text)  # fmt: skip


def _draw_series(
    ax: Any, s: Series, offset: float, width: float, grouped: bool, options: PlotOptions
) -> None:
    """One series: a line with markers, or bars shifted by ``offset`` within their group;
    then its error bars and value labels."""
    style = series_style(s.style)
    color = style["color"]
    bars = options.plot_type == "bar"
    x = s.x + offset if bars else s.x
    if bars:
        ax.bar(x, s.y, width=width, color=color, hatch=style["hatch"], edgecolor="white",
               linewidth=0.5, label=s.label)  # fmt: skip
    else:
        ax.plot(x, s.y, marker=style["marker"], linestyle=style["linestyle"], color=color,
                label=s.label)  # fmt: skip
    if options.draws_error_bars and s.errors is not None:
        ax.errorbar(x, s.y, yerr=np.nan_to_num(s.errors), fmt="none", elinewidth=1,
                    capsize=3, ecolor="black" if bars else color, label=f"_ci95 {s.label}",
                    zorder=4)  # fmt: skip
    if options.annotate_points:
        _label_points(ax, x, s.y, color, grouped and bars, fontsize=8)


def _draw_aggregates(ax: Any, panel: Panel, names: tuple[str, ...]) -> None:
    width, offsets = _offsets(len(panel.series))
    for j, name in enumerate(names):
        tick = len(panel.x_labels) + j
        ax.axvline(tick - 0.5, color="black", linestyle="dashed", linewidth=1)
        for s, offset in zip(panel.series, offsets):
            value = s.aggregates.get(name, np.nan)
            if not np.isfinite(value):
                continue
            color = series_style(s.style)["color"]
            ax.bar(tick + offset, value, width=width, color=color, zorder=3, label=f"_{name}")
            _label_points(ax, np.array([tick + offset]), np.array([value]), color,
                          upright=len(panel.series) > 1, fontsize=9, fontweight="bold")  # fmt: skip


def _y_range(data: FigureData) -> tuple[float, float] | None:
    """The y limits of every panel: linear from 0 to 10 % above the highest point, error bar
    or aggregate; log a little beyond the extremes. None lets matplotlib decide (negative
    values, nothing finite)."""
    values = []
    for panel in data.panels:
        for s in panel.series:
            values.append(s.y)
            values.append(np.array(list(s.aggregates.values()), dtype=float))
            if s.errors is not None:
                values.append(s.y - s.errors[0])
                values.append(s.y + s.errors[1])
    finite = np.concatenate(values or [np.empty(0)])
    finite = finite[np.isfinite(finite)]
    if data.log_y:
        finite = finite[finite > 0]
    if finite.size == 0 or finite.min() < 0 or finite.max() <= 0:
        return None
    low, high = float(finite.min()), float(finite.max())
    if data.log_y:
        span = max(high / low, 10.0)
        return low / span**0.05, high * span**0.05
    return 0.0, 1.1 * high


def _fit_labels(fig: Figure, axes: np.ndarray) -> None:
    """Raises the top of the (shared) y axis until every value label fits inside its axes.
    Label sizes are in points, so this measures them: one extra draw, only with labels."""
    labelled = [ax for ax in axes.flat if ax.texts]
    if not labelled:
        return
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg's canvas has it
    log = labelled[0].get_yscale() == "log"
    to_axis = np.log10 if log else (lambda v: v)
    bottom, top = (to_axis(v) for v in labelled[0].get_ylim())
    needed = top
    for ax in labelled:
        height = ax.get_window_extent(renderer).height
        for text in ax.texts:
            x, y = text.xy
            if height <= 0 or not np.isfinite(y) or (log and y <= 0):
                continue
            anchor = ax.transData.transform((x, y))[1]
            above = (text.get_window_extent(renderer).y1 - anchor) / height
            if above < 0.5:  # the point must stay in the lower part of the axes
                needed = max(needed, bottom + (to_axis(y) - bottom) / (0.97 - above))
    if needed > top:
        new_top = 10**needed if log else needed
        for ax in labelled:
            ax.set_ylim(top=new_top)


def _finish_axes(
    ax: Any, panel: Panel, data: FigureData, y_range: tuple[float, float] | None
) -> None:
    """Ticks (configurations, then aggregates), scale, grid, labels, title and legend."""
    labels = [*panel.x_labels, *data.aggregates]
    ax.set_xticks(np.arange(len(labels)))
    ax.set_xticklabels(labels, rotation=45, ha="right", rotation_mode="anchor", fontsize=9)
    ax.set_xlim(-0.6, len(labels) - 0.4)
    if data.log_y:
        ax.set_yscale("log")
    if y_range is not None:
        ax.set_ylim(*y_range)
    ax.grid(True, linestyle="--", alpha=0.7)
    ax.set_axisbelow(True)
    if panel.col == 0:
        ax.set_ylabel(data.ylabel)
    if data.nrows > 1 and panel.row < data.nrows - 1:
        ax.tick_params(labelbottom=False)
    if panel.title:
        ax.set_title(panel.title, fontsize=11)
    if not panel.series:
        return
    if len(panel.series) > _LEGEND_INSIDE_MAX:
        placement: dict[str, Any] = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)}
    else:
        placement = {"loc": "best"}
    ax.legend(title="Annotation", fontsize=9, title_fontsize=10, **placement)


def draw(data: FigureData, options: PlotOptions) -> Figure:
    """The figure for ``data``: a grid of ``data.nrows`` x ``data.ncols`` axes sharing the y
    axis; nothing is saved or shown."""
    size = (max(options.plot_width * data.ncols, 8), max(options.plot_height * data.nrows, 6))
    matplotlib = _matplotlib()
    fig: Figure = matplotlib.figure.Figure(figsize=size, layout="constrained")
    matplotlib.backends.backend_agg.FigureCanvasAgg(fig)
    axes = fig.subplots(data.nrows, data.ncols, squeeze=False, sharey=True)
    y_range = _y_range(data)
    for panel in data.panels:
        ax = axes[panel.row, panel.col]
        width, offsets = _offsets(len(panel.series))
        for s, offset in zip(panel.series, offsets):
            _draw_series(ax, s, offset, width, len(panel.series) > 1, options)
        _draw_aggregates(ax, panel, data.aggregates)
        _finish_axes(ax, panel, data, y_range)
    fig.suptitle(data.title, fontsize=14, fontweight="bold")
    _fit_labels(fig, axes)
    return fig


def _print_table(table: pd.DataFrame) -> None:
    shown = table.copy()
    shown["AvgValue"] = shown["AvgValue"].map("{:.4f}".format)
    print("Aggregated Data (Average value and Number of Runs):")
    print(shown.to_string(index=False))


def render(
    frame: pd.DataFrame,
    parameters: Sequence[str],
    filename: str | os.PathLike[str] | None,
    metric: str | None,
    options: PlotOptions,
    name: str = "",
    decorator: str = "@kscope.analyze.plot",
) -> Figure:
    """Plots ``metric`` of a processed frame: selects the metric, shapes the data, draws,
    calls ``options.plot_callback(fig)``, saves to ``filename`` (unless None) and prints the
    data when asked. Returns the figure. ``decorator`` names the plot decorator in messages.

    Raises:
        ValueError (:class:`kscope.exceptions.InvalidArgumentError`): metric selection, x_keys.
        kscope.exceptions.ProfilerException: a field that is not a parameter.
    """
    use_agg_without_display()
    chosen = select_metric(frame, metric, decorator)
    title = options.title if options.title is not None else (name or "kscope results")
    data = shape(frame, parameters, chosen, options, title)
    fig = draw(data, options)
    if options.plot_callback is not None:
        options.plot_callback(fig)
    if filename is not None:
        fig.savefig(os.fspath(filename), bbox_inches="tight")
    if options.print_data:
        _print_table(data.table)
    return fig


#: Columns a processed CSV must have to be plotted (docs/output-schema.md).
PROCESSED_CSV_COLUMNS = (
    "Annotation", "Metric", "AvgValue", "NumRuns", "Normalized", "CI95_Lower", "CI95_Upper",
)  # fmt: skip


def read_processed_csv(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Reads a processed CSV (``processed_data-<name>-<id>.csv``) for plotting.

    Raises:
        FileFormatError: the file is no CSV pandas can read, is not UTF-8, or lacks one of
            :data:`PROCESSED_CSV_COLUMNS`; the message names the file and what is missing.
        OSError: the file cannot be opened.
    """
    path = os.fspath(path)
    try:
        frame = pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise FileFormatError(f"'{path}' is not a readable CSV file: {error}") from None
    missing = [c for c in PROCESSED_CSV_COLUMNS if c not in frame.columns]
    if missing or list(frame.columns).index("Metric") > list(frame.columns).index("AvgValue"):
        raise FileFormatError(
            f"'{path}' is not a processed kscope CSV (processed_data-<name>-<id>.csv): "
            + (f"it lacks the column(s) {', '.join(missing)}" if missing
               else "its Metric column must come before AvgValue")
            + f"; found the columns {', '.join(map(str, frame.columns))}"
        )  # fmt: skip
    return frame


def plot_dataframe(
    frame: pd.DataFrame | str | os.PathLike[str],
    filename: str | os.PathLike[str] | None = "plot.png",
    metric: str | None = None,
    *,
    parameters: Sequence[str] | None = None,
    **options: Any,
) -> Figure:
    """Plots a processed DataFrame (``ProfileResults.to_dataframe()``) or a processed CSV file.

    Args:
        frame: the frame, or the path of a ``processed_data-*.csv``.
        filename: the PNG (or any format matplotlib knows by the suffix); None: not saved.
        metric: the metric to plot; None: the only one.
        parameters: the parameter columns; None: the columns between ``Metric`` and
            ``AvgValue``.
        **options: the keyword options of :func:`kscope.analyze.plot`.
    """
    if not isinstance(frame, pd.DataFrame):
        frame = read_processed_csv(frame)
    if parameters is None:
        parameters = frame_parameters(frame)
    return render(frame, parameters, filename, metric, PlotOptions(**options))


__all__ = [
    "AGGREGATES", "AVG", "GEOMEAN", "LOG_RATIO", "PALETTE", "PLOT_TYPES", "PROCESSED_CSV_COLUMNS",
    "Aggregate", "FigureData", "Panel", "PlotOptions", "PlotType", "Series", "check_fields",
    "draw", "frame_parameters", "plot_dataframe", "read_processed_csv", "render", "select_metric",
    "series_style", "shape", "use_agg_without_display", "value_label", "value_text",
]  # fmt: skip
