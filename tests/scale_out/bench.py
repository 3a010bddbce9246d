"""The bench.py of the scale-out recipes (examples/scale_out/*.sh) in the tests: a sweep of 12
configs through the engine's real session, shard, journal and resume without a device (the CPU
test entry, ``_test_profile_without_device``), every config sleeping BENCH_SLEEP_S seconds so
that the ranks overlap in time and one can be cancelled in the middle of its share.

Usage: ``python bench.py OUT [i/n]``: shard ``"auto"`` (the launcher's rank), or share ``i`` of
``n``, which resumes from that share's journal in OUT when there is one. Prints each config it
measures as ``MEASURED <k>``."""

from __future__ import annotations

import os
import sys
import time

import kscope
from kscope._native import native

native.profile = native._test_profile_without_device  # the CPU test entry
SLEEP_S = float(os.environ.get("BENCH_SLEEP_S", "0.05"))


def main() -> None:
    out = sys.argv[1]
    shard: str | tuple[int, int] = "auto"
    resume = None
    if len(sys.argv) > 2:
        i, n = (int(v) for v in sys.argv[2].split("/"))
        shard = (i, n)
        journal = os.path.join(out, f"rank{i}-journal-bench-0.jsonl")
        resume = journal if os.path.exists(journal) else None

    @kscope.analyze.kernel(configs=list(range(12)), runs=3, output_prefix=os.path.join(out, ""),
                           thermal_mode="off", shard=shard, resume=resume,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def bench(k: int) -> None:
        print("MEASURED", k, flush=True)
        time.sleep(SLEEP_S)
        with kscope.annotate("a"):
            pass
        with kscope.annotate("b"):
            pass

    bench()


if __name__ == "__main__":
    main()
