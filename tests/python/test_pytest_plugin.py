"""kscope.pytest_plugin with pytester and the fake engine: results saved per test, a numbered
history of runs (--kscope-autosave, --kscope-save) that --kscope-compare finds by number, name,
directory or as the latest, a regression beyond --kscope-fail fails the test, the summary table
(wide and narrow), --kscope-disable, the skip without a device and the failure when the device
goes away, and every usage error's text."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import kscope
from kscope.pytest_plugin import autosave_name, result_file, saved_runs

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

# A benchmark function for the suites below.
VADD = """
import kscope

def vadd(n):
    with kscope.annotate("fake"):
        pass
"""

BENCH = VADD + """
def test_vadd(kscope_benchmark):
    results = kscope_benchmark(vadd, 1024, runs=10)
    assert len(results.to_dataframe()) == 1
"""

TEST_VADD = "test_bench.py::test_vadd"
# The fake engine's runs of config 0 are 100, 101, ..., 109 ns (times the scale): mean 104.5,
# RSD 2.9 %, CI95 half-width t(0.975, 9) * 3.03 / sqrt(10) = 2.17 ns, 2.1 % of the mean.
HEADER = "  Annotation  Config  Metric                      Mean   CI95   RSD  Runs"
ROW = "  fake        n=1024  gpu__time_duration.sum  104.5 ns  ±2.1%  2.9%    10"


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_bench=BENCH)
    monkeypatch.setenv("COLUMNS", "200")
    return pytester


def run(suite: pytest.Pytester, *args: str, scale: float = 1.0) -> pytest.RunResult:
    os.environ["KSCOPE_FAKE_SCALE"] = str(scale)
    try:
        # In-process runs import the plugin once; pytest then warns that it cannot rewrite it.
        return suite.runpytest("-p", "kscope.pytest_plugin",
                               "-W", "ignore::pytest.PytestAssertRewriteWarning", *args)
    finally:
        del os.environ["KSCOPE_FAKE_SCALE"]


def section(done: pytest.RunResult) -> list[str]:
    """The lines of the "kscope benchmarks" section, up to pytest's last line (without the
    blank line pytest may put before it)."""
    lines = done.stdout.lines
    start = next(i for i, line in enumerate(lines) if " kscope benchmarks " in line)
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("===="))
    return [line for line in lines[start + 1 : end] if line]


def usage_error(done: pytest.RunResult) -> str:
    assert done.ret == pytest.ExitCode.USAGE_ERROR
    return done.stderr.str()


# ---------------------------------------------------------------------------------------------
# Saving and comparing with a directory (--kscope-dir, --kscope-compare=DIR)


def test_results_are_saved_per_test_and_listed_at_the_end(suite: pytest.Pytester) -> None:
    base = suite.path / "base"
    done = run(suite, f"--kscope-dir={base}")
    done.assert_outcomes(passed=1)
    assert os.path.exists(result_file(str(base), TEST_VADD, None))
    assert saved_runs(str(base)) == []  # no run directory without --kscope-autosave / --kscope-save
    assert section(done) == [f"saved in {base}", HEADER, TEST_VADD, ROW]
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
    assert section(done)[-1].endswith("1.200  SLOWER (beyond threshold)")


def test_within_the_threshold_passes_with_ratio_and_verdict_in_the_table(
    suite: pytest.Pytester,
) -> None:
    base = suite.path / "base"
    run(suite, f"--kscope-dir={base}").assert_outcomes(passed=1)
    done = run(suite, f"--kscope-dir={suite.path / 'new'}", f"--kscope-compare={base}",
               "--kscope-fail=25%", scale=1.2)  # fmt: skip
    done.assert_outcomes(passed=1)
    assert section(done) == [
        f"saved in {suite.path / 'new'}",
        f"compared with {base}",
        HEADER + "  Ratio  Verdict",
        TEST_VADD,
        "  fake        n=1024  gpu__time_duration.sum  125.4 ns  ±2.1%  2.9%    10  1.200  SLOWER",
    ]
    assert "1 SLOWER; nothing SLOWER beyond the threshold of 25%" not in done.stdout.str()
    verbose = run(suite, f"--kscope-dir={suite.path / 'new'}", f"--kscope-compare={base}",
                  "--kscope-fail=25%", "-v", scale=1.2)  # fmt: skip
    assert "1 SLOWER; nothing SLOWER beyond the threshold of 25%" in verbose.stdout.str()


def test_a_benchmark_the_baseline_lacks_warns(suite: pytest.Pytester) -> None:
    empty = suite.mkdir("empty")
    done = run(suite, f"--kscope-dir={suite.path / 'new'}", f"--kscope-compare={empty}")
    done.assert_outcomes(passed=1, warnings=1)
    missing = result_file(str(empty), TEST_VADD, None)
    assert f"kscope: no result to compare with: '{missing}' does not exist" in done.stdout.str()


def test_the_narrow_table_puts_each_row_on_lines_of_its_own(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = suite.path / "base"
    run(suite, f"--kscope-dir={base}").assert_outcomes(passed=1)
    monkeypatch.setenv("COLUMNS", "60")
    done = run(suite, f"--kscope-dir={base}", f"--kscope-compare={base}")
    lines = section(done)
    assert lines[2:] == [
        TEST_VADD,
        "  fake  n=1024  gpu__time_duration.sum",
        "    mean 104.5 ns  CI95 ±2.1%  RSD 2.9%  runs 10",
        "    ratio 1.000  SAME",
    ]
    assert all(len(line) <= 60 for line in lines[2:])


# ---------------------------------------------------------------------------------------------
# The history: --kscope-autosave, --kscope-save, --kscope-compare[=RUN]


def test_autosave_keeps_numbered_runs_and_compare_takes_the_latest(suite: pytest.Pytester) -> None:
    storage = ".kscope"  # relative, as the option's default (pytester runs in suite.path)
    run(suite, "--kscope-autosave").assert_outcomes(passed=1)
    (first,) = saved_runs(storage)
    assert first.number == 1 and re.fullmatch(r"\d{8}_\d{6}", first.name)  # no git here
    assert os.path.exists(result_file(first.path, TEST_VADD, None))
    assert not os.path.exists(result_file(storage, TEST_VADD, None))

    done = run(suite, "--kscope-autosave", "--kscope-compare", "--kscope-fail=25%", scale=1.2)
    done.assert_outcomes(passed=1)
    second = saved_runs(storage)[1]
    assert second.number == 2 and os.path.basename(second.path).startswith("0002_")
    lines = section(done)
    assert lines[:2] == [f"saved in {second.path}", f"compared with {first.path}"]
    assert lines[-1].endswith("125.4 ns  ±2.1%  2.9%    10  1.200  SLOWER")

    # The latest is now the second run: the same values again are SAME.
    third = run(suite, "--kscope-compare", scale=1.2)
    assert section(third)[1] == f"compared with {second.path}"
    assert section(third)[-1].endswith("1.000  SAME")


def test_a_saved_run_is_found_by_number_name_start_or_directory(suite: pytest.Pytester) -> None:
    run(suite, "--kscope-save=before-fix").assert_outcomes(passed=1)
    run(suite, "--kscope-save=after-fix", scale=1.2).assert_outcomes(passed=1)
    first, second = saved_runs(".kscope")
    assert (os.path.basename(first.path), os.path.basename(second.path)) == (
        "0001_before-fix", "0002_after-fix")  # fmt: skip
    for value, expected in [("1", first), ("0002", second), ("before-fix", first),
                            ("after", second), ("0001_before-fix", first),
                            (first.path, first)]:  # fmt: skip
        done = run(suite, f"--kscope-compare={value}", scale=1.2)
        assert section(done)[1] == f"compared with {expected.path}", value
    # Two runs of one name: the later one.
    run(suite, "--kscope-save=before-fix").assert_outcomes(passed=1)
    done = run(suite, "--kscope-compare=before-fix")
    assert section(done)[1] == f"compared with {os.path.join('.kscope', '0003_before-fix')}"


def test_the_autosave_name_is_the_commit_and_the_time(tmp_path: Path) -> None:
    assert re.fullmatch(r"\d{8}_\d{6}", autosave_name(str(tmp_path)))
    git = ["git", "-c", "user.name=k", "-c", "user.email=k@example.com"]
    try:
        subprocess.run(git + ["init", "-q"], cwd=tmp_path, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"no usable git: {e}")
    (tmp_path / "f.txt").write_text("1")
    subprocess.run(git + ["add", "f.txt"], cwd=tmp_path, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "one"], cwd=tmp_path, check=True)
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=tmp_path,
                            check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip
    assert re.fullmatch(re.escape(commit) + r"_\d{8}_\d{6}", autosave_name(str(tmp_path)))
    (tmp_path / "untracked.txt").write_text("not part of the commit, and not a change of it")
    assert not autosave_name(str(tmp_path)).endswith("_uncommitted-changes")
    (tmp_path / "f.txt").write_text("2")
    assert re.fullmatch(re.escape(commit) + r"_\d{8}_\d{6}_uncommitted-changes",
                        autosave_name(str(tmp_path)))  # fmt: skip


def test_compare_with_no_saved_run_is_a_usage_error(suite: pytest.Pytester) -> None:
    assert ("ERROR: --kscope-compare: no saved run in '.kscope' to compare with; save one first "
            "with --kscope-autosave or --kscope-save=NAME"
            ) in usage_error(run(suite, "--kscope-compare"))  # fmt: skip


def test_compare_with_an_unknown_run_is_a_usage_error_listing_the_saved_ones(
    suite: pytest.Pytester,
) -> None:
    assert ("--kscope-compare=7: no run numbered 0007 in '.kscope' (saved runs: none)"
            in usage_error(run(suite, "--kscope-compare=7")))  # fmt: skip
    for name in ("a", "b", "c", "d", "e", "f"):
        run(suite, f"--kscope-save={name}").assert_outcomes(passed=1)
    assert ("--kscope-compare=0009: no run numbered 0009 in '.kscope' (saved runs: 0002_b, "
            "0003_c, 0004_d, 0005_e, 0006_f (the latest 5 of 6))"
            in usage_error(run(suite, "--kscope-compare=0009")))  # fmt: skip
    assert ("--kscope-compare=nothing: neither a directory nor the name of a run saved in "
            "'.kscope' (saved runs: 0002_b, 0003_c, 0004_d, 0005_e, 0006_f (the latest 5 of 6))"
            in usage_error(run(suite, "--kscope-compare=nothing")))  # fmt: skip
    assert ("--kscope-compare=: no run given; give a run number, a run name or a directory, or "
            "no value for the latest run") in usage_error(run(suite, "--kscope-compare="))


def test_a_bad_run_name_is_a_usage_error(suite: pytest.Pytester) -> None:
    assert ("--kscope-save=a/b: a run's name holds only letters, digits, '.', '-' and '_'"
            in usage_error(run(suite, "--kscope-save=a/b")))  # fmt: skip
    assert not (suite.path / ".kscope").exists()


def test_fail_without_compare_is_a_usage_error(suite: pytest.Pytester) -> None:
    assert ("--kscope-fail needs --kscope-compare[=RUN] (the results to compare with)"
            in usage_error(run(suite, "--kscope-fail=5%")))  # fmt: skip


@pytest.mark.parametrize(("option", "message"), [
    ("--kscope-fail=fast", "--kscope-fail: Invalid threshold 'fast'. Expected a percentage such as "
                           "5% or a fraction such as 0.05."),
    ("--kscope-fail=5", "--kscope-fail: Invalid threshold '5': a bare number is a fraction of "
                        "BASE, so 5 is 500%; did you mean 5%?"),
    ("--kscope-noise=2", "--kscope-noise: Invalid noise '2': a bare number is a fraction of BASE, "
                         "so 2 is 200%; did you mean 2%?"),
    ("--kscope-fail=0.5%", "--kscope-fail: Invalid threshold 0.5%: below the noise threshold of "
                           "1%, within which a change is SAME and never fails"),
])  # fmt: skip
def test_a_bad_threshold_or_noise_is_a_usage_error(suite: pytest.Pytester, option: str,
                                                   message: str) -> None:  # fmt: skip
    assert message in usage_error(run(suite, "--kscope-compare=x", option))


def test_a_change_within_the_noise_passes_the_threshold(suite: pytest.Pytester) -> None:
    base = suite.path / "base"
    run(suite, f"--kscope-dir={base}").assert_outcomes(passed=1)
    done = run(suite, f"--kscope-dir={suite.path / 'new'}", f"--kscope-compare={base}",
               "--kscope-noise=25%", "--kscope-fail=25%", scale=1.2)  # fmt: skip
    done.assert_outcomes(passed=1)
    assert section(done)[-1].endswith("1.200  SAME (within noise)")


def test_two_benchmarks_of_one_name_in_a_test_are_an_error(suite: pytest.Pytester) -> None:
    suite.makepyfile(test_twice=VADD + """
