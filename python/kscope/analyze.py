"""``kscope.analyze``: the decorators a user writes (nsight-python's ``nsight.analyze``):
``@kernel`` (profile a function over configs), ``@plot`` (plot what it returns after every call)
and ``ignore_failures``."""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal, overload

from .collection.core import (
    CacheControl,
    ClockControl,
    DurationSource,
    MetricReplay,
    OnConfigError,
    ProfileResults,
    ReplayMode,
    make_settings,
    make_wrapper,
)
from .thermovision import ThermalMode
from .tools_manager import Tool, ToolName
from .utils import VerbosityLevel, user_package_name
from .visualization import Aggregate, PlotOptions, PlotType, check_fields, render

KernelFunction = Callable[..., ProfileResults]
"""What ``@kernel`` makes of a function: called with the function's arguments (or
``configs=[...]``), it returns the sweep's :class:`ProfileResults`."""


@overload
def kernel(_func: Callable[..., Any], /) -> KernelFunction: ...


@overload
def kernel(
    _func: None = None,
    /,
    *,
    configs: Iterable[Any] | None = ...,
    runs: int | Literal["auto"] = ...,
    derive_metric: Callable[..., Any] | None = ...,
    normalize_against: str | None = ...,
    verbosity: VerbosityLevel = ...,
    metrics: Sequence[str] = ...,
    ignore_kernel_list: Sequence[str] | None = ...,
    clock_control: ClockControl = ...,
    cache_control: CacheControl = ...,
    replay_mode: ReplayMode = ...,
    metric_replay: MetricReplay = ...,
    duration_source: DurationSource = ...,
    cuda_graph: bool = ...,
    thermal_mode: ThermalMode = ...,
    thermal_wait: int | None = ...,
    thermal_cont: int | None = ...,
    thermal_timeout: int | None = ...,
    thermal_device: int | None = ...,
    combine_kernel_metrics: Callable[[float, float], float] | None = ...,
    output_prefix: str | None = ...,
    output_csv: bool = ...,
    info_collectors: Sequence[Any] | None = ...,
    tool: Tool | ToolName | None = ...,
    warmup_runs: int = ...,
    target_rel_ci: float = ...,
    min_runs: int = ...,
    max_runs: int = ...,
    time_budget: float = ...,
    on_config_error: OnConfigError = ...,
    resume: str | os.PathLike[str] | None = ...,
    ncu_part_seconds: float = ...,
    shard: Literal["auto"] | tuple[int, int] | None = ...,
    shard_balance: str | os.PathLike[str] | None = ...,
) -> Callable[[Callable[..., Any]], KernelFunction]: ...


