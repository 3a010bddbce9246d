"""``kscope.time``: one measurement of a callable, without the decorator, configs or annotations
(kscope's; the engine's ``kscope::time``). Each call of the callable runs inside a region of its
own; kscope sums the GPU durations of the kernels it launches and calls it again, in batches,
until the mean's CI95 half-width is within ``target_rel_ci`` of it (``runs="auto"``, the
default) or a fixed number of times. docs/python.md, "Replacing do_bench".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from ._cupti_handoff import hand_over_to_torch_profiler
from ._native import native
from .collection.core import (
    _ENGINE_VERBOSITY,
    CacheControl,
    DurationSource,
    _choice,
    _names,
    _require_int,
    _require_number,
    _verbosity,
    _write_stdout,
)
from .utils import VerbosityLevel


class Timing:
    """What :func:`time` measured. Times are in ns, as the engine's ``gpu__time_duration.sum``;
    the statistics are the engine's, those of a sweep's processed row (:attr:`statistics`)."""

    __slots__ = ("_timing",)

    def __init__(self, timing: Any) -> None:
        self._timing = timing

    @property
    def statistics(self) -> Any:
        """The engine's ``ProcessedRow`` over the measured calls: ``avg``, ``stddev``, ``min``,
        ``max``, ``median``, ``q1``, ``q3``, ``ci95_lower``, ``ci95_upper``, ``num_runs``,
        ``kernel``, ``stop_reason``, ... (a DataFrame row's columns)."""
        return self._timing.statistics

    @property
    def mean(self) -> float:
        """Mean GPU time of a call, ns (AvgValue)."""
        return float(self._timing.statistics.avg)

    @property
    def median(self) -> float:
        """Median GPU time of a call, ns."""
        return float(self._timing.statistics.median)

    @property
    def stddev(self) -> float:
        """Standard deviation over the calls, ns (ddof 1; NaN for one call)."""
        return float(self._timing.statistics.stddev)

    @property
    def min(self) -> float:
        """The fastest call, ns."""
        return float(self._timing.statistics.min)

    @property
    def max(self) -> float:
        """The slowest call, ns."""
        return float(self._timing.statistics.max)

    @property
    def ci95(self) -> tuple[float, float]:
        """The mean's 95 % confidence interval (Student's t), ns."""
        s = self._timing.statistics
        return float(s.ci95_lower), float(s.ci95_upper)

    @property
    def rel_ci(self) -> float:
        """The CI95 half-width as a fraction of the mean: what ``runs="auto"`` stops on."""
        return float(self._timing.rel_ci())

    @property
    def runs(self) -> int:
        """Measured calls."""
        return int(self._timing.statistics.num_runs)

    @property
    def stop_reason(self) -> str:
        """Why ``runs="auto"`` stopped: ``"target"``, ``"max_runs"``, ``"time_budget"`` or
        ``"noise_floor"`` (docs/options.md, "Adaptive runs"); ``""`` with a fixed ``runs``."""
        return str(self._timing.statistics.stop_reason)

    @property
    def kernel(self) -> str:
        """The kernels of a call (the first measured one's), ``"a|b"`` for several."""
        return str(self._timing.statistics.kernel)

    @property
    def values(self) -> list[float]:
        """Every measured call's GPU time, ns, in call order."""
        return list(self._timing.values)

    @property
    def seconds(self) -> float:
        """Wall time of the :func:`time` call, seconds (warm-up and cache flushes included)."""
        return float(self._timing.seconds)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile (0 <= q <= 1) of :attr:`values`, interpolated linearly (numpy's
        default); ``InvalidArgumentError`` outside [0, 1]."""
        return float(self._timing.quantile(float(q)))

    def __repr__(self) -> str:
        stop = f", stop {self.stop_reason}" if self.stop_reason else ""
        return (f"Timing(mean={self.mean:.6g} ns +-{100 * self.rel_ci:.2g} %, {self.runs} runs"
                f"{stop}, kernel={self.kernel!r})")  # fmt: skip


def time_options(
    *,
    runs: int | Literal["auto"],
    warmup_runs: int,
    target_rel_ci: float,
    min_runs: int,
    max_runs: int,
    time_budget: float,
    cache_control: str,
    duration_source: str,
    ignore_kernel_list: Sequence[str] | None,
    setup: Callable[[], object] | None,
    call_name: str,
    verbosity: VerbosityLevel = VerbosityLevel.SILENT,
) -> Any:
    """The engine's ``TimeOptions`` for these keywords (the meanings of :func:`time`'s), with
    their Python types checked (``TypeError``); their values are the engine's to check, with the
    texts of ``@kscope.analyze.kernel``'s options."""
    if isinstance(runs, str) and runs != "auto":
        raise TypeError(f"runs must be an int or 'auto', got {runs!r}")
    if runs != "auto":
        _require_int("runs", runs)
    for name, value in (("warmup_runs", warmup_runs), ("min_runs", min_runs),
                        ("max_runs", max_runs)):  # fmt: skip
        _require_int(name, value)
    _require_number("target_rel_ci", target_rel_ci)
    _require_number("time_budget", time_budget)
    if setup is not None and not callable(setup):
        raise TypeError(f"setup must be a callable without arguments or None, got {setup!r}")
    o = native.TimeOptions()
    o.auto_runs = runs == "auto"
    if runs != "auto":
        o.runs = runs
    o.warmup_runs = warmup_runs
    o.target_rel_ci = float(target_rel_ci)
    o.min_runs = min_runs
    o.max_runs = max_runs
    o.time_budget = float(time_budget)
    o.cache_control = _choice("cache_control", cache_control)
    o.duration_source = _choice("duration_source", duration_source)
    o.ignore_kernel_list = list(_names("ignore_kernel_list", ignore_kernel_list, optional=True))
    o.setup = setup
    o.call_name = call_name
    o.verbosity = _ENGINE_VERBOSITY[_verbosity(verbosity)]
    o.log = _write_stdout
    return o


