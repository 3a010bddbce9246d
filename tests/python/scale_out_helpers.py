"""Shared parts of the tests that run the scale-out recipes (examples/scale_out/*.sh) under a real
launcher (tests/python/test_slurm.py, test_mpi.py): a working directory holding the recipes'
bench.py (tests/scale_out/bench.py, the CPU test entry), an environment in which ``python`` and
``kscope`` are this checkout's, and the check that a merge equals one process's sweep."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
from script_runner import PYTHON_DIR

import kscope

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "examples" / "scale_out"
SCALE_OUT = ROOT / "tests" / "scale_out"
#: The launchers' rank variables of the process running the tests are not the recipes'.
LAUNCHER_VARIABLES = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID")
LAUNCHER_PREFIXES = ("SLURM_", "OMPI_", "PMIX_")


def workdir(tmp_path: Path) -> Path:
    """A directory with bench.py and a ``bin`` holding a ``kscope`` command of this checkout."""
    work = tmp_path / "work"
    (work / "bin").mkdir(parents=True)
    shutil.copy(SCALE_OUT / "bench.py", work / "bench.py")
    command = work / "bin" / "kscope"
    command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "import sys, kscope_launcher; '
                       f'sys.exit(kscope_launcher.main())" "$@"\n')  # fmt: skip
    command.chmod(0o755)
    return work


def environment(work: Path, **variables: str) -> dict[str, str]:
    """This process's environment without launcher variables, with ``python`` (this
    interpreter's directory) and ``kscope`` first on PATH and this checkout's package; then
    ``variables``."""
    env = {k: v for k, v in os.environ.items()
           if k not in LAUNCHER_VARIABLES and not k.startswith(LAUNCHER_PREFIXES)}  # fmt: skip
    path = os.pathsep.join([str(work / "bin"), os.path.dirname(sys.executable), env["PATH"]])
    env.update(PATH=path, PYTHONPATH=PYTHON_DIR, BENCH_SLEEP_S="0.05")
    env.update(variables)
    return env


def run(args: list[str], work: Path, env: dict[str, str],
        timeout: float = 120) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Runs `args` in `work`; fails the test with its output when it fails."""
    done = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{args}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def assert_merge_is_one_sweep(work: Path, env: dict[str, str], ranks: int) -> None:
    """out/bench.json (the recipe's merge of `ranks` journals) equals, table and raw runs, the
    sweep bench.py measures alone in one process."""
    journals = sorted(p.name for p in (work / "out").glob("rank*-journal-bench-0.jsonl"))
    assert journals == [f"rank{i}-journal-bench-0.jsonl" for i in range(ranks)]
    run([sys.executable, "bench.py", "single/"], work, env)
    merged = kscope.load(work / "out" / "bench.json")
    whole = kscope.load(work / "single" / "journal-bench-0.jsonl")
    assert merged.complete
    pd.testing.assert_frame_equal(merged.to_dataframe(), whole.to_dataframe())
    pd.testing.assert_frame_equal(merged.raw_dataframe(), whole.raw_dataframe())
    assert len(merged.raw_dataframe()) == 12 * 3 * 2  # configs x runs x annotations


def assert_interleaved_shares(work: Path, ranks: int) -> None:
    """Rank i's journal holds configs i, i + ranks, ... and says it is share i of `ranks`."""
    for i in range(ranks):
        part = kscope.load(work / "out" / f"rank{i}-journal-bench-0.jsonl")
        assert (part.metadata["shard_index"], part.metadata["shard_count"]) == (i, ranks)
        assert sorted(set(part.to_dataframe()["k"])) == list(range(i, 12, ranks))