def kernel(
    _func: Callable[..., Any] | None = None,
    /,
    *,
    configs: Iterable[Any] | None = None,
    runs: int | Literal["auto"] = 1,
    derive_metric: Callable[..., Any] | None = None,
    normalize_against: str | None = None,
    verbosity: VerbosityLevel = VerbosityLevel.INFO,
    metrics: Sequence[str] = ("gpu__time_duration.sum",),
    ignore_kernel_list: Sequence[str] | None = None,
    clock_control: ClockControl = "none",
    cache_control: CacheControl = "all",
    replay_mode: ReplayMode = "kernel",
    metric_replay: MetricReplay = "checkpoint",
    duration_source: DurationSource = "activity",
    cuda_graph: bool = False,
    thermal_mode: ThermalMode = "auto",
    thermal_wait: int | None = None,
    thermal_cont: int | None = None,
    thermal_timeout: int | None = None,
    thermal_device: int | None = None,
    combine_kernel_metrics: Callable[[float, float], float] | None = None,
    output_prefix: str | None = None,
    output_csv: bool = False,
    info_collectors: Sequence[Any] | None = None,
    tool: Tool | ToolName | None = None,
    warmup_runs: int = 0,
    target_rel_ci: float = 0.005,
    min_runs: int = 5,
    max_runs: int = 10000,
    time_budget: float = 1.0,
    on_config_error: OnConfigError = "raise",
    resume: str | os.PathLike[str] | None = None,
    ncu_part_seconds: float = 60.0,
    shard: Literal["auto"] | tuple[int, int] | None = None,
    shard_balance: str | os.PathLike[str] | None = None,
) -> KernelFunction | Callable[[Callable[..., Any]], KernelFunction]:
    """Profiles the kernels a function launches inside ``kscope.annotate`` regions.

    Usable as ``@kernel``, ``@kernel()`` and ``@kernel(**options)``. Calling the decorated
    function runs it ``runs`` times per config and returns a :class:`ProfileResults` (the
    function's own return value is discarded, with a ``RuntimeWarning`` if it was not None).
    Configs are given here or at call time: ``f(1024)`` (one config), ``f(configs=[...])``,
    or ``f()`` with decoration-time configs. docs/python.md describes every option.

    Args:
        configs: configurations; each a sequence of argument values, or a scalar for a
            function with one parameter. Any iterable (generators and ranges too).
        runs: measured repetitions per config, or (kscope) ``"auto"``: batches of runs per
            config until the CI95 half-width of every (annotation, metric) mean is within
            ``target_rel_ci`` of it, ``max_runs`` are done, ``time_budget`` is spent or more
            runs stop narrowing it; the ``StopReason`` column says which (cupti tool only;
            docs/options.md, "Adaptive runs").
        derive_metric: ``f(*metric_values, *config_values)`` returning a value, a
            ``(value, unit)`` tuple or a dict of them: extra metrics per run.
        normalize_against: annotation whose AvgValue divides every other's.
        verbosity: :class:`VerbosityLevel` (SILENT prints nothing).
        metrics: metric names; the cupti tool measures ``"gpu__time_duration.sum"`` (ns).
        ignore_kernel_list: kernel names dropped before attribution.
        clock_control: ``"none"`` or ``"base"`` (ncu tool only).
        cache_control: ``"all"`` (flush the L2 before every kernel launched in an annotated
            region, so that each starts cold, like ncu), ``"region"`` (at every annotated
            region's entry only: its later kernels see what the earlier ones left) or
            ``"none"``.
        replay_mode: ``"kernel"`` or ``"range"``.
        metric_replay: (kscope, cupti tool) how a hardware-counter metric set needing several
            passes is replayed: ``"checkpoint"`` (default) executes each run once per pass with
            device memory restored between passes (every pass sees the same memory and cold
            caches; the function must launch the same kernels every time); ``"application"``
            the same without restoring memory (the function must not depend on what earlier
            executions left); ``"kernel"``: CUPTI's kernel replay, the function runs once but
            passes after the first see warm caches.
        duration_source: (kscope, cupti tool) how ``gpu__time_duration.sum`` is measured:
            ``"activity"`` (default, activity records: the kernel's execution) or
            ``"profiler"`` (the range profiler: Nsight Compute's definition, which adds the
            GPU's launch set-up, ~0.8 us; kernels serialised) or ``"events"`` (CUDA events
            around each region: its wall time on the GPU from the end of its flush, the
            launch overhead the flush did not hide included, as Triton's do_bench).
        cuda_graph: (kscope) replay the annotated regions from CUDA graphs: per config, the
            first measured run captures every region (torch.cuda.CUDAGraph) and launches it
            once, later runs launch the captured regions again instead of calling the
            function, so a run costs one graph launch per region on the host. Code outside the
            regions runs only in warm-up runs and that first run. Needs torch; the regions must
            be capturable (no host synchronisation inside). docs/options.md, "CUDA graphs".
        thermal_mode: ``"auto"``, ``"manual"`` or ``"off"``.
        thermal_wait: thermal headroom (degC) at which profiling pauses (default 10).
        thermal_cont: headroom at which a pause ends (default 20); > thermal_wait.
        thermal_timeout: longest pause in seconds (default 180).
        thermal_device: CUDA ordinal to watch; None: the current device.
        combine_kernel_metrics: ``(lhs, rhs) -> value`` reducing the kernels of one
            annotation in one run (e.g. ``lambda x, y: x + y``).
        output_prefix: prefix of every file written; None: a fresh temporary directory.
        output_csv: also write ``profiled_data-<name>-<id>.csv`` and
            ``processed_data-<name>-<id>.csv``.
        info_collectors: custom columns: :class:`kscope.InfoCollector` objects,
            ``(name, callback, scope)`` tuples or functions marked with
            ``kscope.experimental.collect(scope=...)``; see docs/info-collectors.md.
        tool: :class:`Tool` for this function; None: the active tool, else CUPTI.
        warmup_runs: (kscope) unmeasured runs per config before the measured ones.
        target_rel_ci: (kscope) ``runs="auto"``: the CI95 half-width to reach, as a fraction
            of the mean (0.005: 0.5 %).
        min_runs: (kscope) ``runs="auto"``: runs of the first batch, the fewest per config.
        max_runs: (kscope) ``runs="auto"``: the most runs per config.
        time_budget: (kscope) ``runs="auto"``: seconds of measured runs per config after which
            no further batch starts.
        on_config_error: (kscope) ``"raise"`` (default): an exception of the function ends the
            sweep and propagates; ``"skip"``: the config is recorded as failed (its type and
            text in ``ProfileResults.failed_configs`` and the ``Error`` column) and the sweep
            goes on. KeyboardInterrupt, SystemExit and a device left unusable (a sticky CUDA
            error) end the sweep in either mode.
        resume: (kscope) the journal of an interrupted run of this sweep (printed as
            ``Journal: ...``): its complete configs are kept and only the others measured; the
            journal must come from the same function, configs and measurement options.
        ncu_part_seconds: (kscope, ncu tool) how long one re-run under ncu measures before its
            part is journaled (each part runs at least 9x the re-run's start-up cost).
        shard: (kscope) ``"auto"``: measure this process's share of the configs when started
            by torchrun, Slurm or MPI (the rank from their environment, the GPU of the local
            rank); ``(i, n)``: share i of n by hand; None: every config. Files are named
            ``rank<i>-...``; ``kscope merge`` / ``kscope.load(*files)`` join the shares
            (docs/scale-out.md).
        shard_balance: (kscope) a result or journal of an earlier run whose per-config times
            balance the shares; None: configs interleaved.

    Raises:
        TypeError, ValueError (:class:`kscope.exceptions.InvalidArgumentError`) or
        :class:`kscope.exceptions.NotSupportedError` here, at decoration, for bad options.
    """
    keywords = dict(locals())  # every keyword above, by name: make_settings checks them
    del keywords["_func"]
    settings = make_settings(**keywords)

    def decorate(func: Callable[..., Any]) -> KernelFunction:
        if not callable(func):
            raise TypeError(f"@kernel decorates a function, got {func!r}")
        return make_wrapper(func, settings)

    return decorate(_func) if _func is not None else decorate


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
    decorator = f"@{user_package_name()}.analyze.plot"  # as the user wrote it, for messages

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
            render(results.to_dataframe(), results.parameters, path, metric, options,
                   results.name, decorator)  # fmt: skip
            return results

        return wrapper

    return decorate


@contextlib.contextmanager
def ignore_failures() -> Iterator[None]:
    """Swallows any ``Exception`` raised in its block (nothing is recorded). For warm-up code
    outside annotations; inside an annotation use ``annotate(name, ignore_failures=True)``."""
    try:
        yield
    except Exception:  # noqa: BLE001 - swallowing is this context manager's purpose
        pass


__all__ = ["KernelFunction", "ProfileResults", "ignore_failures", "kernel", "plot"]