def measure(fn: Callable[[], object], options: Any) -> Timing:
    """Runs the engine's ``time`` on ``fn`` with ``options`` (from :func:`time_options`)."""
    if not callable(fn):
        raise TypeError(f"fn must be a callable without arguments, got {fn!r}")
    try:
        return Timing(native.time(fn, options))
    finally:
        hand_over_to_torch_profiler()  # kscope keeps CUPTI until torch.profiler starts


def time(
    fn: Callable[[], object],
    *,
    runs: int | Literal["auto"] = "auto",
    warmup_runs: int = 1,
    target_rel_ci: float = 0.005,
    min_runs: int = 5,
    max_runs: int = 10000,
    time_budget: float = 1.0,
    cache_control: CacheControl = "all",
    duration_source: DurationSource = "activity",
    ignore_kernel_list: Sequence[str] | None = None,
    setup: Callable[[], object] | None = None,
    verbosity: VerbosityLevel = VerbosityLevel.SILENT,
) -> Timing:
    """Measures ``fn()``: the GPU time of the kernels one call launches (their durations
    summed), over as many calls as the mean needs.

    ``fn`` is called ``warmup_runs`` times unmeasured (compilation, lazy loading), then in
    batches until the CI95 half-width of the mean is within ``target_rel_ci`` of it, ``max_runs``
    calls are made, ``time_budget`` seconds of calls are spent or more calls stop narrowing it
    (``runs="auto"``; docs/options.md, "Adaptive runs"), or ``runs`` times. With
    ``cache_control="all"`` the L2 is flushed before every kernel of every call (``"region"``:
    before every call), outside what is measured;
    ``setup()`` runs before every call, before that flush. ``duration_source`` picks what a call's
    time is: ``"activity"`` (CUPTI kernel records), ``"profiler"`` (Nsight Compute's
    ``gpu__time_duration.sum``, needs a fixed ``runs``) or ``"events"`` (CUDA events around the
    call, as Triton's: from the end of the flush, the launch overhead it did not hide included).
    ``verbosity``: ``SILENT`` prints nothing; ``DEBUG`` prints, when the call ends, what it cost
    step by step (docs/cost.md, "One measurement"). The options mean what
    ``@kscope.analyze.kernel``'s of the same names mean (docs/options.md).

    Returns a :class:`Timing`. A ``fn`` that launches no kernel raises
    :class:`~kscope.exceptions.ExtractionError`; an exception of ``fn`` propagates unchanged.
    """
    options = time_options(runs=runs, warmup_runs=warmup_runs, target_rel_ci=target_rel_ci,
                           min_runs=min_runs, max_runs=max_runs, time_budget=time_budget,
                           cache_control=cache_control, duration_source=duration_source,
                           ignore_kernel_list=ignore_kernel_list, setup=setup,
                           call_name="kscope.time()", verbosity=verbosity)  # fmt: skip
    return measure(fn, options)


__all__ = ["Timing", "measure", "time", "time_options"]
