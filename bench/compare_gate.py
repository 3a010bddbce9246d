"""The compare gate's sweeps (issue 36), measured in this process: spin kernels of 1 us to 10 ms.

    python3 bench/compare_gate.py --out DIR [--factor 1.02] [--runs 30]

Configs: 13 kernel durations d from 1 us to 10 ms, in two sessions written to DIR, which
`kscope compare DIR_A DIR_B` joins by name:
- "gate": every run enters "sleep" (torch.cuda._sleep of d at a nominal 1.98 GHz: the cycles
  are the same in every process) and "add" (torch a + b of min(d x 2^18, 2^28) floats): the
  untouched rows. It runs first, so that nothing of the A/B change (nor of its calibration) can
  reach it: in one sweep with the changed spin between them, a 5 % longer spin moved the next
  runs' 2 and 5 us spins by +1.8-2.3 % and -1.2 % (H200, 2026-12-04), so they were not untouched.
- "gate_changed": "changed", the spin of d made --factor times as long: the A/B change.
Writes DIR/gate.json and DIR/gate_changed.json and prints one JSON line, {"out": DIR, "rows": 39,
"wall_s": s, "changed": {d: calibration}}, or {"skipped": why} without a GPU or torch.

A spin's duration is not proportional to its cycles: it has a fixed part of about 0.6 us and
its steps are not even at a few us (on the H200 +2 % cycles lengthened the 1 us spin by
1.0-1.3 %). So with a --factor other than 1 the process searches, for every d under 200 us, the
cycles whose spin lasts --factor times the spin of d, measured as the sweep measures it
(kscope.time with the L2 flushed before every call; medians, secant steps, to 0.1 %); from
200 us the fixed part is under 0.5 % of d and --factor times the cycles is used.
bench/run_bench.py (part compare_gate) runs it in fresh processes and compares them with
`kscope compare`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

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
CALIBRATION_TOLERANCE = 0.001
CALIBRATION_STEPS = 6


def spin_ns(cycles: int) -> float:
    """The median duration of a spin of `cycles`, ns (kscope.time, the L2 flushed before every
    call, as the sweep does)."""
    import torch

    return float(kscope.time(lambda: torch.cuda._sleep(cycles), target_rel_ci=0.001,
                             time_budget=2.0).median)  # fmt: skip


def changed_cycles(d_us: int, factor: float) -> tuple[int, dict[str, float]]:
    """The cycles of the "changed" spin of duration d_us: factor times as long as the "sleep"
    spin of d_us, found by secant steps on measured medians below CALIBRATE_BELOW_US; with the
    calibration's figures (the spins' medians and the change reached). With factor 1 the spin of
    d_us, timed twice."""
    base = d_us * CYCLES_PER_US
    guess = round(base * factor)
    if d_us >= CALIBRATE_BELOW_US:
        return guess, {"cycles": guess}
    t_base = spin_ns(base)
    if factor == 1.0:  # the A processes time the same spins, so that both sides start alike
        t = spin_ns(base)
        return base, {"cycles": base, "sleep_ns": t_base, "changed_ns": t,
                      "change_pct": (t / t_base - 1) * 100}
    target = factor * t_base
    lo_c, lo_t = base, t_base
    c, t = guess, spin_ns(guess)
    for _ in range(CALIBRATION_STEPS):
        if abs(t / target - 1.0) <= CALIBRATION_TOLERANCE:
            break
        slope = (t - lo_t) / (c - lo_c) if c != lo_c and t != lo_t else 1.0 / CYCLES_PER_US * 1e3
        lo_c, lo_t = c, t
        c = max(base + 1, round(c + (target - t) / slope))
        t = spin_ns(c)
    return c, {"cycles": c, "sleep_ns": t_base, "changed_ns": t, "change_pct": (t / t_base - 1) * 100}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path,
                        help="the directory of the two results (created)")
    parser.add_argument("--factor", type=float, default=1.0,
                        help="the \"changed\" region's cycles, times its \"sleep\" (1.02: +2 %%)")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if (why := skip_reason()) is not None:
        print(json.dumps({"skipped": why}))
        return 0
    import torch

    a = torch.ones(MAX_FLOATS, device="cuda")
    b = torch.ones(MAX_FLOATS, device="cuda")
    configs = [(d,) for d in DURATIONS_US]
    quiet = kscope.VerbosityLevel.SILENT

    @kscope.analyze.kernel(configs=configs, runs=args.runs, verbosity=quiet)
    def gate(d_us: int) -> None:
        with kscope.annotate("sleep"):
            torch.cuda._sleep(d_us * CYCLES_PER_US)
        n = min(d_us << 18, MAX_FLOATS)
        with kscope.annotate("add"):
            a[:n] + b[:n]

    t0 = time.perf_counter()
    untouched = gate()
    wall = time.perf_counter() - t0
    calibration = {d: changed_cycles(d, args.factor) for d in DURATIONS_US}

    @kscope.analyze.kernel(configs=configs, runs=args.runs, verbosity=quiet)
    def gate_changed(d_us: int) -> None:
        with kscope.annotate("changed"):
            torch.cuda._sleep(calibration[d_us][0])

    t0 = time.perf_counter()
    changed = gate_changed()
    wall += time.perf_counter() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    untouched.to_json(str(args.out / "gate.json"))
    changed.to_json(str(args.out / "gate_changed.json"))
    rows = len(untouched.to_dataframe()) + len(changed.to_dataframe())
    print(json.dumps({"out": str(args.out), "rows": rows, "wall_s": wall,
                      "changed": {d: figures for d, (_, figures) in calibration.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
