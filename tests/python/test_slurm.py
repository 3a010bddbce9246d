"""A sweep on a real Slurm cluster of one host (tests/scale_out/slurm_cluster.sh: munged,
slurmctld and two slurmd nodes of 2 CPUs): the recipes of docs/scale-out.md
(examples/scale_out/slurm_tasks.sh with srun, slurm_array.sh as a job array) run bench.py, the
CPU test entry; every task measures its share, the merge equals one process's sweep, and an
array task cancelled by scancel resumes its share."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest
from scale_out_helpers import (RECIPES, SCALE_OUT, assert_interleaved_shares,
                               assert_merge_is_one_sweep, environment, run, workdir)  # fmt: skip

DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "srun", "scancel", "squeue", "sinfo")
CLUSTER = str(SCALE_OUT / "slurm_cluster.sh")


def _missing() -> str:
    if os.geteuid() != 0:
        return "slurmd starts the tasks as root: the test needs root"
    lacking = [d for d in DAEMONS if shutil.which(d, path=os.environ["PATH"] + ":/usr/sbin") is None]
    if lacking:
        return (f"Slurm is not installed ({', '.join(lacking)} missing): "
                "scripts/lib/install_deps.sh test installs it as root")  # fmt: skip
    return ""


pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "-")


@pytest.fixture
def slurm(tmp_path):
    """The started cluster's SLURM_CONF; afterwards, the daemons are stopped and their
    directory is gone."""
    state = tmp_path / "slurm"
    env = dict(os.environ, PATH=os.environ["PATH"] + ":/usr/sbin")
    started = subprocess.run([CLUSTER, "start", str(state)], capture_output=True, text=True,
                             env=env, timeout=60)  # fmt: skip
    pids = [int(p.read_text()) for p in state.glob("*.pid")] if state.exists() else []
    try:
        assert started.returncode == 0, started.stderr
        assert len(pids) == 4  # munged, slurmctld, two slurmd
        yield started.stdout.strip()
    finally:
        subprocess.run([CLUSTER, "stop", str(state)], env=env, timeout=60, check=True)
    assert not state.exists()
    assert [pid for pid in pids if _running(pid)] == []


def _running(pid: int) -> bool:
    """Whether the process runs (an ended daemon is a zombie until init reaps it)."""
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except FileNotFoundError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def _submit_and_wait(args: list[str], work, env) -> str:
    """Submits a job (sbatch ARGS), waits until it has left the queue and returns its id (sbatch
    --wait polls every few seconds, longer than the jobs take)."""
    job = run(["sbatch", "--parsable", *args], work, env).stdout.strip()
    _wait_for(job, work, env)
    return job


def _wait_for(job: str, work, env) -> None:
    deadline = time.monotonic() + 60
    while run(["squeue", "-h", "-j", job], work, env).stdout.strip():
        assert time.monotonic() < deadline, f"job {job} did not end in 60 s"
        time.sleep(0.1)


def test_srun_tasks_measure_their_shares_and_the_merge_is_one_sweep(slurm, tmp_path):
    work = workdir(tmp_path)
    env = environment(work, SLURM_CONF=slurm)
    _submit_and_wait(["--ntasks=4", str(RECIPES / "slurm_tasks.sh")], work, env)
    (log,) = work.glob("kscope-sweep-*.log")
    assert "Merged result: out/bench.json" in log.read_text()
    assert_interleaved_shares(work, 4)
    assert_merge_is_one_sweep(work, env, 4)


def _measured(log) -> set[int]:
    return {int(line.split()[1]) for line in log.read_text().splitlines()
            if line.startswith("MEASURED ")}  # fmt: skip


def test_an_array_task_cancelled_by_scancel_resumes_its_share(slurm, tmp_path):
    work = workdir(tmp_path)
    env = environment(work, SLURM_CONF=slurm, BENCH_SLEEP_S="0.3")
    script = str(RECIPES / "slurm_array.sh")
    job = run(["sbatch", "--parsable", "--array=0-3", script], work, env).stdout.strip()
    log = work / f"kscope-array-{job}_1.log"
    deadline = time.monotonic() + 60
    # Task 1 measures configs 1, 5, 9: cancelled in config 5, once config 1 is in its journal.
    while not (log.exists() and log.read_text().count("MEASURED 5") >= 2):
        assert time.monotonic() < deadline, "array task 1 did not reach config 5"
        time.sleep(0.05)
    run(["scancel", f"{job}_1"], work, env)
    _wait_for(job, work, env)
    assert "CANCELLED" in log.read_text()
    merge = ["kscope", "merge", *[f"out/rank{i}-journal-bench-0.jsonl" for i in range(4)],
             "-o", "out/bench.json"]  # fmt: skip
    refused = subprocess.run(merge, cwd=work, env=env, capture_output=True, text=True)
    assert refused.returncode != 0
    assert "Cannot merge: no part measured config(s) 5, 9" in refused.stderr

    again = _submit_and_wait(["--array=1", script], work, env)
    assert _measured(work / f"kscope-array-{again}_1.log") == {5, 9}  # config 1 was kept
    run(merge, work, env)
    assert_interleaved_shares(work, 4)
    assert_merge_is_one_sweep(work, env, 4)