def test_twice(kscope_benchmark):
    kscope_benchmark(vadd, 1, runs=2, name="a")
    kscope_benchmark(vadd, 2, runs=2, name="a")
""")
    done = run(suite, "test_twice.py")
    done.assert_outcomes(failed=1)
    assert ("ValueError: kscope_benchmark: this test already ran a benchmark named 'a'; give "
            "each benchmark of a test its own name=") in done.stdout.str()


# ---------------------------------------------------------------------------------------------
# --kscope-disable


DISABLED = """
import kscope

calls = []

def vadd(n, dtype="f32"):
    calls.append((n, dtype))
    with kscope.annotate("fake"):
        pass

def test_sweep(kscope_benchmark):
    assert kscope_benchmark(vadd, configs=[1, 2], runs=10) is None
    assert kscope_benchmark.disabled
    assert calls == [(1, "f32"), (2, "f32")]

def test_bad_configs_still_fail(kscope_benchmark):
    kscope_benchmark(vadd, configs=[], runs=10)
"""


def test_disable_runs_each_config_once_unmeasured_and_saves_nothing(
    suite: pytest.Pytester,
) -> None:
    suite.makepyfile(test_bench=DISABLED)
    # --kscope-compare needs no history when nothing is measured.
    done = run(suite, "--kscope-disable", "--kscope-autosave", "--kscope-compare")
    done.assert_outcomes(passed=1, failed=1)
    assert "ConfigError: configs cannot be empty" in done.stdout.str()
    assert section(done) == [
        "--kscope-disable: 1 benchmark(s) ran once per config, unmeasured; nothing was saved or "
        "compared"]  # fmt: skip
    assert not (suite.path / ".kscope").exists()


# ---------------------------------------------------------------------------------------------
# No device: skipped; a device that goes away: failed; other errors: failed


NO_DEVICE = """
import pytest
from fake_engine import FakeEngine
from kscope._native import native
from kscope.exceptions import NoDeviceError

