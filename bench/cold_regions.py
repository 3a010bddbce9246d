"""The two-annotation cache case: a torch matmul benchmark whose inputs are made right before the
annotated regions, with two regions per run (cuBLAS kernels); or (--shape multi) regions of
several kernels, whose later kernels read what the earlier ones read or wrote.

    python3 bench/cold_regions.py --mode counters|region|timing|timing-region|timing-none|ncu
        [--shape matmul|multi] [--sizes 1024,2048] [--runs 10]

counters: cupti tool, {gpu__time_duration.sum, dram__throughput.avg.pct_of_peak_sustained_elapsed}
(multi: dram__bytes_read.sum), cache_control "all"; region: the same with cache_control
"region"; timing: cupti tool, the duration alone (activity records); timing-region and
timing-none: the same with cache_control "region" and "none"; ncu: the counters set with tool
"ncu" (its --clock-control none). Shape matmul: n x n fp32 matmuls in regions "first" and
"second"; shape multi (sizes in MB of float32 x, combine_kernel_metrics a sum): "two_sums" (x.sum()
twice) and "three_ops" (y = x * 2, z = y + x, z.sum()). Prints one JSON object: the mean of every
(annotation, metric, size), profile() wall seconds, and for the cupti modes the host time per
run spent entering regions (the flushes), from kscope's DEBUG phase summary.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))  # a checkout; PYTHONPATH otherwise

import kscope  # noqa: E402

TIME = "gpu__time_duration.sum"
DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
DRAM_BYTES = "dram__bytes_read.sum"
CACHE = {"region": "region", "timing-region": "region", "timing-none": "none"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", required=True,
                        choices=["counters", "region", "timing", "timing-region", "timing-none", "ncu"])
    parser.add_argument("--shape", default="matmul", choices=["matmul", "multi"])
    parser.add_argument("--sizes", default="1024,2048")
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    ok, why = kscope._kscope.device_available()
    if not ok:
        print(json.dumps({"skipped": f"no CUDA device: {why}"}))
        return 0
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    sizes = [int(s) for s in args.sizes.split(",")]
    counter = DRAM if args.shape == "matmul" else DRAM_BYTES
    metrics = [TIME] if args.mode.startswith("timing") else [TIME, counter]
    prefix = os.path.join(tempfile.gettempdir(), f"kscope_cold_regions_{args.shape}_{args.mode}", "")

    def matmul(n: int) -> None:
        a = torch.randn(n, n, device="cuda")
        b = torch.randn(n, n, device="cuda")
        with kscope.annotate("first"):
            a @ b
        with kscope.annotate("second"):
            torch.matmul(a, b)

    def multi(n: int) -> None:
        x = torch.randn(n * 2**20 // 4, device="cuda")
        with kscope.annotate("two_sums"):
            x.sum()
            x.sum()
        with kscope.annotate("three_ops"):
            y = x * 2.0
            z = y + x
            z.sum()

    sweep = kscope.analyze.kernel(
        configs=[(n,) for n in sizes], runs=args.runs, warmup_runs=1, metrics=metrics,
        tool="ncu" if args.mode == "ncu" else "cupti", cache_control=CACHE.get(args.mode, "all"),
        combine_kernel_metrics=(lambda a, b: a + b) if args.shape == "multi" else None,
        thermal_mode="off",
        verbosity=kscope.VerbosityLevel.SILENT if args.mode == "ncu" else kscope.VerbosityLevel.DEBUG,
        output_prefix=prefix)(matmul if args.shape == "matmul" else multi)  # fmt: skip

    log = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(log):
        df = sweep().to_dataframe()
    wall = time.perf_counter() - t0
    rows = {f"{r.Annotation}|{r.Metric}|{r.n}": float(r.AvgValue) for r in df.itertuples()}
    phase = re.search(r"region entry \(in benchmark\) ([0-9.]+)", log.getvalue())
    out = {"rows": rows, "wall_s": wall, "regions_per_run": 2}
    if phase:
        out["region_entry_us_per_run"] = float(phase.group(1))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
