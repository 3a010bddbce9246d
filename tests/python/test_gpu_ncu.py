"""The ncu tool from Python: a script re-run under Nsight Compute (GPU and ncu needed).

Runs in a subprocess because the ncu tool re-executes the whole program: under pytest that
would re-run the test session."""

from __future__ import annotations

import textwrap

import pytest
from script_runner import describe, run_script, skip_without_ncu

pytestmark = pytest.mark.gpu

SCRIPT = textwrap.dedent(
    """
    import os
    PREFIX = os.environ.get("KSCOPE_TEST_PREFIX", "kscope_out")
    import torch
    import kscope

    # Report, log and child report next to the script, where the test looks on failure.
    @kscope.analyze.kernel(configs=[(1 << 20,), (1 << 22,)], runs=2, tool="ncu",
                           metrics=["gpu__time_duration.sum", "dram__bytes_read.sum"],
                           verbosity=kscope.VerbosityLevel.DEBUG,
                           output_prefix=os.path.join(os.getcwd(), PREFIX, ""))
    def vadd(n):
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        with kscope.annotate("add"):
            torch.add(a, b)

    df = vadd().to_dataframe()
    assert (df["AvgValue"] > 0).all(), df
    print("ROWS", len(df), sorted(set(df["Metric"])), sorted(set(df["Unit"])))
    """
)


@pytest.mark.parametrize("prefix", ["kscope_out", "out_100%_%p"])
def test_ncu_tool_from_a_python_script(tmp_path, prefix):
    # A % in the output prefix reaches ncu's -o and --log-file as %% (ncu expands %p, %h, ...).
    skip_without_ncu()
    pytest.importorskip("torch")
    done = run_script(tmp_path, "ncu_script.py", SCRIPT, env={"KSCOPE_TEST_PREFIX": prefix})
    assert list((tmp_path / prefix).glob("ncu-output-*.ncu-rep")), describe(done, tmp_path)
    # Base units whatever ncu prints by default ("us", "Mbyte" on ncu 2025.3).
    expected = "ROWS 4 ['dram__bytes_read.sum', 'gpu__time_duration.sum'] ['byte', 'ns']"
    assert expected in done.stdout, describe(done, tmp_path)
