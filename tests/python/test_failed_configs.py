"""Configs that fail as data (``on_config_error="skip"``) and resumed sweeps (``resume=``),
through the engine's real session, journal and resume logic without a device
(``_kscope._test_profile_without_device``: each annotation entered in a measured run is one
kernel worth 100 (config + 1) + run ns)."""

from __future__ import annotations

import json
import math
import os
import warnings

import pandas as pd
import pytest

import kscope
from kscope._native import native
from kscope.exceptions import InvalidArgumentError, NotSupportedError

SILENT = kscope.VerbosityLevel.SILENT


@pytest.fixture
def cpu_engine(monkeypatch):
    """profile() through the engine's real session without a device."""
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)


def sweep(tmp_path, fail_at=None, exc=ValueError, calls=None, **options):
    """A decorated function over n = 1..5 that raises `exc` at n == fail_at."""
    options.setdefault("runs", 2)

    @kscope.analyze.kernel(configs=[1, 2, 3, 4, 5], output_prefix=f"{tmp_path}/", verbosity=SILENT,
                           thermal_mode="off", **options)  # fmt: skip
    def bench(n):
        if calls is not None:
            calls.append(n)
        with kscope.annotate("step"):
            pass
        if n == fail_at:
            raise exc(f"n={n} is not supported")

    return bench


def test_a_failing_config_is_recorded_and_the_sweep_goes_on(cpu_engine, tmp_path):
    calls = []
    with pytest.warns(RuntimeWarning) as caught:
        results = sweep(tmp_path, fail_at=3, calls=calls, on_config_error="skip")()
    assert calls == [1, 1, 2, 2, 3, 4, 4, 5, 5]  # config n=3 stops at its first run
    (failure,) = results.failed_configs
    assert failure == {"config": 2, "values": (3,), "run": 0, "warmup": False,
                       "type": "ValueError", "message": "n=3 is not supported",
                       "error": "ValueError: n=3 is not supported (config 2, measured run 0)"}  # fmt: skip
    warning = str(caught[0].message)
    assert warning.startswith("1 of 5 configs failed and have no values (on_config_error 'skip'):")
    assert "config 2 (n=3): ValueError: n=3 is not supported" in warning

    df = results.to_dataframe()
    assert list(df["n"]) == [1, 2, 3, 4, 5]
    assert list(df.columns)[-1] == "Error"
    failed = df[df["n"] == 3].iloc[0]
    assert failed["Error"] == failure["error"]
    assert math.isnan(failed["AvgValue"]) and failed["NumRuns"] == 0
    assert failed["Annotation"] == "step" and failed["Unit"] == "ns"
    measured = df[df["n"] != 3]
    assert measured["Error"].isna().all()
    assert list(measured["AvgValue"]) == [100.5, 200.5, 400.5, 500.5]


def test_without_failures_there_is_no_error_column(cpu_engine, tmp_path):
    results = sweep(tmp_path, on_config_error="skip")()
    assert results.failed_configs == []
    assert "Error" not in results.to_dataframe().columns


def test_raise_is_the_default_and_the_exception_propagates_unchanged(cpu_engine, tmp_path):
    with pytest.raises(ValueError, match=r"^n=2 is not supported$"):
        sweep(tmp_path, fail_at=2)()


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit])
def test_interrupts_are_never_skipped(cpu_engine, tmp_path, exc):
    calls = []
    with pytest.raises(exc, match="n=2 is not supported"):
        sweep(tmp_path, fail_at=2, exc=exc, calls=calls, on_config_error="skip")()
    assert calls == [1, 1, 2]


