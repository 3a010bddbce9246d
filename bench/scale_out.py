"""The scale-out sweep (issue 40), one program for every launcher: 16 configs, torch a + b of
2^14 to 2^29 floats, 20 runs, the cupti tool, measured with shard="auto" (every config in one
process, or this rank's share under torchrun, Slurm or MPI) on the GPU of the local rank.

    python3 bench/scale_out.py --out DIR
    torchrun --nproc-per-node=4 bench/scale_out.py --out DIR
    mpirun -n 4 python3 bench/scale_out.py --out DIR

Writes the journal(s) under DIR (rank<i>-journal-add-0.jsonl under a launcher) and prints one
JSON line per process, {"rank": i, "ranks": n, "configs": [...], "uuid": ...}, or {"skipped":
why} without a GPU or torch. bench/run_bench.py (part scale_out) runs it alone and under 4 ranks
on one GPU and merges the ranks' journals.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "bench"))

import kscope  # noqa: E402
from gpu_script import skip_reason  # noqa: E402

#: The sizes, floats.
SIZES = [1 << s for s in range(14, 30)]
RUNS = 20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder of the journal(s)")
    args = parser.parse_args()
    why = skip_reason()
    if why:
        print(json.dumps({"skipped": why}))
        return 0
    import torch

    @kscope.analyze.kernel(configs=SIZES, runs=RUNS, output_prefix=os.path.join(args.out, ""),
                           shard="auto")  # fmt: skip
    def add(n: int) -> None:
        a = torch.ones(n, device="cuda")
        b = torch.ones(n, device="cuda")
        with kscope.annotate("add"):
            torch.add(a, b)

    r = add()
    print(json.dumps({"rank": r.metadata["shard_index"], "ranks": r.metadata["shard_count"],
                      "configs": sorted(int(n) for n in set(r.to_dataframe()["n"])),
                      "uuid": r.metadata["uuid"]}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
