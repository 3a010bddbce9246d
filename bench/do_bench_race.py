"""Replacing do_bench (issue 34): kscope.testing.do_bench and its peers on the same kernels, in one
process, and Triton's autotuner with each. Prints one JSON object.

    python3 bench/do_bench_race.py [--sizes 65536 4194304 67108864] [--matmul 1024 2048 4096]
    python3 bench/do_bench_race.py --ncu [--sizes ...] [--matmul ...]   # the references

Kernels: torch `a + b` of N floats, launched once before any tool (its module loaded); the
autotuned Triton vector add (8 BLOCK_SIZE configs) and fp16 matmul (16 tile configs) of
bench/triton_autotuned.py. Per size, each timed once with time.perf_counter around its call:

- "kscope first call": kscope.testing.do_bench, the process's first kscope call (CUPTI's set-up);
- "kscope do_bench": the same again (a later call: what an autotuner's calls cost), and with
  duration_source "events" and "profiler" (Nsight Compute's definition, 20 runs);
- "kscope do_bench_cudagraph";
- the peers: triton.testing.do_bench (default budgets, mean), do_bench_cudagraph, and
  torch.utils.benchmark's adaptive_autorange (median);
- --ncu: kscope's ncu tool, 20 runs, cache_control "all" (ncu's --cache-control all, clocks as
  they are: --clock-control none), the gpu__time_duration.sum the others are compared with; and
  the autotuned kernels' configs, every one of them in one sweep of the ncu tool (--ncu-tune-runs
  runs each, cache_control "all"): the cold reference ranking.

Autotuning: every config is compiled first (an autotuner with a benchmarker that only calls
the kernel once), then a fresh autotuner per benchmarker times its first call (the tuning) and
the chosen config is ranked by two references: warm, 1000 CUDA-graph replays per config
(triton_autotuned.reference_ranking: consecutive launches share the L2), here; cold, ncu's
gpu__time_duration.sum with the L2 flushed before every launch, in the --ncu invocation. Both
benchmarkers flush the L2 before every call, so the cold ranking is the one their choices are
judged by (run_bench.py). Per-call overhead: kscope.time of a 1-element add with one run and no
flush, 500 calls, against the same launch and synchronisation without kscope, and how much of it
is inside the engine (Timing.seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

import kscope  # noqa: E402
import kscope.testing as kt  # noqa: E402
from gpu_script import skip_reason, timed  # noqa: E402


def kscope_entry(result: Any, wall_ms: float, note: str = "") -> dict[str, Any]:
    stats = kt.last_stats()
    assert stats is not None
    stop = f"stop {stats.stop_reason}" if stats.stop_reason else "a fixed run count"
    return {"value_us": result * 1e3, "rel_ci_pct": 100 * stats.rel_ci, "wall_ms": wall_ms,
            "runs": stats.runs, "stop_reason": stats.stop_reason,
            "note": f"{stop}{note}"}  # fmt: skip


def peer_entry(value_ms: float, wall_ms: float, note: str) -> dict[str, Any]:
    return {"value_us": value_ms * 1e3, "rel_ci_pct": float("nan"), "wall_ms": wall_ms,
            "runs": None, "note": note}  # fmt: skip


def add_kernel(n: int) -> Callable[[], Any]:
    import torch

    a = torch.ones(n, device="cuda")
    b = torch.ones(n, device="cuda")
    fn = lambda: a + b  # noqa: E731
    fn()  # the kernel's module is loaded before any tool is timed
    torch.cuda.synchronize()
    return fn


def sizes_race(n: int, first: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    fn = add_kernel(n)
    if first:
        out["kscope first call"] = kscope_entry(*timed(lambda: kt.do_bench(fn)))
    out["kscope do_bench"] = kscope_entry(*timed(lambda: kt.do_bench(fn)))
    out["kscope events"] = kscope_entry(*timed(lambda: kt.do_bench(fn, duration_source="events")),
                                        "; duration_source events")  # fmt: skip
    out["kscope profiler"] = kscope_entry(
        *timed(lambda: kt.do_bench(fn, duration_source="profiler", runs=20)),
        "; duration_source profiler")  # fmt: skip
    out["kscope do_bench_cudagraph"] = kscope_entry(*timed(lambda: kt.do_bench_cudagraph(fn)),
                                                    "; CUDA graph replays")  # fmt: skip
    try:
        import triton.testing as tt
    except ImportError as e:
        out["triton"] = {"skipped": f"triton not installed ({e})"}
    else:
        out["do_bench"] = peer_entry(*timed(lambda: tt.do_bench(fn)), "mean, event-timed")
        out["do_bench_cudagraph"] = peer_entry(*timed(lambda: tt.do_bench_cudagraph(fn)),
                                               "CUDA graph replay")  # fmt: skip
    import torch
    from torch.utils import benchmark as tb

    timer = tb.Timer(stmt="fn(); torch.cuda.synchronize()", globals={"fn": fn, "torch": torch})
    m, wall = timed(timer.adaptive_autorange)
    out["adaptive_autorange"] = peer_entry(m.median * 1e3, wall, "median, host-timed")
    return out


def compile_all(tuned_factory: Callable[..., Any], launch: Callable[[Any], None]) -> None:
    """Every config compiled and loaded: an autotuner whose benchmarker calls each once."""
    def once(kernel_call: Callable[[], None], quantiles: Any = None, **_: Any) -> list[float]:
        kernel_call()
        return [1.0, 1.0, 1.0]

    launch(tuned_factory(do_bench=once))


@dataclass
class AutotuneCase:
    """One autotuned kernel on its inputs: a fresh autotuner (its autotune keywords given),
    launching one, its configs and the plain JIT kernel's launch with a config's meta."""

    name: str
    tuned_factory: Callable[..., Any]
    launch: Callable[[Any], None]
    configs: list[Any]
    plain_call: Callable[..., None]


def autotune_cases(sizes: list[int], matmul: list[int]) -> list[AutotuneCase]:
    """The vector add at every size and the fp16 matmul at every shape, inputs allocated."""
    import torch
    import triton_autotuned as ta

    cases = []
    for n in sizes:
        x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
        out = torch.empty_like(x)
        cases.append(AutotuneCase(
            f"vadd {n}", ta.autotuned_vadd, lambda k, x=x, y=y, out=out: ta.vadd_call(k, x, y, out)(),
            ta.vadd_configs(), ta.vadd_call(ta.vadd_kernel, x, y, out)))  # fmt: skip
    for size in matmul:
        a = torch.randn(size, size, device="cuda", dtype=torch.float16)
        b = torch.randn(size, size, device="cuda", dtype=torch.float16)
        c = torch.empty_like(a)
        cases.append(AutotuneCase(
            f"matmul {size}", ta.autotuned_matmul,
            lambda k, a=a, b=b, c=c: ta.matmul_call(k, a, b, c)(),
            ta.matmul_configs(), ta.matmul_call(ta.matmul_kernel, a, b, c)))  # fmt: skip
    return cases


def autotune_race(case: AutotuneCase) -> dict[str, Any]:
    import torch
    import triton_autotuned as ta

    compile_all(case.tuned_factory, case.launch)
    torch.cuda.synchronize()
    ranking = ta.reference_ranking(case.configs, case.plain_call)
    out: dict[str, Any] = {"kernel": case.name,
                           "reference_us": {str(c): t for t, c in ranking}}  # fmt: skip
    for who, kwargs in (("triton", {}), ("kscope", {"do_bench": kt.do_bench})):
        tuned = case.tuned_factory(**kwargs)
        _, wall = timed(lambda: (case.launch(tuned), torch.cuda.synchronize()))
        out[who] = {"tuning_ms": wall, "chosen": str(tuned.best_config)}
    return out


def autotuning(sizes: list[int], matmul: list[int]) -> list[dict[str, Any]]:
    try:
        import triton_autotuned  # noqa: F401
    except ImportError as e:
        return [{"skipped": f"triton not installed ({e})"}]
    return [autotune_race(case) for case in autotune_cases(sizes, matmul)]


def cold_reference(sizes: list[int], matmul: list[int], runs: int) -> dict[str, Any]:
    """Every autotuned config's gpu__time_duration.sum under ncu with the L2 flushed before every
    launch (kscope's ncu tool, cache_control "all", one warm-up call, `runs` measured): one sweep
    whose configs are all (kernel, config) pairs, so that ncu re-runs this program once. The
    median per config, us, by kernel name and str(config)."""
    try:
        import triton_autotuned as ta
    except ImportError as e:
        return {"skipped": f"triton not installed ({e})"}
    jobs = [(case.name, c, case.plain_call) for case in autotune_cases(sizes, matmul)
            for c in case.configs]  # fmt: skip
    try:
        @kscope.analyze.kernel(configs=[(i,) for i in range(len(jobs))], runs=runs, warmup_runs=1,
                               tool="ncu", cache_control="all", thermal_mode="off",
                               verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
        def autotune_ncu(job: int) -> None:
            _, config, call = jobs[job]
            with kscope.annotate("config"):
                call(**ta.config_meta(config))

        results, wall = timed(autotune_ncu)
    except Exception as e:  # noqa: BLE001 - the reference is optional; say why it is missing
        return {"skipped": f"{type(e).__name__}: {e}"}
    kernels: dict[str, dict[str, dict[str, float]]] = {}
    for _, row in results.to_dataframe().iterrows():
        name, config, _ = jobs[int(row["job"])]
        half = 100 * (row["CI95_Upper"] - row["AvgValue"]) / row["AvgValue"]
        kernels.setdefault(name, {})[str(config)] = {"us": row["Median"] / 1e3, "rel_ci_pct": half}
    return {"wall_ms": wall, "runs": runs, "kernels": kernels}


def per_call_overhead_us(calls: int = 500) -> dict[str, Any]:
    """kscope.time's cost per call once warm, us, against the same launch and synchronisation
    without kscope: in all, and the part inside the engine (Timing.seconds, the rest is the
    Python front's), three repeats of `calls` calls."""
    import torch

    x = torch.ones(1, device="cuda")
    fn = lambda: x.add_(1)  # noqa: E731
    kscope.time(fn, runs=1, warmup_runs=0, cache_control="none")
    samples, engine = [], []
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
            torch.cuda.synchronize()
        bare = (time.perf_counter() - t0) / calls
        inside = 0.0
        t0 = time.perf_counter()
        for _ in range(calls):
            inside += kscope.time(fn, runs=1, warmup_runs=0, cache_control="none").seconds
        samples.append(((time.perf_counter() - t0) / calls - bare) * 1e6)
        engine.append((inside / calls - bare) * 1e6)
    return {"fixed_1_run_us": statistics.median(samples), "samples": samples,
            "engine_samples": engine}  # fmt: skip


def reference(n: int, runs: int) -> dict[str, Any]:
    """kscope's ncu tool on the same a + b (cache_control all, as do_bench flushes)."""
    fn = add_kernel(n)
    try:
        @kscope.analyze.kernel(configs=[(n,)], runs=runs, tool="ncu", cache_control="all",
                               thermal_mode="off", verbosity=kscope.VerbosityLevel.SILENT)
        def add_ncu(size: int) -> None:
            with kscope.annotate("add"):
                fn()

        results, wall = timed(add_ncu)
        row = results.to_dataframe().iloc[0]
        return {"ncu reference": {"value_us": row["AvgValue"] / 1e3, "rel_ci_pct": float("nan"),
                                  "wall_ms": wall, "runs": int(row["NumRuns"]),
                                  "note": "kscope tool ncu, cache all"}}  # fmt: skip
    except Exception as e:  # noqa: BLE001 - the reference is optional; say why it is missing
        return {"ncu reference": {"skipped": f"{type(e).__name__}: {e}"}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64 << 10, 4 << 20, 64 << 20])
    parser.add_argument("--matmul", type=int, nargs="*", default=[1024, 2048, 4096])
    parser.add_argument("--ncu", action="store_true", help="only the ncu references")
    parser.add_argument("--ncu-runs", type=int, default=20, help="runs of a + b under ncu")
    parser.add_argument("--ncu-tune-runs", type=int, default=10,
                        help="runs of every autotuned config under ncu")  # fmt: skip
    args = parser.parse_args()
    if (why := skip_reason()) is not None:
        print(json.dumps({"skipped": why}))
        return 0
    if args.ncu:
        print(json.dumps({"sizes": {str(n): reference(n, args.ncu_runs) for n in args.sizes},
                          "autotune": cold_reference(args.sizes, args.matmul,
                                                     args.ncu_tune_runs)}))  # fmt: skip
        return 0
    sizes = {str(n): sizes_race(n, first=i == 0) for i, n in enumerate(args.sizes)}
    out = {"sizes": sizes, "autotune": autotuning(args.sizes, args.matmul),
           "overhead": per_call_overhead_us()}  # fmt: skip
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
