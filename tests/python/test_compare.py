"""kscope.compare on results of the fake engine: verdicts, the DataFrame's columns, markdown,
CSV/JSON, the ratio plot, the noise threshold, filters, directories, threshold texts and
numbers, and errors (class and text): the engine's rules, reached from Python."""

from __future__ import annotations

import json
import math

import pytest

import kscope
from kscope.exceptions import InvalidArgumentError

SILENT = kscope.VerbosityLevel.SILENT


def sweep(fake_engine, scale: float, runs: int = 10):
    fake_engine.scale = scale

    @kscope.analyze.kernel(configs=[(1,), (2,)], runs=runs, verbosity=SILENT)
    def bench(n):
        with kscope.annotate("fake"):
            pass

    return bench()


def test_a_slower_new_is_slower_and_a_regression(fake_engine):
    base = sweep(fake_engine, 1.0)
    new = sweep(fake_engine, 1.2)
    c = kscope.compare(base, new, threshold="5%")
    assert c.verdicts == ["SLOWER", "SLOWER"]
    assert c.regressed
    df = c.to_dataframe()
    assert list(df.columns) == [
        "Session", "Annotation", "Metric", "Config", "Unit", "Direction", "DirectionDeclared",
        "BaseValue", "NewValue", "BaseRuns", "NewRuns", "BaseRSDPct", "NewRSDPct", "Ratio",
        "RatioCI95_Lower", "RatioCI95_Upper", "Test", "PValue", "PValueHolm", "Verdict",
        "WithinNoise", "BeyondThreshold"]  # fmt: skip
    assert df["Test"].tolist() == ["U", "U"]  # 10 runs a side
    assert df["PValueHolm"].tolist() == pytest.approx((2 * df["PValue"]).tolist())
    assert df["Ratio"].tolist() == pytest.approx([1.2, 1.2])
    assert (df["RatioCI95_Lower"] < 1.2).all() and (df["RatioCI95_Upper"] > 1.2).all()
    assert df["Config"].tolist() == ["n=1", "n=2"]
    assert df["BeyondThreshold"].tolist() == [True, True]
    assert "SLOWER (beyond threshold)" in str(c)


def test_the_same_results_are_same_and_no_regression(fake_engine):
    base = sweep(fake_engine, 1.0)
    c = kscope.compare(base, sweep(fake_engine, 1.0), threshold=0.05)
    assert c.verdicts == ["SAME", "SAME"]
    assert not c.regressed
    assert c.warnings == []


def test_faster_and_one_sided_rows(fake_engine, tmp_path):
    base = sweep(fake_engine, 1.0)
    base.to_json(tmp_path / "base.json")

    @kscope.analyze.kernel(configs=[(1,), (3,)], runs=10, verbosity=SILENT)
    def bench(n):
        with kscope.annotate("fake"):
            pass

    fake_engine.scale = 0.5
    new = bench()
    c = kscope.compare(tmp_path / "base.json", new)  # a path and results
    assert c.verdicts == ["FASTER", "BASE_ONLY", "NEW_ONLY"]
    df = c.to_dataframe()
    assert df["Config"].tolist() == ["n=1", "n=2", "n=3"]
    assert math.isnan(df["NewValue"].iloc[1]) and math.isnan(df["BaseValue"].iloc[2])


def test_markdown_csv_json_and_plot(fake_engine, tmp_path):
    c = kscope.compare(sweep(fake_engine, 1.0), sweep(fake_engine, 1.2), threshold=0.05)
    md = c.markdown()
    assert md.startswith("**kscope compare**: BASE `bench` vs NEW `bench`: 2 SLOWER")
    assert "| Annotation | Config | Metric |" in md
    c.to_csv(tmp_path / "c.csv")
    assert (tmp_path / "c.csv").read_text().startswith("Session,Annotation,Metric,Config,Unit,")
    c.to_json(tmp_path / "c.json")
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["kind"] == "kscope.comparison" and doc["regressed"] is True
    fig = c.plot(tmp_path / "c.png")
    assert (tmp_path / "c.png").stat().st_size > 0
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "fake n=2 gpu__time_duration.sum", "fake n=1 gpu__time_duration.sum"]  # fmt: skip
    dashed = sorted(line.get_xdata()[0] for line in ax.lines if line.get_linestyle() == "--")
    assert dashed == pytest.approx([0.95, 1.05])


def test_declared_directions(fake_engine):
    base, new = sweep(fake_engine, 1.0), sweep(fake_engine, 1.2)
    c = kscope.compare(base, new, higher_is_better=["gpu__time_duration.sum"])
    assert c.verdicts == ["FASTER", "FASTER"]


def test_three_runs_a_side_thirty_percent_slower_is_slower_and_fails_the_threshold(fake_engine):
    c = kscope.compare(sweep(fake_engine, 1.0, runs=3), sweep(fake_engine, 1.3, runs=3),
                       threshold="5%")  # fmt: skip
    assert c.verdicts == ["SLOWER", "SLOWER"]
    assert c.to_dataframe()["Test"].tolist() == ["t", "t"]
    assert c.regressed


