"""GPU (H200): runs="auto" stops at the target on a stable kernel and runs to max_runs on a
noisy one; kscope.compare and `kscope compare` on two results of the same sweep, one with a
deliberately slowed kernel, name exactly the slowed rows SLOWER beyond the threshold and fail it.

    PYTHONPATH=python python3 -m pytest tests/python/test_gpu_adaptive_compare.py -s -rs
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import kscope

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
SILENT = kscope.VerbosityLevel.SILENT


def test_auto_stops_at_the_target_on_a_stable_kernel_and_at_max_runs_on_a_noisy_one(tmp_path):
    torch = pytest.importorskip("torch")
    a = torch.ones(4 << 20, device="cuda")
    rng = random.Random(7)

    @kscope.analyze.kernel(configs=[("stable",), ("noisy",)], runs="auto", max_runs=200,
                           time_budget=30, cache_control="none", thermal_mode="off",
                           verbosity=SILENT, output_prefix=str(tmp_path) + "/")  # fmt: skip
    def sweep(kind):
        with kscope.annotate("k"):
            if kind == "stable":
                a + a  # ~12 us, ~0.3 % noise
            else:
                torch.cuda._sleep(rng.choice([2_000, 200_000]))  # 1 us or 100 us at random

    results = sweep()
    stops = results.stops()
    print(stops.to_string())
    assert stops["StopReason"].tolist() == ["target", "max_runs"]
    assert stops["Runs"].iloc[0] <= 200 and stops["RelCI95"].iloc[0] <= 0.005
    assert stops["Runs"].iloc[1] == 200
    assert results.to_dataframe()["StopReason"].tolist() == ["target", "max_runs"]


def _sweep(tmp_path, name, slow_annotation):
    torch = pytest.importorskip("torch")
    a = torch.ones(8 << 20, device="cuda")
    b = torch.ones(8 << 20, device="cuda")
    grow = 2 if slow_annotation == "mul" else 1  # the slowed variant multiplies twice the floats

    # cache_control "all": each region starts cold, so "add" does not see what the bigger "mul"
    # of the previous run left in the L2 (with "none", add at 4M floats read 15 % slower).
    @kscope.analyze.kernel(configs=[(1 << 20,), (4 << 20,)], runs=30, cache_control="all",
                           thermal_mode="off", verbosity=SILENT,
                           output_prefix=str(tmp_path / name) + "/")  # fmt: skip
    def sweep(n):
        with kscope.annotate("add"):
            a[:n] + b[:n]
        with kscope.annotate("mul"):
            a[: grow * n] * b[: grow * n]

    results = sweep()
    path = tmp_path / f"{name}.json"
    results.to_json(path)
    return path


def test_compare_names_exactly_the_slowed_rows_slower_beyond_the_threshold(tmp_path):
    base = _sweep(tmp_path, "base", None)
    new = _sweep(tmp_path, "new", "mul")
    c = kscope.compare(base, new, threshold="5%")
    print(c)
    df = c.to_dataframe()
    mul = df[df["Annotation"] == "mul"]
    add = df[df["Annotation"] == "add"]
    assert mul["Verdict"].tolist() == ["SLOWER", "SLOWER"]  # both configs of "mul"
    assert mul["BeyondThreshold"].astype(bool).tolist() == [True, True]
    # "add" is the same kernel in both sweeps, yet two sweeps can differ by about a percent
    # beyond their runs' noise (H200, 2026-12-02: add at 1M floats 4,147 against 4,096 ns,
    # p = 0.005), which compare calls FASTER or SLOWER when it is beyond the 1 % noise
    # threshold. The threshold is what tells a regression from that: no "add" row may cross it.
    assert add["BeyondThreshold"].astype(bool).tolist() == [False, False]
    assert ((add["Ratio"] - 1).abs() < 0.05).all()
    assert c.regressed
    done = subprocess.run([sys.executable, "-m", "kscope", "compare", str(base), str(new),
                           "--threshold", "5%"], capture_output=True, text=True)  # fmt: skip
    print(done.stdout)
    assert done.returncode == 3, done.stderr
    assert done.stdout.count("SLOWER (beyond threshold)") == 2
