"""Host overhead of kscope's Python loop per run (GPU; prints the numbers, run with -s).

2000 runs of an annotated region launching one tiny kernel, wall time per run, minus the same
loop without kscope (the body plus the device synchronisation kscope does after every run).
"""

from __future__ import annotations

import time

import pytest

import kscope

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
RUNS = 2000


def test_host_overhead_per_run():
    torch = pytest.importorskip("torch")
    a = torch.ones(256, device="cuda")

    def body():
        with kscope.annotate("tiny"):
            torch.neg(a)

    def bare():
        torch.neg(a)

    for _ in range(100):
        bare()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(RUNS):
        bare()
        torch.cuda.synchronize()
    baseline = (time.perf_counter() - start) / RUNS

    @kscope.analyze.kernel(runs=RUNS, cache_control="none", thermal_mode="off",
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def tiny():
        body()

    start = time.perf_counter()
    df = tiny().to_dataframe()
    with_kscope = (time.perf_counter() - start) / RUNS
    overhead_us = (with_kscope - baseline) * 1e6
    print(f"\n[kscope] host overhead per run: {overhead_us:.1f} us "
          f"(with kscope {with_kscope * 1e6:.1f} us, bare loop {baseline * 1e6:.1f} us, "
          f"{RUNS} runs; kernel {df['AvgValue'][0]:.0f} ns)")  # fmt: skip
    assert df["NumRuns"][0] == RUNS
    assert overhead_us < 1000, "more than 1 ms of host overhead per run"
