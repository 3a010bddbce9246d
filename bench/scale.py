"""How kscope's costs grow with the number of runs (issue 37), without a GPU: a device-free sweep
of N runs (N/R configs x R runs) of one annotated region, from Python (the engine's real plan,
Session, journal and tables around a made-up tool, ``_test_profile_without_device``) and from C++
(``kscope_bench_scale``: the same with the cupti timing path's observer and joiner), then the
files they wrote and the commands on them.

    python3 bench/scale.py --runs 1000,10000,100000,1000000 [--runs-per-config R] [--build build]
        [--out out/scale] [--gpu] [--sweep-only]

With ``--gpu`` the Python sweeps measure for real (the cupti tool's timing path,
``cache_control="none"``): each run launches one torch ``a + b`` of 64K floats, and the bare loop
launches the same; the C++ figures stay device-free.

Per N, in a fresh process each: the sweep's wall time and that of a bare loop calling the same
function, the growth of the process's resident memory over the sweep (and, to say where it goes:
over the bare loop, of malloc's heap over the sweep, and what stays resident once the result is
freed and the heap trimmed), the journal's and the JSON
result's bytes, ``to_json``'s and ``kscope.load``'s times (the result, then the journal); the
same from C++ under "cpp"; then ``kscope show`` (the table, and ``-f trace``), ``kscope compare``
(the result against itself) and ``kscope merge`` (of the journals of two shards of the sweep, N/2
runs each) through the engine's executable, each with its wall time and its peak RSS (``wait4``).
Prints one JSON object: per N its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def rss_bytes() -> int:
    """The process's resident memory now (not its peak)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def heap_bytes() -> int:
    """The bytes malloc has handed out and not taken back (glibc's mallinfo2: arena and mmapped
    blocks), whatever the resident memory."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in
                    ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                     "fordblks", "keepcost")]  # fmt: skip

    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = MallInfo2
    info = libc.mallinfo2()
    return int(info.uordblks + info.hblkhd)


def trimmed_rss_bytes() -> int:
    """The resident memory after a garbage collection and malloc_trim (freed heap given back)."""
    import ctypes
    import gc

    gc.collect()
    ctypes.CDLL(None).malloc_trim(0)
    return rss_bytes()


def sweep(configs: int, runs: int, out: str, shard: tuple[int, int] | None, gpu: bool) -> dict[str, Any]:
    """In this process: the sweep of ``configs`` x ``runs`` (or its shard), its files, write and
    load."""
    sys.path.insert(0, str(ROOT / "python"))
    import kscope
    from kscope._native import native

    launch: Any = lambda: None  # noqa: E731
    sync: Any = lambda: None  # noqa: E731
    if gpu:
        import torch

        a, b = torch.ones(1 << 16, device="cuda"), torch.ones(1 << 16, device="cuda")
        launch = lambda: a + b  # noqa: E731
        sync = torch.cuda.synchronize
        launch()
        sync()
    else:
        native.profile = native._test_profile_without_device

    def region(k: int) -> None:
        with kscope.annotate("a"):
            launch()

    values = list(range(configs))
    bench = kscope.analyze.kernel(configs=values, runs=runs, output_prefix=out + "/", shard=shard,
                                  thermal_mode="off", output_csv=False, cache_control="none",
                                  verbosity=kscope.VerbosityLevel.SILENT)(region)  # fmt: skip
    bare_before = rss_bytes()
    t0 = time.perf_counter()
    for k in values:
        for _ in range(runs):
            region(k)
    sync()
    bare_s = time.perf_counter() - t0
    before = rss_bytes()
    bare_grown = before - bare_before
    heap_before = heap_bytes()
    t0 = time.perf_counter()
    result = bench()
    sweep_s = time.perf_counter() - t0
    grown = rss_bytes() - before
    heap_grown = heap_bytes() - heap_before
    path = out + "/result.json"
    t0 = time.perf_counter()
    result.to_json(path)
    write_s = time.perf_counter() - t0
    journal = result.journal_path
    del result
    kept = trimmed_rss_bytes() - before
    t0 = time.perf_counter()
    kscope.load(path)
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    kscope.load(journal)
    journal_load_s = time.perf_counter() - t0
    return {"sweep_s": sweep_s, "bare_s": bare_s, "rss_growth_bytes": grown, "bare_rss_growth_bytes": bare_grown,
            "heap_growth_bytes": heap_grown, "rss_kept_after_result_freed_bytes": kept,
            "journal_bytes": os.path.getsize(journal), "result_bytes": os.path.getsize(path),
            "write_s": write_s, "load_s": load_s, "journal_load_s": journal_load_s, "result": path,
            "journal": journal}  # fmt: skip


def in_child(configs: int, runs: int, out: str, gpu: bool,
             shard: tuple[int, int] | None = None) -> dict[str, Any]:
    """sweep() in a fresh interpreter, so that each size's memory is its own."""
    os.makedirs(out, exist_ok=True)
    argv = [sys.executable, __file__, "--child", str(configs), "--runs-per-config", str(runs),
            "--out", out] + (["--gpu"] if gpu else [])  # fmt: skip
    if shard:
        argv += ["--shard", f"{shard[0]}/{shard[1]}"]
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def command(argv: list[str]) -> dict[str, float]:
    """Runs argv, returns its wall seconds and peak RSS (bytes) from wait4."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {stderr.strip()}")
    return {"s": wall, "peak_rss_bytes": usage.ru_maxrss * 1024}


def measure(n: int, runs: int, out: Path, build: Path, gpu: bool, sweep_only: bool) -> dict[str, Any]:
    configs = max(1, n // runs)
    whole = in_child(configs, runs, str(out / f"n{n}"), gpu)
    if sweep_only:
        return whole
    cpp = subprocess.run([str(build / "bench" / "kscope_bench_scale"), str(configs), str(runs),
                          str(out / f"n{n}-cpp")], capture_output=True, text=True, check=True)  # fmt: skip
    whole["cpp"] = json.loads(cpp.stdout.strip().splitlines()[-1])
    shards = [in_child(configs, runs, str(out / f"n{n}-shard{i}"), gpu, (i, 2)) for i in range(2)]
    merged = str(out / f"n{n}-merged.json")
    kscope_cli = str(build / "cli" / "kscope")
    whole["show"] = command([kscope_cli, "show", whole["result"]])
    whole["trace"] = command([kscope_cli, "show", "-f", "trace", "-o", str(out / f"n{n}-trace.json"),
                              whole["result"]])  # fmt: skip
    whole["compare"] = command([kscope_cli, "compare", whole["result"], whole["result"]])
    whole["merge"] = command([kscope_cli, "merge", shards[0]["journal"], shards[1]["journal"], "-o", merged])
    whole["merged_bytes"] = os.path.getsize(merged)
    return whole


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="1000,10000,100000", help="comma-separated sweep sizes (runs)")
    parser.add_argument("--runs-per-config", type=int, default=1, help="R: N/R configs of R runs")
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/scale")
    parser.add_argument("--gpu", action="store_true",
                        help="the Python sweeps launch a torch a + b each run, timed")
    parser.add_argument("--sweep-only", action="store_true",
                        help="only the Python sweep and its files: no C++ sweep, shards or commands")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--shard", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        shard = None
        if args.shard:
            index, count = args.shard.split("/")
            shard = (int(index), int(count))
        print(json.dumps(sweep(args.child, args.runs_per_config, args.out, shard, args.gpu)))
        return 0
    build = (ROOT / args.build).resolve()
    out = (ROOT / args.out).resolve()
    sizes = [int(n) for n in args.runs.split(",")]
    figures = {str(n): measure(n, args.runs_per_config, out, build, args.gpu, args.sweep_only) for n in sizes}
    print(json.dumps({"runs_per_config": args.runs_per_config, "gpu": args.gpu, "sizes": figures}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
