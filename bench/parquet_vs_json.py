"""Parquet against JSON for big results (issue 37), without a GPU: the device-free sweep of
bench/scale.py, N configs x 1 run (one raw row, one kernel span and seven host phases per run),
then, each in a fresh process: the result written as JSON and as Parquet from the same result
(the sweep's journal, loaded; write time, file size), each file read back by ``kscope.load`` (time, peak RSS of the process),
and ``kscope show`` of each file through the engine's executable (wall time, peak RSS).

    python3 bench/parquet_vs_json.py --runs 10000,100000,1000000 [--build build] [--out out/parquet]
        [--max-memory-gb 16]

``--max-memory-gb``: the address-space limit of every child (RLIMIT_AS), so that a reader that
would take the machine's memory fails instead ("out of memory" in its figures). Prints one JSON
object: per N its figures. docs/outputs.md ("JSON or Parquet") records them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]


def limit(gigabytes: float) -> Callable[[], None] | None:
    if not gigabytes:
        return None
    size = int(gigabytes * (1 << 30))
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (size, size))


def child(step: str, args: list[str], memory: float) -> dict[str, Any]:
    """``step`` of this script in a fresh interpreter: its figures and its peak RSS."""
    argv = [sys.executable, __file__, "--step", step, *args]
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=limit(memory))  # fmt: skip
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return {"error": (err.decode().strip().splitlines() or ["?"])[-1], "s": wall}
    figures: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return figures


def cli(argv: list[str], memory: float) -> dict[str, Any]:
    """scale.command with the memory limit: wall seconds and peak RSS of ``kscope ...``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=limit(memory))  # fmt: skip
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        return {"error": (err.strip().splitlines() or ["?"])[-1], "s": wall}
    return {"s": wall, "peak_rss_bytes": usage.ru_maxrss * 1024}


def step(name: str, paths: list[str]) -> dict[str, Any]:
    """One measurement in this (fresh) process."""
    sys.path.insert(0, str(ROOT / "python"))
    import kscope

    if name == "sweep":  # bench/scale.py's sweep; its journal is all this script needs of it
        from kscope._native import native

        native.profile = native._test_profile_without_device
        runs, out = int(paths[0]), paths[1]

        @kscope.analyze.kernel(configs=list(range(runs)), runs=1, output_prefix=out + "/",
                               thermal_mode="off", output_csv=False,
                               verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
        def bench(k: int) -> None:
            with kscope.annotate("a"):
                pass

        t0 = time.perf_counter()
        result = bench()
        return {"sweep_s": time.perf_counter() - t0, "journal": result.journal_path}
    if name == "write":  # from the same loaded result, each format in turn
        source, json_path, parquet_path = paths
        result = kscope.load(source)
        figures: dict[str, Any] = {}
        for fmt, path in (("json", json_path), ("parquet", parquet_path)):
            t0 = time.perf_counter()
            result.write(fmt, path)
            figures[fmt] = {"write_s": time.perf_counter() - t0, "bytes": os.path.getsize(path)}
        return figures
    t0 = time.perf_counter()
    loaded = kscope.load(paths[0])
    load_s = time.perf_counter() - t0
    return {"load_s": load_s, "rows": len(loaded.engine_results.raw),
            "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}


def measure(runs: int, out: Path, kscope_cli: str, memory: float) -> dict[str, Any]:
    os.makedirs(out / f"n{runs}", exist_ok=True)
    swept = child("sweep", [str(runs), str(out / f"n{runs}")], memory)
    files = {"json": str(out / f"n{runs}" / "r.json"), "parquet": str(out / f"n{runs}" / "r.parquet")}
    # From the sweep's journal, which loads in a fraction of the JSON's time and memory.
    written = child("write", [swept["journal"], files["json"], files["parquet"]], memory)
    figures: dict[str, Any] = {"raw_rows": runs, "sweep_s": swept["sweep_s"]}
    for fmt, path in files.items():
        figures[fmt] = {**written.get(fmt, {"write": written}),  # its error, if it failed
                        "load": child("load", [path], memory),
                        "show": cli([kscope_cli, "show", path], memory)}  # fmt: skip
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="10000,100000", help="comma-separated sweep sizes")
    parser.add_argument("--build", default="build")
    parser.add_argument("--out", default="out/parquet")
    parser.add_argument("--max-memory-gb", type=float, default=0.0)
    parser.add_argument("--step", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.step:
        print(json.dumps(step(args.step, rest)))
        return 0
    kscope_cli = str((ROOT / args.build / "cli" / "kscope").resolve())
    out = (ROOT / args.out).resolve()
    sizes = [int(n) for n in args.runs.split(",")]
    print(json.dumps({"sizes": {str(n): measure(n, out, kscope_cli, args.max_memory_gb)
                                for n in sizes}}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
