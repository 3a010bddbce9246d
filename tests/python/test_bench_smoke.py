"""The benchmark driver's smoke mode, so the harness in bench/ cannot rot (runs in CI)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUILD = Path(os.environ.get("KSCOPE_BUILD_DIR", ROOT / "build"))


def test_smoke_mode_runs_and_reports(tmp_path: Path) -> None:
    if not (BUILD / "bench" / "kscope_bench_kernels").exists():
        pytest.skip(f"bench targets not built in {BUILD} (set KSCOPE_BUILD_DIR)")
    proc = subprocess.run(
        [sys.executable, "bench/run_bench.py", "--smoke", "--no-build", "--build", str(BUILD),
         "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr
    assert "| section | figure | unit | n | median | min–max |" in proc.stdout
    for name in ("raw.json", "figures.csv", "entry.md"):
        assert (tmp_path / name).exists()
    assert "| 8 CLI start-up | kscope show --help: the console script | ms | 5 |" in proc.stdout
    if "skipped the GPU parts" in proc.stdout:
        assert "no CUDA device" in proc.stdout
        assert "synthetic samples (no GPU)" in proc.stdout
        # The compare gate's analysis on synthetic sweeps: no A/A verdict in 3 pairs.
        assert ("| 0 smoke | synthetic compare gate (no GPU): A/A rows with a verdict at noise 1 % "
                "| rows | 3 | 0 | 0–0 |") in proc.stdout
    else:  # a GPU is there: the smoke sizes measured something real
        assert "1 timing overhead" in proc.stdout and "2 accuracy" in proc.stdout


def test_an_unknown_part_stops_the_driver_before_any_work(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "bench/run_bench.py", "--smoke", "--no-build", "--build", str(BUILD),
         "--out", str(tmp_path), "--parts", "metrics,timing"],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode != 0
    assert "unknown part(s) timing; the parts are timing_overhead, accuracy" in proc.stderr
    assert not (tmp_path / "entry.md").exists()


def test_the_scale_part_finds_no_cost_growing_faster_than_the_runs(tmp_path: Path) -> None:
    # Issue 37: a quadratic step in the sweep, its files or the commands makes its figure's
    # growth exponent ~2 over 1,000..10,000 runs; the target is <= 1.5 at these sizes.
    if not (BUILD / "cli" / "kscope").exists():
        pytest.skip(f"the kscope executable is not built in {BUILD} (set KSCOPE_BUILD_DIR)")
    proc = subprocess.run(
        [sys.executable, "bench/run_bench.py", "--smoke", "--no-build", "--build", str(BUILD),
         "--out", str(tmp_path), "--parts", "scale"],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    with open(tmp_path / "figures.csv", newline="") as f:
        exponents = {row["figure"]: row["verdict"] for row in csv.DictReader(f)
                     if row["section"] == "11 scale (device-free)" and "growth exponent" in row["figure"]}  # fmt: skip
    assert len(exponents) == 24, proc.stdout
    assert {name for name, verdict in exponents.items() if verdict != "meets"} == set(), proc.stdout
