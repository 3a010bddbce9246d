"""kscope.time and kscope.testing (do_bench, do_bench_cudagraph, use_for_triton) without a GPU:
the engine's real kscope::time session runs on a stand-in tool (``_test_time_without_device``)
whose kernels are those the measured callable launches with ``_test_launch(name, ns)``."""

from __future__ import annotations

import statistics
import sys
import types
from typing import Any

import numpy as np
import pytest

import kscope
from kscope import testing
from kscope._native import native
from kscope.exceptions import (
    ExtractionError,
    InvalidArgumentError,
    NoDeviceError,
    NotSupportedError,
)


@pytest.fixture
def engine(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """native.time replaced by its GPU-free session; yields the TimeOptions of every call."""
    seen: list[Any] = []

    def time_without_device(fn: Any, options: Any) -> Any:
        seen.append(options)
        return native._test_time_without_device(fn, options)

    monkeypatch.setattr(native, "time", time_without_device)
    return seen


def launching(values_ns: list[float], kernel: str = "k") -> Any:
    """A callable whose n-th call launches one kernel of values_ns[n % len] ns (the first call
    is do_bench's unmeasured warm-up, so the measured calls start at values_ns[1])."""
    calls = [0]

    def fn() -> None:
        native._test_launch(kernel, values_ns[calls[0] % len(values_ns)])
        calls[0] += 1

    return fn


# The measured calls of launching(SERIES) with 8 fixed runs: SERIES[1:] then SERIES[0].
SERIES = [1000.0, 2000.0, 1500.0, 3000.0, 2500.0, 1200.0, 1800.0, 2200.0]
MEASURED_MS = [v / 1e6 for v in SERIES[1:] + SERIES[:1]]


@pytest.mark.parametrize("mode,expected", [
    ("mean", statistics.fmean(MEASURED_MS)), ("median", statistics.median(MEASURED_MS)),
    ("min", min(MEASURED_MS)), ("max", max(MEASURED_MS)),
])  # fmt: skip
def test_every_return_mode_is_tritons_statistic_of_the_calls_in_ms(engine, mode, expected):
    got = testing.do_bench(launching(SERIES), runs=8, return_mode=mode)
    assert isinstance(got, float)
    assert got == pytest.approx(expected, rel=1e-12)


def test_return_mode_all_is_every_calls_time_in_call_order(engine):
    assert testing.do_bench(launching(SERIES), runs=8, return_mode="all") == pytest.approx(
        MEASURED_MS, rel=1e-12)


def test_quantiles_interpolate_like_triton_and_override_the_return_mode(engine):
    q = testing.do_bench(launching(SERIES), runs=8, quantiles=[0.5, 0.2, 0.8], return_mode="max")
    assert q == pytest.approx(list(np.quantile(MEASURED_MS, [0.5, 0.2, 0.8])), rel=1e-12)
    one = testing.do_bench(launching(SERIES), runs=8, quantiles=[0.25])
    assert one == pytest.approx(float(np.quantile(MEASURED_MS, 0.25)), rel=1e-12)
    with pytest.raises(ValueError, match=r"^Invalid quantile 1\.5\. Expected a fraction between"):
        testing.do_bench(launching(SERIES), runs=8, quantiles=[0.5, 1.5])


def test_a_call_is_the_sum_of_its_kernels(engine):
    def fn() -> None:
        native._test_launch("gemm", 3000.0)
        native._test_launch("bias", 500.0)

    assert testing.do_bench(fn, runs=3) == pytest.approx(0.0035)
    assert testing.last_stats().timing.kernel == "gemm|bias"


def test_the_budgets_become_the_stopping_rules_upper_bounds(engine):
    testing.do_bench(launching([1000.0]), warmup=10, rep=40)
    o = engine[-1]
    assert o.auto_runs and o.time_budget == pytest.approx(0.040)
    assert (o.warmup_runs, o.min_runs, o.target_rel_ci) == (1, 5, 0.005)
    # One flush per call, as Triton clears its cache once before each call.
    assert (o.cache_control, o.duration_source) == ("region", "activity")
    assert o.call_name == "kscope.testing.do_bench()"
    stats = testing.last_stats()
    assert (stats.runs, stats.stop_reason, stats.calls_per_run) == (5, "target", 1)
    assert stats.rel_ci == 0.0 and stats.seconds > 0


def test_a_noisy_callable_takes_more_calls_until_the_target(engine):
    testing.do_bench(launching([1000.0, 1040.0]), target_rel_ci=0.002)
    stats = testing.last_stats()
    assert stats.stop_reason == "target" and stats.runs > 5
    assert stats.rel_ci <= 0.002


def test_a_call_stopped_at_its_noise_floor_says_so_and_how_precise_it_is(engine):
    # Drifting values: more calls widen the interval instead of narrowing it.
    ms = testing.do_bench(launching([1000.0 + 10 * i for i in range(20000)]))
    stats = testing.last_stats()
    assert stats is not None and ms > 0
    assert stats.stop_reason == "noise_floor"
    assert stats.rel_ci > 0.005  # the precision reached, short of target_rel_ci
    values = stats.timing.values  # that of the mean returned
    half = native.student_t_quantile(0.975, len(values) - 1) * statistics.stdev(values)
    assert stats.rel_ci == pytest.approx(half / len(values) ** 0.5 / statistics.fmean(values))
    assert ms == pytest.approx(statistics.fmean(values) / 1e6)


def test_gradients_are_reset_before_every_call_outside_the_measured_region(engine):
    resets: list[str] = []

    class Tensor:
        def __init__(self) -> None:
            self._grad: object = "stale"

        @property
        def grad(self) -> object:
            return self._grad

        @grad.setter
        def grad(self, value: object) -> None:
            if value is None:
                resets.append(native.current_annotation())
            self._grad = value

    x, y = Tensor(), Tensor()
    seen: list[tuple[object, object, str]] = []

    def fn() -> None:
        seen.append((x.grad, y.grad, native.current_annotation()))
        x.grad = y.grad = "accumulated"
        native._test_launch("backward", 10.0)

    testing.do_bench(fn, grad_to_none=[x, y], runs=3)
    assert seen == [(None, None, "kscope.testing.do_bench()")] * 4  # warm-up and 3 measured
    assert resets == [""] * 8  # before every call, outside its region


def test_a_callable_that_launches_no_kernel_is_a_clear_error(engine):
    with pytest.raises(ExtractionError, match=r"^kscope\.testing\.do_bench\(\): the callable "
                       r"launched no CUDA kernel in its 5 measured calls, so there is nothing "
                       r"to time\."):  # fmt: skip
        testing.do_bench(lambda: None)


def test_an_exception_of_the_callable_propagates_unchanged(engine):
    class OutOfResources(Exception):
        pass

    error = OutOfResources("shared memory")
    calls = [0]

    def fn() -> None:
        calls[0] += 1
        native._test_launch("k", 1.0)
        if calls[0] == 3:
            raise error

    with pytest.raises(OutOfResources) as info:
        testing.do_bench(fn)
    assert info.value is error
    assert any(frame.name == "fn" for frame in info.traceback)
    assert native.current_annotation() == ""


@pytest.mark.parametrize("kwargs,text", [
    ({"return_mode": "avg"},
     r"^Invalid return_mode 'avg'\. Expected 'min', 'max', 'mean', 'median' or 'all'\.$"),
    ({"rep": -5}, r"^Invalid rep -5\. Expected milliseconds >= 0"),
    ({"warmup": float("nan")}, r"^Invalid warmup nan\. Expected milliseconds >= 0"),
    ({"target_rel_ci": 0}, r"^Invalid target_rel_ci 0\. Expected a fraction of the mean"),
    ({"cache_control": "warm"}, r"^Invalid cache_control 'warm'\. Expected 'all', 'region' or 'none'\.$"),
])  # fmt: skip
def test_bad_arguments_fail_before_any_call(engine, kwargs, text):
    calls: list[int] = []
    with pytest.raises(InvalidArgumentError, match=text):
        testing.do_bench(lambda: calls.append(1), **kwargs)
    assert calls == []


def test_kscope_time_returns_the_sweeps_statistics(engine):
    t = kscope.time(launching([100.0, 300.0]), runs=4)
    assert isinstance(t, kscope.Timing)
    assert t.values == [300.0, 100.0, 300.0, 100.0]
    assert (t.mean, t.median, t.min, t.max, t.runs) == (200.0, 200.0, 100.0, 300.0, 4)
    assert t.stddev == pytest.approx(statistics.stdev(t.values))
    half = native.student_t_quantile(0.975, 3) * t.stddev / 2
    assert t.ci95 == pytest.approx((200.0 - half, 200.0 + half))
    assert t.rel_ci == pytest.approx(half / 200.0)
    assert t.quantile(0.5) == 200.0
    assert (t.stop_reason, t.kernel) == ("", "k")
    assert t.statistics.metric == native.TIME_METRIC and t.statistics.unit == "ns"
    assert t.seconds > 0
    assert repr(t).startswith("Timing(mean=200 ns +-")
    assert engine[-1].call_name == "kscope.time()"


def test_kscope_time_stops_adaptively_by_default(engine):
    t = kscope.time(launching([1000.0]))
    assert (t.runs, t.stop_reason) == (5, "target")
    o = engine[-1]
    assert o.auto_runs and (o.min_runs, o.max_runs, o.time_budget) == (5, 10000, 1.0)


@pytest.mark.parametrize("kwargs,text", [
    ({"runs": "many"}, "runs must be an int or 'auto', got 'many'"),
    ({"min_runs": 2.5}, "min_runs must be an int, got 2.5"),
    ({"time_budget": "1s"}, "time_budget must be a number, got '1s'"),
    ({"setup": 3}, "setup must be a callable without arguments or None, got 3"),
    ({"ignore_kernel_list": "fill"}, r"ignore_kernel_list must be a sequence of str"),
])  # fmt: skip
def test_kscope_time_checks_python_types(engine, kwargs, text):
    with pytest.raises(TypeError, match=text):
        kscope.time(launching([1.0]), **kwargs)


def test_kscope_time_prints_nothing_and_at_debug_what_the_call_cost(engine, capsys):
    kscope.time(launching([1000.0]))
    assert capsys.readouterr().out == ""
    kscope.time(launching([1000.0]), verbosity=kscope.VerbosityLevel.DEBUG)
    out = capsys.readouterr().out  # sys.stdout, as a sweep's output
    assert "[kscope] fixed cost (ms): session set-up " in out and ", statistics " in out, out
    assert "[kscope] host time per run (us, mean over 6 executions): " in out, out
    with pytest.raises(ValueError, match=r"^Invalid verbosity 7\. Expected one of "):
        kscope.time(launching([1.0]), verbosity=7)  # type: ignore[arg-type]


def test_the_measured_callable_must_be_callable(engine):
    with pytest.raises(TypeError, match="fn must be a callable without arguments, got 5"):
        kscope.time(5)  # type: ignore[arg-type]


def test_the_profiler_duration_needs_a_fixed_run_count_before_the_device_is_checked():
    # The real engine: the option rules come before "no CUDA device".
    with pytest.raises(NotSupportedError, match=r"^runs='auto' times kernels from their activity"):
        testing.do_bench(lambda: None, duration_source="profiler")


def test_without_a_gpu_a_measurement_says_no_cuda_device():
    if kscope.device_available():
        pytest.skip("a CUDA device is present")
    calls: list[int] = []
    with pytest.raises(NoDeviceError, match="^no CUDA device: "):
        kscope.time(lambda: calls.append(1))
    assert calls == []


def test_do_bench_cudagraph_needs_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(NotSupportedError, match=r"do_bench_cudagraph captures fn into a CUDA "
                       r"graph with PyTorch"):  # fmt: skip
        testing.do_bench_cudagraph(lambda: None)


def test_do_bench_cudagraph_checks_its_arguments_first():
    with pytest.raises(InvalidArgumentError, match="^Invalid return_mode 'p50'"):
        testing.do_bench_cudagraph(lambda: None, return_mode="p50")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="^Invalid rep -1"):
        testing.do_bench_cudagraph(lambda: None, rep=-1)


