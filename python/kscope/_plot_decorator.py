"""``@kscope.analyze.plot``: plots what a ``@kscope.analyze.kernel`` function returns
(docs/plots.md). The options are checked when the decorator is applied, and the fields
against the function's parameters when it wraps a kscope kernel, so mistakes surface before
the sweep runs."""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Callable, Sequence
from typing import Any, overload

from ._plot_data import check_fields
from ._plot_options import Aggregate, PlotOptions, PlotType
from .results import ProfileResults

KernelFunction = Callable[..., ProfileResults]


def _parameter_names(func: Callable[..., Any]) -> Sequence[str] | None:
    """The parameters of a ``@kscope.analyze.kernel`` function (None for anything else)."""
    profiler = getattr(func, "__kscope_profiler__", None)
    signature = getattr(profiler, "signature", None)
    names = getattr(signature, "names", None)
    return list(names) if names is not None else None


@overload
def plot(filename: KernelFunction, /) -> KernelFunction: ...


@overload
def plot(
    filename: str | os.PathLike[str] = ...,
    metric: str | None = ...,
    *,
    title: str | None = ...,
    ylabel: str | None = ...,
    annotate_points: bool = ...,
    show_aggregate: Aggregate | None = ...,
    plot_type: PlotType = ...,
    plot_width: float = ...,
    plot_height: float = ...,
    row_panels: Sequence[str] | None = ...,
    col_panels: Sequence[str] | None = ...,
    x_keys: Sequence[str] | None = ...,
    print_data: bool = ...,
    variant_fields: Sequence[str] | None = ...,
    variant_annotations: Sequence[str] | None = ...,
    plot_callback: Callable[[Any], None] | None = ...,
    error_bars: bool | None = ...,
    log_y: bool | None = ...,
) -> Callable[[KernelFunction], KernelFunction]: ...


def plot(
    filename: str | os.PathLike[str] | KernelFunction = "plot.png",
    metric: str | None = None,
    *,
    title: str | None = None,
    ylabel: str | None = None,
    annotate_points: bool = False,
    show_aggregate: Aggregate | None = None,
    plot_type: PlotType = "line",
    plot_width: float = 6,
    plot_height: float = 4,
    row_panels: Sequence[str] | None = None,
    col_panels: Sequence[str] | None = None,
    x_keys: Sequence[str] | None = None,
    print_data: bool = False,
    variant_fields: Sequence[str] | None = None,
    variant_annotations: Sequence[str] | None = None,
    plot_callback: Callable[[Any], None] | None = None,
    error_bars: bool | None = None,
    log_y: bool | None = None,
) -> KernelFunction | Callable[[KernelFunction], KernelFunction]:
    """Plots the results of a ``@kscope.analyze.kernel`` function after every call.

    Stack it on top: ``@kscope.analyze.plot("sweep.png")`` over ``@kscope.analyze.kernel(...)``;
    bare ``@kscope.analyze.plot`` writes ``plot.png`` with the default options.
    The wrapped function keeps the kernel function's call forms and returns the same
    :class:`ProfileResults`; the plot is written to ``filename`` as a side effect.
    docs/plots.md shows examples.

    Args:
        filename: the image written after each call (format by suffix, PNG by default).
        metric: the metric to plot; None: the only metric of the results.
        title: first title line (the GPU and host follow); None: the function's name.
        ylabel: y-axis label; None: the metric (``relative to <baseline>`` when
            normalised). `` (avg: N runs)`` is always appended.
        annotate_points: write each point's value above it.
        show_aggregate: ``"avg"`` or ``"geomean"``: a group of bars after the configurations
            with each series' mean or geometric mean; None: no aggregate.
        plot_type: ``"line"`` or ``"bar"`` (grouped bars).
        plot_width: width of one panel in inches (the figure is at least 8 x 6).
        plot_height: height of one panel in inches.
        row_panels: parameters whose value combinations make one row of panels each.
        col_panels: parameters whose value combinations make one column of panels each.
        x_keys: parameters that make the x-axis labels; None: every parameter not used by
            panels or variants.
        print_data: print the plotted values.
        variant_fields: parameters that split annotations into one series per value
            combination (``"<annotation> f=v"``).
        variant_annotations: the annotations split by ``variant_fields``; None: all.
        plot_callback: ``f(fig)`` called with the ``matplotlib.figure.Figure`` before saving.
        error_bars: CI95 error bars where a point has more than one run; None: on for line
            plots, off for bar plots.
        log_y: log-scale y axis; None: when all values are positive and span more than
            three decades.

    Raises:
        ValueError (:class:`kscope.exceptions.InvalidArgumentError`) or TypeError for an
        invalid option, :class:`kscope.exceptions.ProfilerException` for a field that is not a
        parameter of the function, ImportError without matplotlib: all when decorating. After
        a call: ValueError when the metric cannot be chosen (nsight-python's texts).
    """
    if not isinstance(filename, (str, os.PathLike)):
        if not callable(filename):
            raise TypeError(f"plot's filename must be a str or os.PathLike, got {filename!r}")
        return plot()(filename)  # the bare form: @plot over the kernel function
    raw: dict[str, Any] = dict(  # PlotOptions normalises the field lists (str or sequence)
        title=title, ylabel=ylabel, annotate_points=annotate_points,
        show_aggregate=show_aggregate, plot_type=plot_type, plot_width=plot_width,
        plot_height=plot_height, row_panels=row_panels, col_panels=col_panels, x_keys=x_keys,
        print_data=print_data, variant_fields=variant_fields,
        variant_annotations=variant_annotations, plot_callback=plot_callback,
        error_bars=error_bars, log_y=log_y,
    )  # fmt: skip
    options = PlotOptions(**raw)
    if importlib.util.find_spec("matplotlib") is None:
        raise ImportError("@kscope.analyze.plot needs matplotlib: pip install 'kernelscope[plot]'")

    path: str | os.PathLike[str] = filename

    def decorate(func: KernelFunction) -> KernelFunction:
        if not callable(func):
            raise TypeError(f"@plot decorates a @kscope.analyze.kernel function, got {func!r}")
        names = _parameter_names(func)
        if names is not None:
            check_fields(names, options)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> ProfileResults:
            results = func(*args, **kwargs)
            if not isinstance(results, ProfileResults):
                raise TypeError(
                    f"@plot expects '{getattr(func, '__name__', func)}' to return "
                    f"ProfileResults (decorate it with @kscope.analyze.kernel), got "
                    f"{type(results).__name__}"
                )
            from . import plot as _draw  # matplotlib is imported on first use only

            _draw.render(results.to_dataframe(), results.parameters, path, metric, options,
                         results.name)  # fmt: skip
            return results

        return wrapper

    return decorate


__all__ = ["plot"]
