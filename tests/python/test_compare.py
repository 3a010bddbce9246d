"""kscope.compare on results of the fake engine: verdicts, the DataFrame's columns, markdown,
CSV/JSON, the ratio plot, threshold texts and errors (class and text)."""

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


def test_bad_arguments_are_named(fake_engine):
    base = sweep(fake_engine, 1.0)
    with pytest.raises(InvalidArgumentError, match=r"^Invalid threshold 'fast'\. Expected a "
                       r"percentage such as 5% or a fraction such as 0\.05\.$"):  # fmt: skip
        kscope.compare(base, base, threshold="fast")
    with pytest.raises(InvalidArgumentError, match=r"^Invalid alpha 2\. Expected a significance "
                       r"level between 0 and 1, e\.g\. 0\.05\.$"):  # fmt: skip
        kscope.compare(base, base, alpha=2)
    with pytest.raises(InvalidArgumentError, match=r"^Metric 'm' is declared both "
                       r"higher-is-better and lower-is-better; declare it once\.$"):  # fmt: skip
        kscope.compare(base, base, higher_is_better=["m"], lower_is_better=["m"])
    with pytest.raises(TypeError, match=r"^compare\(\) takes ProfileResults or paths of saved "
                       r"results, got 5$"):  # fmt: skip
        kscope.compare(base, 5)  # type: ignore[arg-type]


def test_the_engines_t_quantile_is_reachable():
    from kscope._native import native

    assert native.student_t_quantile(0.975, 2) == pytest.approx(4.302653, abs=1e-6)
    assert native.student_t_quantile(0.975, 9) == pytest.approx(2.262157, abs=1e-6)
