"""The compare gate's sweep (issue 36), measured in this process: spin kernels of 1 us to 10 ms.

    python3 bench/compare_gate.py --calibrate cycles.json [--factors 1.02,1.05]
    python3 bench/compare_gate.py --out DIR [--factor 1.02 --cycles cycles.json] [--runs 30]

Configs: 13 kernel durations d from 1 us to 10 ms. Every run enters three regions: "sleep"
(torch.cuda._sleep of d at a nominal 1.98 GHz: the cycles are the same in every process),
"changed" (the same spin, made --factor times as long: the A/B change) and "add" (torch a + b of
min(d x 2^18, 2^28) floats): 39 rows, in the session "gate", written to DIR/gate.json, which
`kscope compare DIR_A DIR_B` joins by name. Prints one JSON line, {"out": DIR, "rows": 39,
"wall_s": s, "cycles": {d: cycles}}, or {"skipped": why} without a GPU or torch.

The sweep is the process's only measurement. On the H200 the spins of 1-10 us read the same in
the first sweep of every process (within 0.5 %, ten processes), but a later sweep in the same
process moved them by up to 75 ns (-5 % at 1 us, +0.7 % at 10 us), whatever ran between the two
(nothing, kscope.time calls, plain torch work): so the calibration, which measures, runs in a
process of its own (2026-12-04).

A spin's duration is not proportional to its cycles: it has a fixed part of about 0.6 us, and
its timestamps step by 32 ns. So for every d under 200 us --calibrate measures, in one sweep
laid out as the gate's (each run: "sleep" of d, "changed" of a candidate, "add"), candidates
from d's cycles up to 12 % more in steps of 0.25 %, and picks for each factor the cycles where
the changed spin's mean over the sleep spin's crosses the factor (interpolated between the two
candidates around it). From 200 us the fixed part is under 0.5 % of d, and --factor times the
cycles is used.
bench/run_bench.py (part compare_gate) runs the calibration and then the sweeps in fresh
processes, and compares them with `kscope compare`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

import kscope  # noqa: E402
from gpu_script import skip_reason  # noqa: E402

#: The kernel durations, us.
DURATIONS_US = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
CYCLES_PER_US = 1980  # the H200's boost clock; only the same count in every process matters
MAX_FLOATS = 1 << 28
#: From this duration on, --factor times the cycles is --factor times the duration within 0.01 %.
CALIBRATE_BELOW_US = 200
#: --calibrate's candidates: d's cycles times 1 + k x CALIBRATION_STEP, k = 0..CALIBRATION_STEPS.
CALIBRATION_STEP = 0.0025
CALIBRATION_STEPS = 48


def calibrate(factors: list[float], runs: int) -> dict[str, Any]:
    """The "changed" spin's cycles of every duration under CALIBRATE_BELOW_US for each factor:
    {"cycles": {factor: {d: cycles}}, "reached": {factor: {d: measured ratio}}}."""
    import torch

    a = torch.ones(MAX_FLOATS, device="cuda")
    b = torch.ones(MAX_FLOATS, device="cuda")
    short = [d for d in DURATIONS_US if d < CALIBRATE_BELOW_US]
    steps = range(CALIBRATION_STEPS + 1)

    def candidate(d_us: int, k: int) -> int:
        return round(d_us * CYCLES_PER_US * (1 + k * CALIBRATION_STEP))

    @kscope.analyze.kernel(configs=[(d, k) for d in short for k in steps], runs=runs,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def calibration(d_us: int, k: int) -> None:
        run_regions(a, b, d_us, candidate(d_us, k))

    table = calibration().to_dataframe()
    mean = {(int(r["d_us"]), int(r["k"]), r["Annotation"]): float(r["AvgValue"])
            for _, r in table.iterrows()}  # fmt: skip
    cycles: dict[str, dict[int, int]] = {}
    reached: dict[str, dict[int, float]] = {}
    for factor in factors:
        cycles[str(factor)], reached[str(factor)] = {}, {}
        for d in short:
            ratio = [mean[(d, k, "changed")] / mean[(d, k, "sleep")] for k in steps]
            k = next((k for k in steps[1:] if ratio[k] >= factor), steps[-1])
            # between candidates k - 1 and k, where the ratio crosses the factor
            span = ratio[k] - ratio[k - 1]
            frac = min(1.0, max(0.0, (factor - ratio[k - 1]) / span)) if span > 0 else 1.0
            c = round(candidate(d, k - 1) + frac * (candidate(d, k) - candidate(d, k - 1)))
            cycles[str(factor)][d] = c
            reached[str(factor)][d] = ratio[k - 1] + frac * span
    return {"cycles": cycles, "reached": reached}


def run_regions(a: Any, b: Any, d_us: int, changed_cycles: int) -> None:
    """One run of the gate's layout: "sleep" of d_us, "changed" of changed_cycles, "add"."""
    import torch

    with kscope.annotate("sleep"):
        torch.cuda._sleep(d_us * CYCLES_PER_US)
    with kscope.annotate("changed"):
        torch.cuda._sleep(changed_cycles)
    n = min(d_us << 18, MAX_FLOATS)
    with kscope.annotate("add"):
        a[:n] + b[:n]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="the directory of the result (created)")
    parser.add_argument("--factor", type=float, default=1.0,
                        help="the \"changed\" region's duration, times its \"sleep\" (1.02: +2 %%)")
    parser.add_argument("--cycles", type=Path,
                        help="--calibrate's file: the changed spin's cycles under 200 us")
    parser.add_argument("--calibrate", type=Path, help="measure the cycles; write them here")
    parser.add_argument("--factors", default="1.02,1.05", help="--calibrate's factors")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if (args.out is None) == (args.calibrate is None):
        parser.error("give one of --out and --calibrate")
    if (why := skip_reason()) is not None:
        print(json.dumps({"skipped": why}))
        return 0
    if args.calibrate is not None:
        t0 = time.perf_counter()
        found = calibrate([float(f) for f in args.factors.split(",")], max(3, args.runs // 3))
        found["wall_s"] = time.perf_counter() - t0
        args.calibrate.write_text(json.dumps(found))
        print(json.dumps(found))
        return 0
    import torch

    calibrated: dict[str, int] = {}
    if args.factor != 1.0:
        if args.cycles is None:
            parser.error("--factor other than 1 needs --cycles (from --calibrate)")
        calibrated = json.loads(args.cycles.read_text())["cycles"][str(args.factor)]
    cycles = {d: calibrated.get(str(d), round(d * CYCLES_PER_US * args.factor))
              for d in DURATIONS_US}  # fmt: skip
    a = torch.ones(MAX_FLOATS, device="cuda")
    b = torch.ones(MAX_FLOATS, device="cuda")

    @kscope.analyze.kernel(configs=[(d,) for d in DURATIONS_US], runs=args.runs,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def gate(d_us: int) -> None:
        run_regions(a, b, d_us, cycles[d_us])

    t0 = time.perf_counter()
    results = gate()
    wall = time.perf_counter() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    results.to_json(str(args.out / "gate.json"))
    print(json.dumps({"out": str(args.out), "rows": len(results.to_dataframe()), "wall_s": wall,
                      "cycles": cycles}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
