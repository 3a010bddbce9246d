"""runs="auto" from Python: the options reach the engine, bad values are named (class and text),
the engine's real Session stops each config and records why (``_test_profile_without_device``:
values that grow by 1 ns a run, a drift that more runs cannot average away)."""

from __future__ import annotations

import pytest

import kscope
from kscope._native import native
from kscope.exceptions import InvalidArgumentError, NotSupportedError

SILENT = kscope.VerbosityLevel.SILENT


def test_auto_runs_reach_the_engine(fake_engine):
    @kscope.analyze.kernel(configs=[(1,)], runs="auto", target_rel_ci=0.01, min_runs=3,
                           max_runs=50, time_budget=0.5, verbosity=SILENT)  # fmt: skip
    def bench(n):
        with kscope.annotate("fake"):
            pass

    bench()
    options = fake_engine.calls[0]["options"]
    assert options.auto_runs is True
    assert (options.target_rel_ci, options.min_runs, options.max_runs, options.time_budget) == (
        0.01, 3, 50, 0.5)  # fmt: skip


def test_fixed_runs_are_not_auto(fake_engine):
    @kscope.analyze.kernel(configs=[(1,)], runs=4, verbosity=SILENT)
    def bench(n):
        pass

    bench()
    assert fake_engine.calls[0]["options"].auto_runs is False


@pytest.mark.parametrize("options, error, text", [
    ({"runs": "fast"}, TypeError, "runs must be an int or 'auto', got 'fast'"),
    ({"min_runs": 1}, InvalidArgumentError,
     "Invalid min_runs 1. Expected an integer >= 2 (a confidence interval needs two runs)."),
    ({"max_runs": 3}, InvalidArgumentError, "Invalid max_runs 3: it must be at least min_runs (5)."),
    ({"target_rel_ci": 0}, InvalidArgumentError,
     "Invalid target_rel_ci 0. Expected a fraction of the mean between 0 and 1, e.g. 0.005 for a "
     "CI95 half-width of 0.5 %."),
    ({"time_budget": 0}, InvalidArgumentError,
     "Invalid time_budget 0. Expected seconds > 0 (measured time per config)."),
    ({"runs": "auto", "resume": "j.jsonl"}, NotSupportedError,
     "resume with runs='auto' is not supported: a resumed sweep keeps the configs its journal "
     "holds with all `runs` runs, and a config of runs='auto' has as many as its stopping rule "
     "took. Run the sweep again without resume, or with a fixed runs=."),
    ({"runs": "auto", "tool": "ncu"}, NotSupportedError,
     "runs='auto' needs the cupti tool: the stopping rule decides after each batch of runs from "
     "the values measured so far, and tool 'ncu' hands its values to kscope only when the "
     "re-executed program has ended (docs/options.md, \"Adaptive runs\"). Use a fixed runs= with "
     "tool 'ncu', or tool 'cupti'."),
])  # fmt: skip
def test_bad_values_are_named(options, error, text):
    with pytest.raises(error) as info:
        kscope.analyze.kernel(**options)(lambda: None)
    assert str(info.value) == text


@pytest.mark.parametrize("options", [{"duration_source": "profiler"},
                                     {"metrics": ["dram__bytes_read.sum"]}])
def test_auto_runs_refuse_the_range_profiler_before_any_gpu_work(options):
    @kscope.analyze.kernel(configs=[(1,)], runs="auto", verbosity=SILENT, **options)
    def bench(n):
        pass

    with pytest.raises(NotSupportedError, match=r"^runs='auto' times kernels from their "
                       r"activity records: .* hands its values over only after the sweep\. Use a "
                       r"fixed runs= with these metrics"):
        bench()


def test_a_type_error_for_a_non_number():
    with pytest.raises(TypeError, match=r"^target_rel_ci must be a number, got 'x'$"):
        kscope.analyze.kernel(target_rel_ci="x")(lambda: None)


def test_the_session_stops_each_config_and_records_why(monkeypatch, tmp_path):
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)

    @kscope.analyze.kernel(configs=[(1,), (2,)], runs="auto", max_runs=400, time_budget=60,
                           verbosity=SILENT, output_prefix=str(tmp_path) + "/")  # fmt: skip
    def bench(n):
        with kscope.annotate("a"):
            pass

    results = bench()
    stops = results.stops()
    assert list(stops.columns) == ["n", "Runs", "StopReason", "RelCI95", "Seconds"]
    # 100 (c + 1) + run: the spread grows with the runs, so the CI stops shrinking.
    assert stops["StopReason"].tolist() == ["noise_floor", "noise_floor"]
    assert (stops["Runs"] >= 80).all() and (stops["Runs"] < 400).all()
    df = results.to_dataframe()
    assert df["StopReason"].tolist() == ["noise_floor", "noise_floor"]
    assert df["NumRuns"].tolist() == stops["Runs"].tolist()
    # Saved and loaded again, from the JSON and from the journal.
    results.to_json(tmp_path / "r.json")
    assert kscope.load(tmp_path / "r.json").stops()["Runs"].tolist() == stops["Runs"].tolist()
    journal = kscope.load(results.journal_path)
    assert journal.stops()["StopReason"].tolist() == ["noise_floor", "noise_floor"]
    assert journal.to_dataframe()["StopReason"].tolist() == ["noise_floor", "noise_floor"]


def test_fixed_runs_have_no_stops_or_stop_column(monkeypatch, tmp_path):
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)

    @kscope.analyze.kernel(configs=[(1,)], runs=3, verbosity=SILENT,
                           output_prefix=str(tmp_path) + "/")  # fmt: skip
    def bench(n):
        with kscope.annotate("a"):
            pass

    results = bench()
    assert results.stops().empty
    assert "StopReason" not in results.to_dataframe().columns
