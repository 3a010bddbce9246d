"""GPU tests with PyTorch kernels (marker gpu: skipped without a usable CUDA device)."""

from __future__ import annotations

import math
import os
import threading

import pytest

import kscope
from kscope.exceptions import ExtractionError

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
SILENT = kscope.VerbosityLevel.SILENT


def tensors(n, count=2):
    return [torch.randn(n, device="cuda") for _ in range(count)]


def test_matmul_sweep():
    # cuBLAS picks split-K (a GEMM plus a reduction kernel) for the small sizes on an H200: the
    # annotation then launches two kernels there and one at 1024, so their times are summed.
    @kscope.analyze.kernel(configs=[(256,), (512,), (1024,)], runs=5, verbosity=SILENT,
                           combine_kernel_metrics=lambda x, y: x + y)
    def matmul(n):
        a = torch.randn(n, n, device="cuda")
        b = torch.randn(n, n, device="cuda")
        a @ b  # warm-up outside the annotation (cuBLAS heuristics, lazy loading)
        with kscope.annotate("torch"):
            a @ b

    df = matmul().to_dataframe()
    print(df.to_string())
    assert df["n"].tolist() == [256, 512, 1024] and df["n"].dtype == "int64"
    assert (df["Annotation"] == "torch").all() and (df["Metric"] == "gpu__time_duration.sum").all()
    assert (df["AvgValue"] > 0).all() and (df["NumRuns"] == 5).all() and (df["Unit"] == "ns").all()
    assert df["AvgValue"].iloc[2] > df["AvgValue"].iloc[0]
    assert df["GPU"].iloc[0] and df["ComputeClock"].iloc[0] > 0


def test_two_annotations():
    @kscope.analyze.kernel(configs=[(1 << 16,), (1 << 20,)], runs=3, verbosity=SILENT)
    def two(n):
        a, b = tensors(n)
        with kscope.annotate("add"):
            torch.add(a, b)
        with kscope.annotate("mul"):
            torch.mul(a, b)

    df = two().to_dataframe()
    assert df["Annotation"].tolist() == ["add", "add", "mul", "mul"]
    assert (df["AvgValue"] > 0).all()


def test_duplicate_annotation_in_one_run():
    @kscope.analyze.kernel(runs=1, verbosity=SILENT)
    def duplicate():
        a, b = tensors(1024)
        with kscope.annotate("duplicate_test"):
            torch.add(a, b)
        with kscope.annotate("duplicate_test"):
            torch.add(a, b)

    with pytest.raises(ValueError, match="^Annotation name 'duplicate_test' has already been used "
                       "in this profiling run. Each annotation must have a unique name.$"):  # fmt: skip
        duplicate()


def test_derive_metric_variants():
    def scalar(t, n):
        return n / t

    def with_unit(t, n):
        return n / t, "ops/s"

    def as_dict(t, n):
        return {"a": (n / t, "ops/s"), "b": (n / t / 1e6, "Mops/s")}

    results = {}
    for fn in (scalar, with_unit, as_dict):
        @kscope.analyze.kernel(configs=[(100,), (200,)], runs=2, derive_metric=fn, verbosity=SILENT)
        def derived(n):
            a, b = tensors(n)
            with kscope.annotate("add"):
                torch.add(a, b)

        if fn is scalar:
            with pytest.warns(UserWarning, match="Derived metric 'scalar' does not have a unit"):
                results[fn.__name__] = derived().to_dataframe()
        else:
            results[fn.__name__] = derived().to_dataframe()

    s = results["scalar"]
    assert s["Metric"].tolist()[:2] == ["gpu__time_duration.sum"] * 2
    assert s["Metric"].tolist()[2:] == ["scalar"] * 2 and s["Unit"][2:].isna().all()
    assert results["with_unit"]["Unit"].tolist()[2:] == ["ops/s"] * 2
    d = results["as_dict"]
    assert len(d) == 6 and d["Metric"].tolist()[2:] == ["a", "b", "a", "b"]
    assert d[d["Metric"] == "a"]["Unit"].eq("ops/s").all()
    assert d[d["Metric"] == "b"]["Unit"].eq("Mops/s").all()
    assert (d["AvgValue"] > 0).all() and (d["NumRuns"] == 2).all()


def test_normalize_against():
    @kscope.analyze.kernel(configs=[(1 << 20,), (1 << 22,)], runs=3, normalize_against="annotation1",
                           verbosity=SILENT)  # fmt: skip
    def normalized(n):
        a, b = tensors(n)
        with kscope.annotate("annotation1"):
            torch.add(a, b)
        with kscope.annotate("annotation2"):
            torch.cat([a, b])  # copies twice the data: slower than the add

    df = normalized().to_dataframe()
    base = df[df["Annotation"] == "annotation1"]
    assert base["AvgValue"].tolist() == [1.0, 1.0]
    assert df["Normalized"].eq("annotation1").all()
    assert (df["NormalizationValue"] > 0).all()