def test_use_for_triton_replaces_the_active_drivers_benchmarker(monkeypatch):
    class Driver:
        def get_benchmarker(self) -> Any:
            return "triton.testing.do_bench"

    runtime = types.ModuleType("triton.runtime")
    runtime.driver = types.SimpleNamespace(active=Driver())  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "triton", types.ModuleType("triton"))
    monkeypatch.setitem(sys.modules, "triton.runtime", runtime)
    testing.use_for_triton()
    assert runtime.driver.active.get_benchmarker() is testing.do_bench
    testing.use_for_triton(False)
    assert runtime.driver.active.get_benchmarker() == "triton.testing.do_bench"
    testing.use_for_triton(False)  # nothing to undo: no error
    assert runtime.driver.active.get_benchmarker() == "triton.testing.do_bench"


def test_last_stats_is_none_before_the_first_call(monkeypatch):
    monkeypatch.setattr(testing, "_last", None)
    assert testing.last_stats() is None


def test_the_return_mode_literal_lists_tritons_modes():
    from typing import get_args

    assert get_args(testing.ReturnMode) == ("min", "max", "mean", "median", "all")


def test_zero_budgets_leave_the_first_batch_of_calls(engine):
    testing.do_bench(launching([1000.0, 1100.0]), warmup=0, rep=0)
    assert engine[-1].time_budget == pytest.approx(1e-9)
    assert testing.last_stats().runs == 5
