"""What journaling an ncu sweep part by part costs: the same sweep with the ncu tool in one
re-run (ncu_part_seconds larger than the sweep) and in parts (a short ncu_part_seconds, after
which kscope's rule makes every later part at least nine times a re-run's measured start-up
cost). Prints one JSON object: wall seconds, the parts each made, and the extra wall time of
the parted sweep as a share of it.

    python3 bench/ncu_parts.py [--configs 40] [--sleep 0.5] [--part-seconds 5]

Each config sleeps --sleep seconds outside its annotation and launches one torch add inside it,
so the sweep's length does not depend on ncu's per-kernel cost.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    import torch
    import kscope

    @kscope.analyze.kernel(configs=list(range(int(os.environ["CONFIGS"]))), runs=1, tool="ncu",
                           output_prefix=os.path.join(sys.argv[1], ""), thermal_mode="off",
                           ncu_part_seconds=float(os.environ["PART_SECONDS"]))
    def sweep(k):
        a = torch.ones(1 << 20, device="cuda")
        time.sleep(float(os.environ["SLEEP"]))
        with kscope.annotate("add"):
            torch.add(a, a)

    sweep()
    """
)


def run(configs: int, sleep: float, part_seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as out:
        script = Path(out) / "sweep.py"
        script.write_text(SCRIPT)
        env = dict(os.environ, PYTHONPATH=str(ROOT / "python"), CONFIGS=str(configs),
                   SLEEP=str(sleep), PART_SECONDS=str(part_seconds))  # fmt: skip
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, str(script), out], env=env, text=True,
                              capture_output=True)  # fmt: skip
        if done.returncode != 0:
            sys.exit(f"the sweep failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        wall = time.perf_counter() - t0
        parts = len(list(Path(out).glob("ncu-output-*.ncu-rep")))
    return {"wall_s": wall, "parts": parts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", type=int, default=40)
    parser.add_argument("--sleep", type=float, default=0.5)
    parser.add_argument("--part-seconds", type=float, default=5.0)
    a = parser.parse_args()
    one = run(a.configs, a.sleep, 1e6)
    parted = run(a.configs, a.sleep, a.part_seconds)
    extra = (parted["wall_s"] - one["wall_s"]) / parted["wall_s"]
    print(json.dumps({"one_rerun": one, "parts": parted, "part_seconds": a.part_seconds,
                      "extra_share_of_parted_wall": extra}))  # fmt: skip


if __name__ == "__main__":
    main()
