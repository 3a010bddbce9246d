"""The compare gate's sweep (issue 36), measured in this process: spin kernels of 1 us to 10 ms.

    python3 bench/compare_gate.py --out A1.json [--factor 1.02] [--runs 30]

Configs: 13 kernel durations d from 1 us to 10 ms. Every run enters three regions: "sleep"
(torch.cuda._sleep of d at a nominal 1.98 GHz: the cycles are the same in every process),
"changed" (the same with --factor times the cycles: the A/B change) and "add" (torch a + b of
min(d x 2^18, 2^28) floats): 39 rows. Writes the result to --out and prints one JSON line,
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

    a = torch.ones(MAX_FLOATS, device="cuda")
    b = torch.ones(MAX_FLOATS, device="cuda")

    @kscope.analyze.kernel(configs=[(d,) for d in DURATIONS_US], runs=args.runs,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def gate(d_us: int) -> None:
        cycles = d_us * CYCLES_PER_US
        with kscope.annotate("sleep"):
            torch.cuda._sleep(cycles)
        with kscope.annotate("changed"):
            torch.cuda._sleep(round(cycles * args.factor))
        n = min(d_us << 18, MAX_FLOATS)
        with kscope.annotate("add"):
            a[:n] + b[:n]

    t0 = time.perf_counter()
    results = gate()
    wall = time.perf_counter() - t0
    results.to_json(args.out)
    print(json.dumps({"out": args.out, "rows": len(results.to_dataframe()), "wall_s": wall}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
