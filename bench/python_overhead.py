"""Python host overhead of kscope per run, and the Python side of the timing-overhead sweep.

    python3 bench/python_overhead.py --configs 1 --runs 2000 --kernel-us 1 [--repeats 3]

Launches one tiny kernel per run (torch.cuda._sleep, a spin of a fixed number of GPU cycles)
inside an annotation. The bare loop does the same launches and a torch.cuda.synchronize() per run
(what kscope's loop does around a run), without kscope. Prints one JSON object: wall seconds of
each repeat for both, and the kernel durations kscope measured.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

import kscope  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", type=int, default=1)
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--kernel-us", type=float, default=1.0, help="spin length of the kernel")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cache", default="none", choices=["all", "none"])
    args = parser.parse_args()
    ok, why = kscope._kscope.device_available()  # the engine's check; no torch needed for it
    if not ok:
        print(json.dumps({"skipped": f"no CUDA device: {why}"}))
        return 0
    import torch

    cycles = int(args.kernel_us * 1.98e3)  # the H200's boost clock is 1980 MHz
    torch.cuda._sleep(cycles)
    torch.cuda.synchronize()

    @kscope.analyze.kernel(configs=list(range(args.configs)), runs=args.runs,
                           cache_control=args.cache, thermal_mode="off",
                           verbosity=kscope.VerbosityLevel.SILENT)
    def sweep(config: int) -> None:
        with kscope.annotate("sleep"):
            torch.cuda._sleep(cycles)

    def bare() -> None:
        for _ in range(args.configs):
            for _ in range(args.runs):
                torch.cuda._sleep(cycles)
                torch.cuda.synchronize()

    bare_s, kscope_s, measured = [], [], []
    for repeat in range(args.repeats):
        t0 = time.perf_counter()
        bare()
        bare_s.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        results = sweep()
        kscope_s.append(time.perf_counter() - t0)
        if repeat == 0:
            measured = results.raw_dataframe()["Value"].tolist()
    print(json.dumps({"configs": args.configs, "runs": args.runs, "kernel_us": args.kernel_us,
                      "bare_s": bare_s, "kscope_s": kscope_s, "kscope_kernel_ns": measured}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
