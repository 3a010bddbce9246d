"""How kscope's costs grow with the number of runs (issue 37), without a GPU: a device-free sweep
of N configs x 1 run of one annotated region (the engine's real plan, Session, journal and
tables around a made-up tool, ``_test_profile_without_device``), then the files it wrote and
the commands on them.

    python3 bench/scale.py --runs 1000,10000,100000 [--build build] [--out out/scale]

Per N, in a fresh process each: the sweep's wall time, the growth of the process's resident
memory over the sweep, the journal's and the JSON result's bytes, ``to_json``'s and
``kscope.load``'s times (the result, then the journal); then ``kscope show``, ``kscope compare``
(the result against itself) and ``kscope merge`` (of two shards of the sweep, N/2 configs each)
through the engine's executable, each with its wall time and its peak RSS (``wait4``). Prints
one JSON object: per N its figures.
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


def sweep(runs: int, out: str, shard: tuple[int, int] | None) -> dict[str, Any]:
    """In this process: the sweep of ``runs`` configs (or its shard), its files, write and load."""
    sys.path.insert(0, str(ROOT / "python"))
    import kscope
    from kscope._native import native

    native.profile = native._test_profile_without_device

    @kscope.analyze.kernel(configs=list(range(runs)), runs=1, output_prefix=out + "/", shard=shard,
                           thermal_mode="off", output_csv=False, verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def bench(k: int) -> None:
        with kscope.annotate("a"):
            pass

    before = rss_bytes()
    t0 = time.perf_counter()
    result = bench()
    sweep_s = time.perf_counter() - t0
    grown = rss_bytes() - before
    path = out + "/result.json"
    t0 = time.perf_counter()
    result.to_json(path)
    write_s = time.perf_counter() - t0
    journal = result.journal_path
    del result
    t0 = time.perf_counter()
    kscope.load(path)
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    kscope.load(journal)
    journal_load_s = time.perf_counter() - t0
    return {"sweep_s": sweep_s, "rss_growth_bytes": grown, "journal_bytes": os.path.getsize(journal),
            "result_bytes": os.path.getsize(path), "write_s": write_s, "load_s": load_s,
            "journal_load_s": journal_load_s, "result": path, "journal": journal}


def in_child(runs: int, out: str, shard: tuple[int, int] | None = None) -> dict[str, Any]:
    """sweep() in a fresh interpreter, so that each size's memory is its own."""
    os.makedirs(out, exist_ok=True)
    argv = [sys.executable, __file__, "--child", str(runs), "--out", out]
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


def measure(runs: int, out: Path, kscope_cli: str) -> dict[str, Any]:
    whole = in_child(runs, str(out / f"n{runs}"))
    shards = [in_child(runs, str(out / f"n{runs}-shard{i}"), (i, 2)) for i in range(2)]
    merged = str(out / f"n{runs}-merged.json")
    whole["show"] = command([kscope_cli, "show", whole["result"]])
    whole["compare"] = command([kscope_cli, "compare", whole["result"], whole["result"]])
    whole["merge"] = command([kscope_cli, "merge", shards[0]["journal"], shards[1]["journal"], "-o", merged])
    return whole


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="1000,10000,100000", help="comma-separated sweep sizes")
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/scale")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--shard", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        shard = None
        if args.shard:
            index, count = args.shard.split("/")
            shard = (int(index), int(count))
        print(json.dumps(sweep(args.child, args.out, shard)))
        return 0
    kscope_cli = str((ROOT / args.build / "cli" / "kscope").resolve())
    out = (ROOT / args.out).resolve()
    sizes = [int(n) for n in args.runs.split(",")]
    print(json.dumps({"sizes": {str(n): measure(n, out, kscope_cli) for n in sizes}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