calls = []

@pytest.fixture(autouse=True)
def _device_for(monkeypatch, tmp_path):
    engine = FakeEngine(str(tmp_path))
    # The device answers for the first MEASURED sessions of the session only.
    def profile(*args):
        calls.append(1)
        if len(calls) > MEASURED:
            raise NoDeviceError("no CUDA device: the test took it away")
        return engine.profile(*args)
    monkeypatch.setattr(native, "profile", profile)

MEASURED = {measured}
"""

TWO = VADD + """
def test_a(kscope_benchmark):
    kscope_benchmark(vadd, 1, runs=2)

def test_b(kscope_benchmark):
    kscope_benchmark(vadd, 2, runs=2)
"""


def test_without_a_device_benchmarks_are_skipped_with_the_reason(suite: pytest.Pytester) -> None:
    suite.makeconftest(NO_DEVICE.format(measured=0))
    suite.makepyfile(test_bench=TWO)
    done = run(suite, "-rs")
    done.assert_outcomes(skipped=2)
    # Reported at the tests' lines, as a skip mark is.
    reason = "kscope: no CUDA device: the test took it away"
    done.stdout.fnmatch_lines([f"SKIPPED [[]1[]] test_bench.py:7: {reason}",
                               f"SKIPPED [[]1[]] test_bench.py:10: {reason}"])  # fmt: skip
    assert " kscope benchmarks " not in done.stdout.str()  # nothing measured, nothing listed


def test_a_device_that_goes_away_mid_suite_fails_the_test(suite: pytest.Pytester) -> None:
    suite.makeconftest(NO_DEVICE.format(measured=1))
    suite.makepyfile(test_bench=TWO)
    done = run(suite)
    done.assert_outcomes(passed=1, failed=1)
    assert ("kscope: the CUDA device that measured 1 earlier benchmark(s) of this session is "
            "gone: no CUDA device: the test took it away") in done.stdout.str()
    assert section(done)[-2:] == ["test_bench.py::test_a",
                                  "  fake        n=1     gpu__time_duration.sum  100.5 ns  ±6.3%  "
                                  "0.7%     2"]  # fmt: skip


def test_other_errors_of_the_benchmark_fail_the_test(suite: pytest.Pytester) -> None:
    suite.makepyfile(test_bench="""
import kscope

def broken(n):
    with kscope.annotate("fake"):
        raise KeyError("the kernel's own error")

def test_broken(kscope_benchmark):
    kscope_benchmark(broken, 1, runs=2)
""")
    done = run(suite)
    done.assert_outcomes(failed=1)
    assert "KeyError: \"the kernel's own error\"" in done.stdout.str()


@pytest.mark.skipif(kscope.device_available(), reason="this machine has a usable CUDA device")
def test_the_real_engine_without_a_device_skips_with_its_reason(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_bench=BENCH)
    done = pytester.runpytest("-p", "kscope.pytest_plugin", "-rs",
                              "-W", "ignore::pytest.PytestAssertRewriteWarning")  # fmt: skip
    done.assert_outcomes(skipped=1)
    reason = f"kscope: no CUDA device: {kscope.device_unavailable_reason()}"
    assert f"SKIPPED [1] test_bench.py:7: {reason}" in done.stdout.str()
