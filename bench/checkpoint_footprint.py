"""Multi-pass metrics while the process holds most of the GPU's memory (issue 35): an in-place
``x.add_(1.0)`` over 16M floats, a multi-pass set (duration and SM throughput: 8 passes), 3 runs,
while the process holds ``--hold`` GB of device memory, measured by kscope's checkpoint replay
(tool cupti) or by ncu (tool "ncu": ncu's own kernel replay saves and restores memory too).

    python3 bench/checkpoint_footprint.py --hold 110 --tool cupti|ncu [--runs 3]

Prints one JSON object: the profile() wall time, the value the increments left (runs + the
warm-up count: replay passes must not add), the metrics' means and kscope's warnings. With tool
"ncu" the held memory is taken in the re-run program (the child that ncu measures), not in the
parent, which only waits for it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

import kscope  # noqa: E402

METRICS = ["gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hold", type=float, required=True, help="GB of device memory held during the sweep")
    parser.add_argument("--tool", choices=["cupti", "ncu"], required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--debug", action="store_true", help="kscope's DEBUG lines (the checkpoint's cost)")
    args = parser.parse_args()
    ok, why = kscope._kscope.device_available()
    if not ok:
        print(json.dumps({"skipped": f"no CUDA device: {why}"}))
        return 0
    import torch

    held = None
    measuring_here = args.tool == "cupti" or "KSCOPE_CHILD_SESSION" in os.environ
    if measuring_here and args.hold > 0:
        held = torch.empty(int(args.hold * 1e9), dtype=torch.uint8, device="cuda")
        held.fill_(1)
    x = torch.zeros(16 << 20, device="cuda")

    def bench(n: int) -> None:
        with kscope.annotate("add_"):
            x.add_(1.0)

    prefix = os.path.join(tempfile.gettempdir(), f"kscope_checkpoint_footprint_{args.tool}", "")
    sweep = kscope.analyze.kernel(configs=[(1,)], runs=args.runs, metrics=METRICS, tool=args.tool,
                                  clock_control="none", output_prefix=prefix, output_csv=False,
                                  thermal_mode="off",
                                  verbosity=kscope.VerbosityLevel.DEBUG if args.debug else kscope.VerbosityLevel.INFO,
                                  )(bench)
    free, total = torch.cuda.mem_get_info()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0 = time.perf_counter()
        result = sweep()
        wall = time.perf_counter() - t0
    df = result.to_dataframe()
    means = {row["Metric"]: float(row["AvgValue"]) for _, row in df.iterrows()}
    print(json.dumps({"tool": args.tool, "hold_gb": args.hold, "device_free_gb_before": free / 1e9,
                      "device_total_gb": total / 1e9, "profile_s": wall,
                      "x_after": float(x[0].item()), "runs": args.runs, "means": means,
                      "warnings": [str(w.message) for w in caught], "held": held is not None}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
