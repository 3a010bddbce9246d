"""Time to a precise answer: how long each tool takes, from its first call in a fresh process,
to report the mean GPU time of a kernel with a 95 % CI half-width of at most 0.5 % (or the noise
floor it stops at), and the value it reports.

    python3 bench/time_to_precision.py [--sizes 4194304 65536]
    python3 bench/time_to_precision.py --ncu [--sizes ...] [--ncu-runs 20]   # the reference

Kernel: torch `a + b` of N floats (4M: ~12 us on an H200, 64K: ~1.5 us), launched once before
any tool so that none pays the loading of its module. Tools, in one process and this order, each
timed once with time.perf_counter around its call:

- kscope `runs="auto"` (target_rel_ci 0.005, no run count chosen), `cache_control="none"`;
- `triton.testing.do_bench(fn)` (default: mean, 25 ms warm-up, 100 ms of repetitions) and
  `do_bench(fn, return_mode="all")` (its samples: mean and Student-t CI computed here);
- `triton.testing.do_bench_cudagraph(fn)`;
- `torch.utils.benchmark.Timer(...).adaptive_autorange()` (median; IQR / median as spread);
- kscope again, later calls of the process: `runs="auto"` with `cuda_graph=True` ("kscope auto
  graph"), and 100 runs with `duration_source="profiler"` ("kscope profiler", Nsight Compute's
  definition of the duration);
- the reference, in its own invocation (`--ncu`: the ncu tool re-runs this program under ncu,
  which must then run nothing else): kscope with tool "ncu", a fixed `--ncu-runs` (ncu's
  gpu__time_duration.sum).

Prints one JSON object: per size, per tool {value_us, rel_ci_pct, wall_ms, runs, note}. A tool
that is not installed is reported as skipped, never guessed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import kscope  # noqa: E402
from gpu_script import skip_reason, timed  # noqa: E402
from kscope._native import native  # noqa: E402

# t(0.975, df) for the CI of do_bench's samples: kscope's engine (no scipy on the GPU machine).
_T = native.student_t_quantile


def mean_ci(samples: list[float]) -> tuple[float, float]:
    """Mean and CI95 half-width / mean in % (Student's t, as kscope's CI95 columns)."""
    n = len(samples)
    m = statistics.fmean(samples)
    if n < 2 or m == 0:
        return m, float("nan")
    t = _T(0.975, n - 1)
    return m, 100 * t * statistics.stdev(samples) / math.sqrt(n) / abs(m)


def measure(n: int, debug: bool) -> dict[str, Any]:
    import torch

    a = torch.ones(n, device="cuda")
    b = torch.ones(n, device="cuda")
    a + b  # the kernel's module is loaded (CUDA lazy loading) before any tool is timed
    torch.cuda.synchronize()
    out: dict[str, Any] = {}
    verbosity = kscope.VerbosityLevel.DEBUG if debug else kscope.VerbosityLevel.SILENT

    def kscope_auto(**options: Any) -> Callable[[], Any]:
        options.setdefault("runs", "auto")
        @kscope.analyze.kernel(configs=[(n,)], cache_control="none", thermal_mode="off",
                               verbosity=verbosity, **options)
        def add(size: int) -> None:
            with kscope.annotate("add"):
                a + b
        return add

    def kscope_entry(name: str, note: str, **options: Any) -> None:
        results, wall = timed(kscope_auto(**options))
        row = results.to_dataframe().iloc[0]
        if options.get("runs", "auto") != "auto":  # a fixed run count: the CI of its runs
            half = (row["CI95_Upper"] - row["AvgValue"]) / row["AvgValue"] * 100
            out[name] = {"value_us": row["AvgValue"] / 1e3, "rel_ci_pct": half, "wall_ms": wall,
                         "runs": int(row["NumRuns"]), "note": note.lstrip("; ")}
            return
        stop = results.stops().iloc[0]
        out[name] = {"value_us": row["AvgValue"] / 1e3, "rel_ci_pct": 100 * stop["RelCI95"],
                     "wall_ms": wall, "runs": int(stop["Runs"]),
                     "note": f"stop {stop['StopReason']}{note}"}

    kscope_entry("kscope auto", "")  # the process's first kscope call

    try:
        import triton.testing as tt
    except ImportError as e:
        out["triton"] = {"skipped": f"triton not installed ({e})"}
    else:
        value, wall = timed(lambda: tt.do_bench(lambda: a + b))
        out["do_bench"] = {"value_us": value * 1e3, "rel_ci_pct": float("nan"), "wall_ms": wall,
                           "runs": None, "note": "mean, event-timed"}
        samples, wall = timed(lambda: tt.do_bench(lambda: a + b, return_mode="all"))
        m, ci = mean_ci([float(s) for s in samples])
        out["do_bench all"] = {"value_us": m * 1e3, "rel_ci_pct": ci, "wall_ms": wall,
                               "runs": len(samples), "note": "mean of its samples"}
        value, wall = timed(lambda: tt.do_bench_cudagraph(lambda: a + b))
        out["do_bench_cudagraph"] = {"value_us": value * 1e3, "rel_ci_pct": float("nan"),
                                     "wall_ms": wall, "runs": None, "note": "CUDA graph replay"}

    from torch.utils import benchmark as tb

    timer = tb.Timer(stmt="a + b; torch.cuda.synchronize()", globals={"a": a, "b": b, "torch": torch})
    m, wall = timed(timer.adaptive_autorange)
    out["adaptive_autorange"] = {"value_us": m.median * 1e6, "rel_ci_pct": 100 * m.iqr / m.median,
                                 "wall_ms": wall, "runs": len(m.times),
                                 "note": "median; spread is IQR/median, host-timed"}

    # kscope's other modes, after the peers (not a first call): replayed from a CUDA graph, and
    # 100 runs with Nsight Compute's definition of the duration (the range profiler, ~0.4 s of
    # set-up; runs="auto" needs activity durations).
    kscope_entry("kscope auto graph", "; cuda_graph=True, a later call", cuda_graph=True)
    kscope_entry("kscope profiler", "; duration_source='profiler' (ncu's definition), runs=100, "
                 "a later call", duration_source="profiler", runs=100)

    return out


def reference(n: int, ncu_runs: int) -> dict[str, Any]:
    """kscope with the ncu tool: the value the others are compared with."""
    import torch

    a = torch.ones(n, device="cuda")
    b = torch.ones(n, device="cuda")
    out: dict[str, Any] = {}
    try:
        @kscope.analyze.kernel(configs=[(n,)], runs=ncu_runs, tool="ncu", cache_control="none",
                               thermal_mode="off", verbosity=kscope.VerbosityLevel.SILENT)
        def add_ncu(size: int) -> None:
            with kscope.annotate("add"):
                a + b

        results, wall = timed(add_ncu)
        row = results.to_dataframe().iloc[0]
        half = (row["CI95_Upper"] - row["AvgValue"]) / row["AvgValue"] * 100
        out["ncu reference"] = {"value_us": row["AvgValue"] / 1e3, "rel_ci_pct": half,
                                "wall_ms": wall, "runs": int(row["NumRuns"]), "note": "kscope tool ncu"}
    except Exception as e:  # noqa: BLE001 - the reference is optional; say why it is missing
        out["ncu reference"] = {"skipped": f"{type(e).__name__}: {e}"}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4 << 20, 64 << 10])
    parser.add_argument("--ncu", action="store_true", help="only the ncu reference")
    parser.add_argument("--ncu-runs", type=int, default=20)
    parser.add_argument("--debug", action="store_true",
                        help="kscope's DEBUG lines (fixed cost step by step, phases) on stderr")
    args = parser.parse_args()
    if (why := skip_reason()) is not None:
        print(json.dumps({"skipped": why}))
        return 0
    if args.ncu:
        print(json.dumps({str(n): reference(n, args.ncu_runs) for n in args.sizes}))
    else:
        print(json.dumps({str(n): measure(n, args.debug) for n in args.sizes}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
