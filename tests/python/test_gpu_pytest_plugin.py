"""GPU: the pytest plugin on a small torch benchmark suite, run twice in fresh pytest processes
with --kscope-autosave, the second comparing with the first (--kscope-compare, --kscope-fail):
the numbered runs and their files, the summary table with every row's ratio and verdict, and
--kscope-disable running the same suite unmeasured.

    PYTHONPATH=python python3 -m pytest tests/python/test_gpu_pytest_plugin.py -s -rs
"""

from __future__ import annotations

import os
import re

import pytest

import kscope
from kscope.pytest_plugin import result_file, saved_runs
from test_pytest_plugin import section

pytestmark = pytest.mark.gpu
pytest_plugins = ["pytester"]

# Where this process imported kscope from (the checkout's python/, or an installed wheel's
# site-packages): the suites' processes import the same.
KSCOPE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(kscope.__file__)))

CONFTEST = """
import pytest
import torch

@pytest.fixture(scope="session", autouse=True)
def _cuda():
    # CUDA initialised by torch before the first benchmark, as the gpu_warmup fixture does.
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()
"""

SUITE = """
import kscope
import torch

def vadd(n):
    a = torch.ones(n, device="cuda")
    b = torch.ones(n, device="cuda")
    with kscope.annotate("add"):
        a + b

def test_vadd(kscope_benchmark):
    results = kscope_benchmark(vadd, configs=[(1 << 20,), (1 << 24,)], runs=20)
    if results is not None:  # None under --kscope-disable
        df = results.to_dataframe()
        assert (df["NumRuns"] == 20).all() and (df["AvgValue"] > 0).all()

def test_matmul(kscope_benchmark):
    def mm(n):
        a = torch.randn(n, n, device="cuda")
        b = torch.randn(n, n, device="cuda")
        with kscope.annotate("mm"):
            a @ b
    kscope_benchmark(mm, 1024, runs=20, name="fp32")
"""

VERDICT = r"(FASTER|SLOWER|SAME|UNSURE)"


def test_a_suite_run_twice_compares_the_second_run_with_the_first(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_suite=SUITE)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in [KSCOPE_PARENT, os.environ.get("PYTHONPATH", "")] if p))  # fmt: skip
    monkeypatch.setenv("COLUMNS", "200")  # the one-line table
    args = ["-p", "kscope.pytest_plugin", "-rs", "--kscope-autosave"]

    first = pytester.runpytest_subprocess(*args, timeout=300)
    print(first.stdout.str())
    first.assert_outcomes(passed=2)
    (run1,) = saved_runs(".kscope")
    for nodeid, name in [("test_suite.py::test_vadd", None),
                         ("test_suite.py::test_matmul", "fp32")]:  # fmt: skip
        assert os.path.exists(result_file(run1.path, nodeid, name))
    lines = section(first)
    assert lines[0] == f"saved in {run1.path}"
    rows = [line for line in lines if re.match(r"  (add|mm)  ", line)]
    assert len(rows) == 3, lines  # vadd's two configs, matmul's one

    # The same code again, compared with the first run: every row has a ratio near 1 and a
    # verdict; a 50 % threshold fails only a real regression, not the GPU's noise.
    second = pytester.runpytest_subprocess(*args, "--kscope-compare", "--kscope-fail=50%",
                                           timeout=300)  # fmt: skip
    print(second.stdout.str())
    second.assert_outcomes(passed=2)
    run1_again, run2 = saved_runs(".kscope")
    assert run1_again == run1 and run2.number == 2
    lines = section(second)
    assert lines[:2] == [f"saved in {run2.path}", f"compared with {run1.path}"]
    assert lines[2].rstrip().endswith("Ratio  Verdict")
    rows = [line for line in lines if re.match(r"  (add|mm)  ", line)]
    assert len(rows) == 3, lines
    for row in rows:
        match = re.search(r"  (\d+\.\d{3})  " + VERDICT + "$", row)
        assert match, row
        assert 0.5 < float(match.group(1)) < 2.0, row

    # --kscope-disable: the same suite runs unmeasured and saves no third run.
    disabled = pytester.runpytest_subprocess("-p", "kscope.pytest_plugin", "--kscope-disable",
                                             timeout=300)  # fmt: skip
    disabled.assert_outcomes(passed=2)
    assert section(disabled) == [
        "--kscope-disable: 2 benchmark(s) ran once per config, unmeasured; nothing was saved or "
        "compared"]  # fmt: skip
    assert len(saved_runs(".kscope")) == 2
