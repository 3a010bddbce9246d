"""Experiment (not a test): does a process's later sweep read its short kernels as its first did?

    PYTHONPATH=python python3 bench/probes/sweep_order_probe.py MODE   # twice, time, time_none, torch

One process: a sweep of torch.cuda._sleep spins of 1, 2, 5 and 10 us (30 runs, cache_control
"all"), then, by MODE, nothing (twice), kscope.time calls of the same spins (time; time_none: with
cache_control "none") or 5 s of plain torch work (torch), then the same sweep twice more. Prints
one JSON line: each sweep's mean per duration, ns. Run it in several fresh processes per mode.

On the H200 (2026-12-04, 10 processes): the first sweeps read the same in every process (1 us
1601-1617 ns, 10 us 10530-10539), the later ones moved by up to 75 ns either way (1 us
1527-1619, 10 us 10530-10628), in every mode, also with the L2 flush buffer kept for the process;
with the same history before them (mode twice) the second sweeps of three processes agreed again
(1527-1540 ns at 1 us). bench/compare_gate.py therefore measures one sweep per process.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Literal

import kscope

DURATIONS_US = (1, 2, 5, 10)
CYCLES_PER_US = 1980


def sweep() -> dict[int, float]:
    """The spins' means, ns, by duration."""
    import torch

    @kscope.analyze.kernel(configs=[(d,) for d in DURATIONS_US], runs=30,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def spins(d_us: int) -> None:
        with kscope.annotate("spin"):
            torch.cuda._sleep(d_us * CYCLES_PER_US)

    table = spins().to_dataframe()
    return {int(r["d_us"]): round(float(r["AvgValue"]), 1) for _, r in table.iterrows()}


def between(mode: str) -> None:
    """What runs between the first sweep and the others."""
    import torch

    if mode in ("time", "time_none"):
        cache: Literal["all", "none"] = "all" if mode == "time" else "none"
        for d in DURATIONS_US:
            for _ in range(2):
                kscope.time(lambda: torch.cuda._sleep(d * CYCLES_PER_US), target_rel_ci=0.001,
                            time_budget=2.0, cache_control=cache)  # fmt: skip
    elif mode == "torch":
        x = torch.ones(1 << 20, device="cuda")
        t0 = time.time()
        while time.time() - t0 < 5:
            torch.cuda._sleep(10 * CYCLES_PER_US)
            x + x
        torch.cuda.synchronize()
    elif mode != "twice":
        raise SystemExit(f"unknown mode {mode!r}: twice, time, time_none or torch")


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "twice"
    out = {"mode": mode, "first": sweep()}
    between(mode)
    out["second"] = sweep()
    out["third"] = sweep()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
