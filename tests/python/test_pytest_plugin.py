"""kscope.pytest_plugin with pytester and the fake engine: results saved per test, compared
with --kscope-compare, a regression beyond --kscope-fail fails the test, usage errors."""

from __future__ import annotations

import os

import pytest

from kscope.pytest_plugin import result_file

pytest_plugins = ["pytester"]

CONFTEST = """
import os
import pytest
from fake_engine import FakeEngine
from kscope._native import native

@pytest.fixture(autouse=True)
def _fake(monkeypatch, tmp_path):
    engine = FakeEngine(str(tmp_path))
    engine.scale = float(os.environ.get("KSCOPE_FAKE_SCALE", "1"))
    monkeypatch.setattr(native, "profile", engine.profile)
"""

BENCH = """
import kscope

def vadd(n):
    with kscope.annotate("fake"):
        pass

def test_vadd(kscope_benchmark):
    results = kscope_benchmark(vadd, 1024, runs=10)
    assert len(results.to_dataframe()) == 1
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_bench=BENCH)
    return pytester


def run(suite: pytest.Pytester, *args: str, scale: float = 1.0) -> pytest.RunResult:
    os.environ["KSCOPE_FAKE_SCALE"] = str(scale)
    try:
        # In-process runs import the plugin once; pytest then warns that it cannot rewrite it.
        return suite.runpytest("-p", "kscope.pytest_plugin",
                               "-W", "ignore::pytest.PytestAssertRewriteWarning", *args)
    finally:
        del os.environ["KSCOPE_FAKE_SCALE"]


def test_results_are_saved_per_test(suite: pytest.Pytester) -> None:
    base = suite.path / "base"
    run(suite, f"--kscope-dir={base}").assert_outcomes(passed=1)
    assert os.path.exists(result_file(str(base), "test_bench.py::test_vadd", None))
    assert result_file("d", "test_bench.py::test_vadd[1-2]", "fp16") == os.path.join(
        "d", "test_bench.py__test_vadd_1-2_-fp16.json"
    )


def test_a_regression_beyond_the_threshold_fails(suite: pytest.Pytester) -> None:
    base = suite.path / "base"
    run(suite, f"--kscope-dir={base}").assert_outcomes(passed=1)
    done = run(suite, f"--kscope-dir={suite.path / 'new'}", f"--kscope-compare={base}",
               "--kscope-fail=5%", scale=1.2)  # fmt: skip
    done.assert_outcomes(failed=1)
    out = done.stdout.str()
    assert "kscope: slower than" in out and "beyond 5%" in out
    assert "**SLOWER (beyond threshold)**" in out
    assert "+20.0%" in out


def test_within_the_threshold_passes_and_the_comparison_is_printed(suite: pytest.Pytester) -> None:
    base = suite.path / "base"
    run(suite, f"--kscope-dir={base}").assert_outcomes(passed=1)
    done = run(suite, f"--kscope-dir={suite.path / 'new'}", f"--kscope-compare={base}",
               "--kscope-fail=25%", scale=1.2)  # fmt: skip
    done.assert_outcomes(passed=1)
    out = done.stdout.str()
    assert "kscope compare" in out
    assert "1 SLOWER; nothing SLOWER beyond the threshold of 25%" in out


def test_a_missing_base_file_warns(suite: pytest.Pytester) -> None:
    done = run(suite, f"--kscope-dir={suite.path / 'new'}",
               f"--kscope-compare={suite.path / 'nothing'}")  # fmt: skip
    done.assert_outcomes(passed=1, warnings=1)
    assert "kscope: no result to compare with:" in done.stdout.str()


def test_fail_without_compare_is_a_usage_error(suite: pytest.Pytester) -> None:
    done = run(suite, "--kscope-fail=5%")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert "--kscope-fail needs --kscope-compare=BASE" in done.stderr.str()


def test_a_bad_threshold_is_a_usage_error(suite: pytest.Pytester) -> None:
    done = run(suite, "--kscope-compare=x", "--kscope-fail=fast")
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    assert ("--kscope-fail: Invalid threshold 'fast'. Expected a percentage such as 5% or a "
            "fraction such as 0.05.") in done.stderr.str()  # fmt: skip