def test_a_change_within_the_noise_threshold_is_same_within_noise(fake_engine):
    base, new = sweep(fake_engine, 1.0), sweep(fake_engine, 1.2)
    c = kscope.compare(base, new, noise="25%")
    assert c.verdicts == ["SAME", "SAME"]
    assert c.to_dataframe()["WithinNoise"].tolist() == [True, True]
    assert "SAME (within noise)" in str(c)
    assert "beyond the noise threshold of 25% with p < 0.05" in str(c)
    assert kscope.compare(base, new, noise=0.25).verdicts == ["SAME", "SAME"]


def test_filters_pick_rows(fake_engine):
    base, new = sweep(fake_engine, 1.0), sweep(fake_engine, 1.2)
    c = kscope.compare(base, new, annotations=["fa*"], metrics=["gpu__time_duration.sum"],
                       configs=["n=2"])  # fmt: skip
    assert c.to_dataframe()["Config"].tolist() == ["n=2"]
    with pytest.raises(InvalidArgumentError, match=r"^config filter 'n=3' matches no config of "
                       r"BASE or NEW \(their values of 'n': 1, 2\)\.$"):  # fmt: skip
        kscope.compare(base, new, configs=["n=3"])
    with pytest.raises(TypeError, match=r"^compare\(\): metrics takes a list of names, got the "
                       r"string 'gpu'$"):  # fmt: skip
        kscope.compare(base, new, metrics="gpu")


def test_two_directories_join_by_session_name(fake_engine, tmp_path):
    for side, scale in (("a", 1.0), ("b", 1.2)):
        (tmp_path / side).mkdir()
        sweep(fake_engine, scale).to_json(tmp_path / side / "bench.json")
    c = kscope.compare(tmp_path / "a", tmp_path / "b", threshold="5%")
    df = c.to_dataframe()
    assert df["Session"].tolist() == ["bench", "bench"]
    assert c.verdicts == ["SLOWER", "SLOWER"] and c.regressed
    assert str(c).splitlines()[1].startswith("Session  Annotation  Config")
    with pytest.raises(InvalidArgumentError, match=r"^BASE and NEW must both be result files or "
                       r"both be directories: '.*a' is a directory, '.*bench\.json' is not$"):
        kscope.compare(tmp_path / "a", tmp_path / "b" / "bench.json")


def test_bad_arguments_are_named(fake_engine):
    base = sweep(fake_engine, 1.0)
    with pytest.raises(InvalidArgumentError, match=r"^Invalid threshold 'fast'\. Expected a "
                       r"percentage such as 5% or a fraction such as 0\.05\.$"):  # fmt: skip
        kscope.compare(base, base, threshold="fast")
    # A bare number is a fraction: threshold=5 would be 500 %.
    for five in (5, 5.0, "5"):
        with pytest.raises(InvalidArgumentError, match=r"^Invalid threshold '5': a bare number is "
                           r"a fraction of BASE, so 5 is 500%; did you mean 5%\?$"):  # fmt: skip
            kscope.compare(base, base, threshold=five)
    with pytest.raises(InvalidArgumentError, match=r"^Invalid threshold '': empty\. Expected"):
        kscope.compare(base, base, threshold="")
    with pytest.raises(InvalidArgumentError, match=r"^Invalid noise '-0\.01': negative\."):
        kscope.compare(base, base, noise=-0.01)
    with pytest.raises(InvalidArgumentError, match=r"^Invalid threshold 0\.5%: below the noise "
                       r"threshold of 1%, within which a change is SAME and never fails"):
        kscope.compare(base, base, threshold="0.5%")
    assert not kscope.compare(base, base, threshold="0.5%", noise="0.5%").regressed
    with pytest.raises(InvalidArgumentError, match=r"^Invalid alpha 2\. Expected a significance "
                       r"level between 0 and 1, e\.g\. 0\.05\.$"):  # fmt: skip
        kscope.compare(base, base, alpha=2)
    with pytest.raises(InvalidArgumentError, match=r"^Metric 'm' is declared both "
                       r"higher-is-better and lower-is-better; declare it once\.$"):  # fmt: skip
        kscope.compare(base, base, higher_is_better=["m"], lower_is_better=["m"])
    with pytest.raises(InvalidArgumentError, match=r"^Metric 'bandwith' declared higher-is-better "
                       r"is not a metric of BASE or NEW \(their metrics: "
                       r"gpu__time_duration\.sum\)\.$"):  # fmt: skip
        kscope.compare(base, base, higher_is_better=["bandwith"])
    with pytest.raises(TypeError, match=r"^compare\(\) takes ProfileResults or paths of saved "
                       r"results, got 5$"):  # fmt: skip
        kscope.compare(base, 5)  # type: ignore[arg-type]


def test_the_engines_t_quantile_is_reachable():
    from kscope._native import native

    assert native.student_t_quantile(0.975, 2) == pytest.approx(4.302653, abs=1e-6)
    assert native.student_t_quantile(0.975, 9) == pytest.approx(2.262157, abs=1e-6)