def test_failures_survive_json_and_the_journal(cpu_engine, tmp_path):
    with pytest.warns(RuntimeWarning):
        results = sweep(tmp_path, fail_at=4, on_config_error="skip")()
    path = tmp_path / "r.json"
    results.to_json(path)
    doc = json.loads(path.read_text())
    assert doc["failed_configs"] == [{"config": 3, "run": 0, "warmup": False,
                                      "type": "ValueError", "message": "n=4 is not supported"}]  # fmt: skip
    assert [p.get("Error") for p in doc["processed"]][3] == (
        "ValueError: n=4 is not supported (config 3, measured run 0)")
    for loaded in (kscope.load(str(path)), kscope.load(results.journal_path)):
        assert [f["config"] for f in loaded.failed_configs] == [3]
        pd.testing.assert_series_equal(loaded.to_dataframe()["AvgValue"],
                                       results.to_dataframe()["AvgValue"])  # fmt: skip
    journal_kinds = [json.loads(line)["kind"] for line in open(results.journal_path)]
    assert "failed" in journal_kinds


def test_the_csv_has_the_error_column(cpu_engine, tmp_path):
    with pytest.warns(RuntimeWarning):
        sweep(tmp_path, fail_at=1, on_config_error="skip", output_csv=True)()
    (csv,) = [f for f in os.listdir(tmp_path) if f.startswith("processed_data-")]
    df = pd.read_csv(tmp_path / csv)
    assert df.columns[-1] == "Error"
    assert df["Error"][0] == "ValueError: n=1 is not supported (config 0, measured run 0)"


def test_invalid_on_config_error_is_named():
    with pytest.raises(InvalidArgumentError,
                       match=r"^Invalid on_config_error 'ignore'\. Expected 'raise' or 'skip'\.$"):  # fmt: skip
        kscope.analyze.kernel(on_config_error="ignore")  # type: ignore[arg-type]


def _interrupted(tmp_path, calls):
    """A sweep that ended at n=4 (raise mode): its journal holds n=1..3 complete."""
    with pytest.raises(ValueError):
        sweep(tmp_path, fail_at=4, calls=calls)()
    (journal,) = [f for f in os.listdir(tmp_path) if f.startswith("journal-")]
    return str(tmp_path / journal)


def test_resume_measures_only_what_the_journal_lacks(cpu_engine, tmp_path):
    calls = []
    journal = _interrupted(tmp_path / "a", calls)
    calls.clear()
    resumed = sweep(tmp_path / "b", calls=calls, resume=journal)()
    assert calls == [4, 4, 5, 5]
    whole = sweep(tmp_path / "c")()
    pd.testing.assert_frame_equal(resumed.to_dataframe(), whole.to_dataframe())
    pd.testing.assert_frame_equal(resumed.raw_dataframe(), whole.raw_dataframe())
    assert resumed.complete


def test_resume_into_the_same_journal_replaces_it(cpu_engine, tmp_path):
    calls = []
    journal = _interrupted(tmp_path, calls)
    calls.clear()
    resumed = sweep(tmp_path, calls=calls, resume=journal)()
    assert calls == [4, 4, 5, 5]
    assert resumed.journal_path == journal
    again = kscope.load(journal)
    assert again.complete
    assert list(again.to_dataframe()["n"]) == [1, 2, 3, 4, 5]
    assert not os.path.exists(journal + ".resuming")


def test_a_resumed_failed_config_is_measured_again(cpu_engine, tmp_path):
    with pytest.warns(RuntimeWarning):
        first = sweep(tmp_path / "a", fail_at=2, on_config_error="skip")()
    calls = []
    resumed = sweep(tmp_path / "b", calls=calls, resume=first.journal_path)()
    assert calls == [2, 2]
    assert resumed.failed_configs == []


def test_a_complete_journal_leaves_nothing_to_measure(cpu_engine, tmp_path):
    first = sweep(tmp_path / "a")()
    calls = []
    resumed = sweep(tmp_path / "b", calls=calls, resume=first.journal_path)()
    assert calls == []
    pd.testing.assert_frame_equal(resumed.to_dataframe(), first.to_dataframe())


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"runs": 3}, "the journal was written with runs=2, this session has runs=3"),
        ({"metrics": ["dram__bytes.sum"]},
         'the journal was written with metrics=["gpu__time_duration.sum"], this session has '
         'metrics=["dram__bytes.sum"]'),
        ({"cache_control": "none"},
         'the journal was written with cache_control="all", this session has '
         'cache_control="none"'),
    ],
)
def test_resume_refuses_other_options(cpu_engine, tmp_path, change, why):
    journal = _interrupted(tmp_path / "a", [])
    with pytest.raises(InvalidArgumentError) as e:
        sweep(tmp_path / "b", resume=journal, **{"runs": 2, **change})()
    assert str(e.value) == (
        f"Invalid resume '{journal}': {why}. Resume with the session, configs and options that "
        "wrote the journal, or leave resume empty to measure the sweep anew.")