def test_combine_three_kernels():
    @kscope.analyze.kernel(configs=[(512,)], runs=3, combine_kernel_metrics=lambda x, y: x + y,
                           verbosity=SILENT)  # fmt: skip
    def three(n):
        a = torch.randn(n, n, device="cuda")
        b = torch.randn(n, n, device="cuda")
        a @ b
        with kscope.annotate("three"):
            a @ b
            torch.add(a, b)
            torch.mul(a, b)

    df = three().to_dataframe()
    assert df["Kernel"][0].count("|") >= 2  # matmul (one or more kernels) | add | mul
    assert df["AvgValue"][0] > 0 and df["NumRuns"][0] == 3


def test_more_than_one_kernel_without_combiner():
    @kscope.analyze.kernel(runs=1, verbosity=SILENT)
    def two_kernels():
        a, b = tensors(1024)
        with kscope.annotate("test_kernels_None"):
            torch.add(a, b)
            torch.mul(a, b)

    with pytest.raises(RuntimeError, match="More than one.*kernel.*launched within the "
                       "test_kernels_None annotation") as info:  # fmt: skip
        two_kernels()
    assert isinstance(info.value, ExtractionError)


def test_worker_thread_launch():
    @kscope.analyze.kernel(configs=[(1 << 20,)], runs=3, verbosity=SILENT)
    def threaded(n):
        a, b = tensors(n)
        with kscope.annotate("worker_thread"):
            worker = threading.Thread(target=lambda: torch.add(a, b))
            worker.start()
            worker.join()

    df = threaded().to_dataframe()
    assert df["Annotation"].tolist() == ["worker_thread"] and df["AvgValue"][0] > 0


def test_ignore_failures_records_nan():
    @kscope.analyze.kernel(configs=[(1,), (2,)], runs=2, verbosity=SILENT)
    def flaky(k):
        a, b = tensors(1024)
        with kscope.annotate("maybe", ignore_failures=True):
            torch.add(a, b)
            if k == 2:
                raise RuntimeError("this config fails")

    with pytest.warns(RuntimeWarning, match="Annotation 'maybe' ignored an exception"):
        df = flaky().to_dataframe()
    ok, failed = df.iloc[0], df.iloc[1]
    assert ok["NumRuns"] == 2 and ok["AvgValue"] > 0
    assert failed["NumRuns"] == 0 and math.isnan(failed["AvgValue"])


def test_exception_propagates_and_the_engine_recovers():
    @kscope.analyze.kernel(configs=[(1,), (2,)], verbosity=SILENT)
    def raising(k):
        a, b = tensors(1024)
        with kscope.annotate("a"):
            torch.add(a, b)
        if k == 2:
            raise KeyError("from the benchmark")

    with pytest.raises(KeyError, match="from the benchmark"):
        raising()

    @kscope.analyze.kernel(verbosity=SILENT)
    def fine():
        a, b = tensors(1024)
        with kscope.annotate("a"):
            torch.add(a, b)

    assert fine().to_dataframe()["AvgValue"][0] > 0


def test_keyboard_interrupt_propagates():
    @kscope.analyze.kernel(verbosity=SILENT)
    def interrupted():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()


def test_silent_prints_nothing(capfd):
    @kscope.analyze.kernel(configs=[(1024,)], runs=2, verbosity=SILENT)
    def quiet(n):
        a, b = tensors(n)
        with kscope.annotate("a"):
            torch.add(a, b)

    quiet()
    assert capfd.readouterr().out == ""


def test_info_prints_through_sys_stdout(capsys):
    @kscope.analyze.kernel(configs=[(1024,)], runs=2)
    def chatty(n):
        a, b = tensors(n)
        with kscope.annotate("a"):
            torch.add(a, b)

    chatty()
    out = capsys.readouterr().out
    assert "[kscope]" in out and "Profiling chatty" in out


def test_run_ids_and_output_csv(tmp_path):
    prefix = str(tmp_path / "csv" / "test_")

    @kscope.analyze.kernel(output_prefix=prefix, output_csv=True, verbosity=SILENT)
    def output_csv_func():
        a, b = tensors(1024)
        with kscope.annotate("a"):
            torch.add(a, b)

    first, second = output_csv_func(), output_csv_func()
    assert second.id == first.id + 1
    for r in (first, second):
        for kind in ("profiled_data", "processed_data"):
            assert os.path.exists(f"{prefix}{kind}-output_csv_func-{r.id}.csv")


def test_tensor_configs_and_json_round_trip(tmp_path):
    x, y = torch.randn(1 << 16, device="cuda"), torch.randn(1 << 18, device="cuda")

    @kscope.analyze.kernel(configs=[(x,), (y,)], runs=2, verbosity=SILENT)
    def on_tensors(t):
        with kscope.annotate("neg"):
            torch.neg(t)

    r = on_tensors()
    df = r.to_dataframe()
    assert df["t"][0] is x and df["t"][1] is y
    r.to_json(tmp_path / "r.json")
    again = kscope.load(tmp_path / "r.json").to_dataframe()
    assert again["AvgValue"].tolist() == df["AvgValue"].tolist()
    assert again["t"][0].startswith("Tensor(shape=(65536,)")


def test_warmup_runs_are_not_measured():
    @kscope.analyze.kernel(runs=2, warmup_runs=3, verbosity=SILENT)
    def warm():
        a, b = tensors(1024)
        with kscope.annotate("a"):
            torch.add(a, b)

    assert warm().to_dataframe()["NumRuns"].tolist() == [2]
