"""The compare gate's sweep (issue 36), measured in this process: spin kernels of 1 us to 10 ms.

    python3 bench/compare_gate.py --out A1.json [--factor 1.02] [--runs 30]

Configs: 13 kernel durations d from 1 us to 10 ms. Every run enters three regions: "sleep"
(torch.cuda._sleep of d at a nominal 1.98 GHz: the cycles are the same in every process),
"changed" (the same, made --factor times as long: the A/B change) and "add" (torch a + b of
min(d x 2^18, 2^28) floats): 39 rows. A spin of c cycles lasts o + c / f, with a fixed part o of
about 1 us, so --factor times the cycles would lengthen a 1 us spin by only half as much: with a
--factor other than 1, the process first measures o and f (kscope.time of two spins) and adds the
cycles that make the whole duration --factor times as long. Writes the result to --out and prints one JSON line,
{"out": path, "rows": 39, "wall_s": s}, or {"skipped": why} without a GPU or torch.
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


def extra_cycles(factor: float) -> float:
    """The cycles to add to factor x c so that a spin of c cycles lasts factor times as long:
    (factor - 1) x o x f, from spins of 1 us and 1 ms timed with kscope.time (0 for factor 1)."""
    if factor == 1.0:
        return 0.0
    import torch

    lo, hi = CYCLES_PER_US, 1000 * CYCLES_PER_US

    def spin_ns(cycles: int) -> float:
        return kscope.time(lambda: torch.cuda._sleep(cycles), cache_control="none").median

    t_lo, t_hi = spin_ns(lo), spin_ns(hi)
    cycles_per_ns = (hi - lo) / (t_hi - t_lo)
    fixed_ns = t_lo - lo / cycles_per_ns
    return (factor - 1.0) * fixed_ns * cycles_per_ns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the result's JSON file")
    parser.add_argument("--factor", type=float, default=1.0,
                        help="the \"changed\" region's cycles, times its \"sleep\" (1.02: +2 %%)")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if (why := skip_reason()) is not None:
        print(json.dumps({"skipped": why}))
        return 0
    import torch

    extra = extra_cycles(args.factor)
    a = torch.ones(MAX_FLOATS, device="cuda")
    b = torch.ones(MAX_FLOATS, device="cuda")

    @kscope.analyze.kernel(configs=[(d,) for d in DURATIONS_US], runs=args.runs,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def gate(d_us: int) -> None:
        cycles = d_us * CYCLES_PER_US
        with kscope.annotate("sleep"):
            torch.cuda._sleep(cycles)
        with kscope.annotate("changed"):
            torch.cuda._sleep(round(cycles * args.factor + extra))
        n = min(d_us << 18, MAX_FLOATS)
        with kscope.annotate("add"):
            a[:n] + b[:n]

    t0 = time.perf_counter()
    results = gate()
    wall = time.perf_counter() - t0
    results.to_json(args.out)
    print(json.dumps({"out": args.out, "rows": len(results.to_dataframe()), "wall_s": wall,
                      "extra_cycles": extra}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
