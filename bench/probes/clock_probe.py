"""Experiment (not a test): why kscope's range-profiler duration (``duration_source="profiler"``)
and its counter-mode time of short kernels read 1-3 % under ncu's ``gpu__time_duration.sum``
(issue 35: vadd 1M 0.968, fma 1000 0.975, cuBLAS matmul 1024 0.98-0.99). Is it the clock the
kernel ran at (cycles equal, frequency lower under ncu), or work (more cycles under ncu: a
colder start than kscope's L2 flush gives)?

    python3 bench/probes/clock_probe.py --tool cupti|ncu [--runs 10] > TOOL.json
    python3 bench/probes/clock_probe.py --table cupti.json ncu.json

(one process per tool: tool "ncu" re-runs this program under ncu)

Per kernel (torch a + b at 256K/1M/4M floats, matmul 1024/2048 fp32, inputs made right before
the region, cache_control "all" or "none"; optionally a host wait inside the region before the
launch, or kernels of other code before the region), the same sweep with the cupti tool and with tool "ncu"
(``--clock-control none``): the mean of the duration, the elapsed GPC cycles, the GPC and DRAM
clock rates, and the SM cycles active. Prints one JSON object; --table prints them side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

import kscope  # noqa: E402

METRICS = [
    "gpu__time_duration.sum",
    "gpc__cycles_elapsed.max",
    "gpc__cycles_elapsed.avg.per_second",
    "dram__cycles_elapsed.avg.per_second",
    "sm__cycles_active.avg",
]
CASES = [("add", 1 << 18), ("add", 1 << 20), ("add", 1 << 22), ("mm", 1024), ("mm", 2048)]


def evict_instruction_caches(x: Any) -> None:
    """Kernels of other code before the region: they evict the SMs' instruction and constant
    caches that an L2 flush leaves holding the measured kernel's code."""
    import torch

    for op in (torch.sin, torch.exp, torch.cumsum, torch.sort, torch.argmax, torch.fft.fft, torch.tanh):
        try:
            op(x) if op not in (torch.cumsum,) else op(x, 0)
        except TypeError:
            pass


def sweep(tool: str, runs: int, cache: str, idle_ms: float, evict: bool) -> Any:
    import time

    import torch

    torch.backends.cuda.matmul.allow_tf32 = False

    other = torch.randn(1 << 16, device="cuda")

    def bench(kind: str, n: int) -> None:
        shape = (n,) if kind == "add" else (n, n)
        a = torch.randn(*shape, device="cuda")
        b = torch.randn(*shape, device="cuda")
        if evict:
            evict_instruction_caches(other)
        with kscope.annotate(kind):
            if idle_ms:
                torch.cuda.synchronize()
                time.sleep(idle_ms / 1000)
            a + b if kind == "add" else a @ b

    prefix = os.path.join(tempfile.gettempdir(), f"kscope_clock_probe_{tool}", "")
    run = kscope.analyze.kernel(configs=CASES, runs=runs, metrics=METRICS, tool=tool, cache_control=cache,
                                clock_control="none", output_prefix=prefix, output_csv=False,
                                thermal_mode="off")(bench)
    return run()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", choices=["cupti", "ncu"])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--cache", default="all", choices=["all", "none"])
    parser.add_argument("--idle-ms", type=float, default=0.0,
                        help="inside the region, wait this long on the host after the flush, before the launch")
    parser.add_argument("--evict", action="store_true",
                        help="before the region, launch kernels of other code (instruction caches)")
    parser.add_argument("--cases", default="", help="e.g. add:262144,mm:1024 (default: all)")
    parser.add_argument("--table", nargs="+", help="JSON files this probe printed")
    args = parser.parse_args()
    if args.table:
        print(f"{'case':<12} {'variant':<22} {'time ns':>10} {'GPC cycles':>11} {'GPC GHz':>8} {'DRAM GHz':>9} "
              f"{'SM active':>10}")
        got = [json.loads(Path(p).read_text().strip().splitlines()[-1]) for p in args.table]
        for case in got[0]["cases"]:
            for g in got:
                m = g["cases"].get(case, {})
                print(f"{case:<12} {g['tool']:<22} {m.get(METRICS[0], 0):>10.0f} {m.get(METRICS[1], 0):>11.0f} "
                      f"{m.get(METRICS[2], 0) / 1e9:>8.3f} {m.get(METRICS[3], 0) / 1e9:>9.3f} "
                      f"{m.get(METRICS[4], 0):>10.0f}")
        return 0
    cases: dict[str, dict[str, float]] = {}
    if args.cases:
        CASES[:] = [(k, int(n)) for k, n in (c.split(":") for c in args.cases.split(","))]
    df = sweep(args.tool, args.runs, args.cache, args.idle_ms, args.evict).to_dataframe()
    for _, row in df.iterrows():
        cases.setdefault(f"{row['kind']} {row['n']}", {})[row["Metric"]] = float(row["AvgValue"])
    label = f"{args.tool}/{args.cache}" + (f"/idle{args.idle_ms:g}" if args.idle_ms else "") + ("/evict" if args.evict else "")
    print(json.dumps({"tool": label, "cases": cases}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
