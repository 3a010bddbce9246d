"""Plots of kscope results with matplotlib: the drawing behind ``@kscope.analyze.plot``,
``ProfileResults.plot`` and ``python3 -m kscope plot`` (docs/plots.md).

Figures are built with matplotlib's object API and rendered by the Agg canvas, so no window
ever opens and pyplot's global state is untouched. When matplotlib.pyplot has not been
imported yet and there is no display, pyplot's backend is set to Agg as well (for
``plot_callback`` code that uses pyplot on a server).

Entry points: :func:`render` (a processed frame and its parameter names) and
:func:`plot_dataframe` (a frame or a processed CSV, e.g. ``processed_data-<name>-<id>.csv``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

try:
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"kscope's plots need matplotlib ({error}): pip install 'kernelscope[plot]' "
        "(or pip install matplotlib)"
    ) from error

from . import _plot_data
from .exceptions import FileFormatError
from ._plot_data import FigureData, Panel, Series
from ._plot_options import PlotOptions

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
        matplotlib.use("Agg")


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
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
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
) -> Figure:
    """Plots ``metric`` of a processed frame: selects the metric, shapes the data, draws,
    calls ``options.plot_callback(fig)``, saves to ``filename`` (unless None) and prints the
    data when asked. Returns the figure.

    Raises:
        ValueError (:class:`kscope.exceptions.InvalidArgumentError`): metric selection, x_keys.
        kscope.exceptions.ProfilerException: a field that is not a parameter.
    """
    use_agg_without_display()
    chosen = _plot_data.select_metric(frame, metric)
    title = options.title if options.title is not None else (name or "kscope results")
    data = _plot_data.shape(frame, parameters, chosen, options, title)
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
        parameters = _plot_data.frame_parameters(frame)
    return render(frame, parameters, filename, metric, PlotOptions(**options))


__all__ = [
    "PALETTE", "PROCESSED_CSV_COLUMNS", "draw", "plot_dataframe", "read_processed_csv", "render",
    "series_style", "use_agg_without_display", "value_label",
]  # fmt: skip