def test_resume_ignores_display_and_output_options(cpu_engine, tmp_path):
    journal = _interrupted(tmp_path / "a", [])
    resumed = sweep(tmp_path / "b", resume=journal, output_csv=True, on_config_error="skip")()
    assert resumed.complete


def test_resume_refuses_other_configs_and_other_sessions(cpu_engine, tmp_path):
    journal = _interrupted(tmp_path / "a", [])

    @kscope.analyze.kernel(configs=[1, 2, 7, 4, 5], output_prefix=f"{tmp_path}/b/", runs=2,
                           verbosity=SILENT, resume=journal)  # fmt: skip
    def bench(n):
        with kscope.annotate("step"):
            pass

    with pytest.raises(InvalidArgumentError, match=r": config 2 is \(n=3\) in the journal and "
                                                   r"\(n=7\) here\. Resume with"):  # fmt: skip
        bench()

    @kscope.analyze.kernel(configs=[1, 2, 3], output_prefix=f"{tmp_path}/c/", runs=2,
                           verbosity=SILENT, resume=journal)  # fmt: skip
    def other(n):
        pass

    with pytest.raises(InvalidArgumentError,
                       match=r": the journal is of session 'bench', this session is 'other'\."):  # fmt: skip
        other()


def test_resume_of_a_missing_file_says_where_journals_are_printed(cpu_engine, tmp_path):
    with pytest.raises(InvalidArgumentError) as e:
        sweep(tmp_path, resume=str(tmp_path / "nope.jsonl"))()
    assert str(e.value) == (
        f"Invalid resume '{tmp_path}/nope.jsonl': no such file. Give the journal an earlier run "
        'of this sweep wrote (its path is printed as "Journal: ..." when a session starts).')


def test_resume_of_a_file_that_is_no_journal_names_the_file(cpu_engine, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "something"}\n')
    with pytest.raises(kscope.exceptions.FileFormatError, match="bad.jsonl"):
        sweep(tmp_path, resume=str(bad))()


def test_the_sanitizer_tool_does_not_resume(tmp_path):
    with pytest.raises(NotSupportedError, match=r"^resume applies to the measuring tools"):
        sweep(tmp_path, tool="sanitizer", resume=str(tmp_path / "j.jsonl"))()


def test_ncu_part_seconds_must_be_positive():
    with pytest.raises(InvalidArgumentError, match=r"^Invalid ncu_part_seconds 0\.0\. Expected a "
                                                   r"number of seconds > 0"):  # fmt: skip
        kscope.analyze.kernel(ncu_part_seconds=0)
    with pytest.raises(TypeError, match="ncu_part_seconds must be a number"):
        kscope.analyze.kernel(ncu_part_seconds="60")  # type: ignore[arg-type]


def test_skipped_failures_do_not_warn_in_raise_mode(cpu_engine, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sweep(tmp_path)()


def test_resume_of_a_result_file_says_it_is_no_journal(cpu_engine, tmp_path):
    # It said "line 1 is not JSON" (issue 38).
    result = tmp_path / "r.json"
    sweep(tmp_path / "a")().write("json", result)
    with pytest.raises(InvalidArgumentError) as e:
        sweep(tmp_path / "b", resume=result)()
    assert str(e.value) == (
        f"Invalid resume '{result}': it is a kscope result file, not a journal. Give the journal "
        'the run wrote (its path is printed as "Journal: ..." when a session starts; the '
        "result's journal_path names it).")
