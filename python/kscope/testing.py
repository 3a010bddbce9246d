"""``kscope.testing``: ``triton.testing.do_bench`` and ``do_bench_cudagraph`` measured by kscope
(kscope's). Replacing the import is enough::

    from kscope.testing import do_bench          # was: from triton.testing import do_bench
    ms = do_bench(lambda: matmul(a, b))

Both keep Triton's signatures and return conventions (milliseconds; ``quantiles`` gives a list,
``return_mode`` ``"min"``, ``"max"``, ``"mean"``, ``"median"`` or ``"all"``), but time a call by
the GPU durations of the kernels it launches (CUPTI), not by CUDA events around it, and stop
when the mean is precise enough instead of after fixed budgets, which become upper bounds.
:func:`use_for_triton` makes :func:`do_bench` the benchmarker of Triton's autotuner.
docs/python.md, "Replacing do_bench".
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .collection.core import CacheControl, DurationSource, _require_number
from .exceptions import InvalidArgumentError, NotSupportedError
from .timing import Timing, measure, time_options

ReturnMode = Literal["min", "max", "mean", "median", "all"]
_RETURN_MODES: tuple[str, ...] = ("min", "max", "mean", "median", "all")

#: do_bench_cudagraph: a captured graph holds enough calls for about this much GPU time (ns),
#: at most _GRAPH_CALLS_MAX of them; each replay is one measured run.
_GRAPH_NS = 100_000.0
_GRAPH_CALLS_MAX = 1000


@dataclass(frozen=True)
class BenchStats:
    """How the last :func:`do_bench` or :func:`do_bench_cudagraph` call of the process ended."""

    #: measured runs: calls of ``fn`` (do_bench) or replays of the captured graph
    runs: int
    #: the CI95 half-width of the mean as a fraction of it
    rel_ci: float
    #: why the runs stopped (``"target"``, ``"max_runs"``, ``"time_budget"``, ``"noise_floor"``;
    #: ``""`` with a fixed ``runs``)
    stop_reason: str
    #: wall time of the whole call, seconds
    seconds: float
    #: calls of ``fn`` per run: 1 for do_bench, the calls a replayed graph holds for
    #: do_bench_cudagraph
    calls_per_run: int
    #: the measurement itself, ns per run
    timing: Timing


_last: BenchStats | None = None


def last_stats() -> BenchStats | None:
    """What the last :func:`do_bench` / :func:`do_bench_cudagraph` call of this process measured
    (run count, precision reached, stop reason), or None before the first."""
    return _last


def _check_return_mode(return_mode: Any) -> None:
    if return_mode not in _RETURN_MODES:
        allowed = ", ".join(f"'{m}'" for m in _RETURN_MODES[:-1]) + f" or '{_RETURN_MODES[-1]}'"
        raise InvalidArgumentError(f"Invalid return_mode {return_mode!r}. Expected {allowed}.")


def _budget_seconds(budget: str, value: Any) -> float:
    """A budget in ms (Triton's ``warmup``, ``rep``) as the stopping rule's seconds (> 0: 0 ms
    leaves the first batch of calls, as Triton's 0 leaves one call)."""
    _require_number(budget, value)
    if not (math.isfinite(value) and value >= 0):
        raise InvalidArgumentError(
            f"Invalid {budget} {value!r}. Expected milliseconds >= 0 (an upper bound of the "
            "time spent; kscope stops earlier once the mean is precise enough).")  # fmt: skip
    return max(float(value), 1e-6) / 1e3


def _grad_reset(grad_to_none: Sequence[Any] | None) -> Callable[[], None] | None:
    if grad_to_none is None:
        return None
    tensors = list(grad_to_none)

    def reset() -> None:
        for x in tensors:
            x.grad = None

    return reset


def _summarize(ms: list[float], timing: Timing, scale: float, quantiles: Sequence[float] | None,
               return_mode: str) -> float | list[float]:  # fmt: skip
    """Triton's return conventions over the measured values (ns per run, ``scale`` ns per ms
    and call): the quantiles (one: a float), else the ``return_mode`` statistic."""
    if quantiles is not None:
        out = [timing.quantile(q) / scale for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return ms
    value = {"min": timing.min, "max": timing.max, "mean": timing.mean,
             "median": timing.median}[return_mode]  # fmt: skip
    return value / scale


def _record(timing: Timing, calls_per_run: int, seconds: float) -> None:
    global _last
    _last = BenchStats(runs=timing.runs, rel_ci=timing.rel_ci, stop_reason=timing.stop_reason,
                       seconds=seconds, calls_per_run=calls_per_run, timing=timing)  # fmt: skip


def do_bench(
    fn: Callable[[], object],
    warmup: float = 25,
    rep: float = 100,
    grad_to_none: Sequence[Any] | None = None,
    quantiles: Sequence[float] | None = None,
    return_mode: ReturnMode = "mean",
    *,
    target_rel_ci: float = 0.005,
    runs: int | Literal["auto"] = "auto",
    cache_control: CacheControl = "region",
    duration_source: DurationSource = "activity",
) -> float | list[float]:
    """``triton.testing.do_bench`` measured by kscope: the time of one call of ``fn``, ms.

    Each call runs after a flush of the L2 (``cache_control="region"``, as Triton clears its cache
    buffer once before each call; ``"all"`` flushes before every kernel of the call, as ncu) and after the gradients of ``grad_to_none`` are reset to None, both
    outside what is measured. A call's time is the sum of the GPU durations of the kernels it
    launches (``duration_source="activity"``, CUPTI's kernel records: no launch overhead);
    ``"profiler"`` gives Nsight Compute's ``gpu__time_duration.sum`` (needs a fixed ``runs``),
    ``"events"`` the CUDA-event wall time of the call, as Triton measures it.

    After one unmeasured call (compilation, lazy loading; ``warmup`` is an upper bound of the
    warm-up, in ms), ``fn`` is called in batches until the CI95 half-width of the mean is within
    ``target_rel_ci`` of it or ``rep`` ms of calls are spent (``runs="auto"``), or ``runs``
    times. :func:`last_stats` tells how many calls it took and the precision reached.

    Returns, as Triton: with ``quantiles`` the list of those quantiles of the calls (a float for
    one), else the ``return_mode`` statistic (``"all"``: every call's time). A ``fn`` that launches
    no kernel raises :class:`~kscope.exceptions.ExtractionError`; exceptions of ``fn`` (a Triton
    compile error) propagate unchanged.
    """
    _check_return_mode(return_mode)
    _budget_seconds("warmup", warmup)
    budget = _budget_seconds("rep", rep)
    options = time_options(runs=runs, warmup_runs=1, target_rel_ci=target_rel_ci, min_runs=5,
                           max_runs=10000, time_budget=budget,
                           cache_control=cache_control, duration_source=duration_source,
                           ignore_kernel_list=None, setup=_grad_reset(grad_to_none),
                           call_name="kscope.testing.do_bench()")  # fmt: skip
    timing = measure(fn, options)
    _record(timing, 1, timing.seconds)
    return _summarize([v / 1e6 for v in timing.values], timing, 1e6, quantiles, return_mode)


def _torch() -> Any:
    try:
        import torch
    except ImportError as e:
        raise NotSupportedError(
            "kscope.testing.do_bench_cudagraph captures fn into a CUDA graph with PyTorch "
            f"(torch.cuda.CUDAGraph), which is not installed ({e}). Use do_bench.") from None
    return torch


def do_bench_cudagraph(
    fn: Callable[[], object],
    rep: float = 20,
    grad_to_none: Sequence[Any] | None = None,
    quantiles: Sequence[float] | None = None,
    return_mode: ReturnMode = "mean",
    *,
    target_rel_ci: float = 0.005,
) -> float | list[float]:
    """``triton.testing.do_bench_cudagraph`` measured by kscope: the time of one call of ``fn``
    when it is replayed from a CUDA graph (back to back, no host launch overhead), ms.

    As Triton's: on a side stream, ``fn`` is called once, the gradients of ``grad_to_none`` are
    detached and reset, and calls of ``fn`` (each after resetting them) are captured into one
    graph with PyTorch; no cache is flushed between the calls. kscope captures enough calls for
    about 0.1 ms of GPU time (from a short measurement of ``fn``, at most 1000) instead of
    ``rep`` ms of them, and replays the graph until the mean is precise to ``target_rel_ci`` or
    ``rep`` ms of replays are spent; a replay's time is the sum of its kernels' GPU durations
    (CUPTI), divided by its calls. Returns what :func:`do_bench` returns, per call.
    """
    _check_return_mode(return_mode)
    budget = _budget_seconds("rep", rep)
    torch = _torch()
    start = time.perf_counter()
    reset = _grad_reset(grad_to_none)
    call_name = "kscope.testing.do_bench_cudagraph()"

    def timed(target: Callable[[], object], runs: int | Literal["auto"], warmup_runs: int) -> Timing:
        options = time_options(runs=runs, warmup_runs=warmup_runs, target_rel_ci=target_rel_ci,
                               min_runs=5, max_runs=10000, time_budget=budget,
                               cache_control="none", duration_source="activity",
                               ignore_kernel_list=None, setup=None, call_name=call_name)  # fmt: skip
        return measure(target, options)

    with torch.cuda.stream(torch.cuda.Stream()):
        fn()
        for x in grad_to_none or ():
            x.detach_()
            x.requires_grad_(True)
            x.grad = None
        estimate_ns = timed(fn, 3, 0).mean
        calls = max(1, min(_GRAPH_CALLS_MAX, math.ceil(_GRAPH_NS / max(estimate_ns, 1.0))))
        graph = torch.cuda.CUDAGraph()
        collecting = gc.isenabled()
        gc.disable()  # a kernel freed by the collector during capture would break the graph
        try:
            with torch.cuda.graph(graph):
                for _ in range(calls):
                    if reset is not None:
                        reset()
                    fn()
        finally:
            if collecting:
                gc.enable()
        torch.cuda.synchronize()
        timing = timed(graph.replay, "auto", 1)
    scale = 1e6 * calls
    _record(timing, calls, time.perf_counter() - start)
    return _summarize([v / scale for v in timing.values], timing, scale, quantiles, return_mode)


def use_for_triton(enable: bool = True) -> None:
    """Makes :func:`do_bench` the benchmarker of Triton's autotuner for this process: every
    ``triton.autotune`` without ``do_bench=`` (and without the older ``warmup=``, ``rep=`` and
    ``use_cuda_graph=`` arguments, which pick Triton's own functions) times its configs with it
    from then on; ``enable=False`` gives Triton's default back. Call it before the first
    autotuned kernel runs: an autotuner keeps the benchmarker it first used. Triton picks its
    default from the active driver (``triton.runtime.driver.active.get_benchmarker()``, Triton
    3.x), which this replaces."""
    from triton.runtime import driver

    active = driver.active
    if enable:
        active.get_benchmarker = _kscope_benchmarker
    else:
        vars(active).pop("get_benchmarker", None)


def _kscope_benchmarker() -> Callable[..., float | list[float]]:
    return do_bench


__all__ = ["BenchStats", "ReturnMode", "do_bench", "do_bench_cudagraph", "last_stats",
           "use_for_triton"]  # fmt: skip
