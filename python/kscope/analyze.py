"""``kscope.analyze``: the ``@kernel`` decorator and its helpers (nsight-python's
``nsight.analyze``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, overload

from ._options import (
    CacheControl,
    ClockControl,
    DurationSource,
    MetricReplay,
    ReplayMode,
    ThermalMode,
    make_settings,
)
from ._plot_decorator import plot
from ._profiler import make_wrapper
from .results import ProfileResults
from .tools import Tool, ToolName
from .verbosity import VerbosityLevel

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
    runs: int = ...,
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
) -> Callable[[Callable[..., Any]], KernelFunction]: ...


def kernel(
    _func: Callable[..., Any] | None = None,
    /,
    *,
    configs: Iterable[Any] | None = None,
    runs: int = 1,
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
        runs: measured repetitions per config.
        derive_metric: ``f(*metric_values, *config_values)`` returning a value, a
            ``(value, unit)`` tuple or a dict of them: extra metrics per run.
        normalize_against: annotation whose AvgValue divides every other's.
        verbosity: :class:`VerbosityLevel` (SILENT prints nothing).
        metrics: metric names; the cupti tool measures ``"gpu__time_duration.sum"`` (ns).
        ignore_kernel_list: kernel names dropped before attribution.
        clock_control: ``"none"`` or ``"base"`` (ncu tool only).
        cache_control: ``"all"`` (flush the L2 at the entry of every annotated region, so that
            its first kernel starts cold, like ncu) or ``"none"``.
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
            GPU's launch set-up, ~0.8 us; kernels serialised).
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

    Raises:
        TypeError, ValueError (:class:`kscope.exceptions.InvalidArgumentError`) or
        :class:`kscope.exceptions.NotSupportedError` here, at decoration, for bad options.
    """
    settings = make_settings(
        configs=configs,
        runs=runs,
        warmup_runs=warmup_runs,
        derive_metric=derive_metric,
        normalize_against=normalize_against,
        verbosity=verbosity,
        metrics=metrics,
        ignore_kernel_list=ignore_kernel_list,
        clock_control=clock_control,
        cache_control=cache_control,
        replay_mode=replay_mode,
        metric_replay=metric_replay,
        duration_source=duration_source,
        thermal_mode=thermal_mode,
        thermal_wait=thermal_wait,
        thermal_cont=thermal_cont,
        thermal_timeout=thermal_timeout,
        thermal_device=thermal_device,
        combine_kernel_metrics=combine_kernel_metrics,
        output_prefix=output_prefix,
        output_csv=output_csv,
        info_collectors=info_collectors,
        tool=tool,
    )

    def decorate(func: Callable[..., Any]) -> KernelFunction:
        if not callable(func):
            raise TypeError(f"@kernel decorates a function, got {func!r}")
        return make_wrapper(func, settings)

    return decorate(_func) if _func is not None else decorate


@contextlib.contextmanager
def ignore_failures() -> Iterator[None]:
    """Swallows any ``Exception`` raised in its block (nothing is recorded). For warm-up code
    outside annotations; inside an annotation use ``annotate(name, ignore_failures=True)``."""
    try:
        yield
    except Exception:  # noqa: BLE001 - swallowing is this context manager's purpose
        pass


__all__ = ["KernelFunction", "ProfileResults", "ignore_failures", "kernel", "plot"]
