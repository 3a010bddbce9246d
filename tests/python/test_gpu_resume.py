"""A sweep killed with SIGKILL part-way resumes from its journal to the result of one
uninterrupted sweep: same configs, runs and rows, values within the run-to-run noise (GPU
needed; ncu too for the ncu tool). The script runs in its own process group, so the kill takes
ncu and its re-run program with it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from script_runner import PYTHON_DIR, describe, run_script, skip_without_ncu

pytestmark = pytest.mark.gpu

CONFIGS = 50

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    import torch
    import kscope

    out = sys.argv[1]
    calls = open(os.path.join(out, "calls.txt"), "a")

    @kscope.analyze.kernel(configs=list(range(CONFIGS)), runs=2, tool=os.environ["TOOL"],
                           output_prefix=os.path.join(out, ""), thermal_mode="off",
                           resume=os.environ.get("RESUME") or None, ncu_part_seconds=3)
    def sweep(k):
        calls.write(f"{k}\\n")
        calls.flush()
        a = torch.ones(1 << 20, device="cuda")
        b = torch.ones(1 << 20, device="cuda")
        time.sleep(0.05)  # a config takes ~0.1 s, so the kill lands mid-sweep
        with kscope.annotate("add"):
            torch.add(a, b)

    sweep().to_json(os.path.join(out, "result.json"))
    """
).replace("CONFIGS", str(CONFIGS))


def complete_configs(journal: Path) -> set[int]:
    """Configs whose two measured runs are in the journal (a cut last line is ignored)."""
    runs: dict[int, int] = {}
    if not journal.exists():
        return set()
    for line in journal.read_text().splitlines()[1:]:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        for run in entry.get("runs", []) if entry.get("kind") == "runs" else []:
            config = run[0]  # schema 2.0: [config, run, entered, failed]
            runs[config] = runs.get(config, 0) + 1
    return {c for c, n in runs.items() if n == 2}


def start(directory: Path, tool: str) -> subprocess.Popen[str]:
    (directory / "resume_script.py").write_text(SCRIPT)
    path = os.pathsep.join(p for p in [PYTHON_DIR, os.environ.get("PYTHONPATH", "")] if p)
    env = dict(os.environ, PYTHONPATH=path, TOOL=tool)
    return subprocess.Popen([sys.executable, "resume_script.py", str(directory)], cwd=directory,
                            env=env, text=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip


def kill_when(process: subprocess.Popen[str], journal: Path, at_least: int, limit_s: float) -> int:
    """SIGKILLs the script's process group once the journal holds `at_least` complete configs;
    returns how many it held then."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline and process.poll() is None:
        done = len(complete_configs(journal))
        if done >= at_least:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return done
        time.sleep(0.02)
    pytest.fail(f"the sweep did not reach {at_least} journaled configs in {limit_s} s "
                f"(exit status {process.poll()})")  # fmt: skip


def rows(result: dict) -> list[tuple]:
    return [(p["Annotation"], p["Metric"], p["config"], p["NumRuns"]) for p in result["processed"]]


@pytest.mark.parametrize(("tool", "kill_at"), [("cupti", 25), ("ncu", 1)])
def test_a_killed_sweep_resumes_to_the_uninterrupted_result(tmp_path, tool, kill_at):
    pytest.importorskip("torch")
    if tool == "ncu":
        skip_without_ncu()
    killed = tmp_path / "killed"
    whole = tmp_path / "whole"
    killed.mkdir()
    whole.mkdir()
    journal = killed / "journal-sweep-0.jsonl"

    held = kill_when(start(killed, tool), journal, kill_at, limit_s=300)
    assert held < CONFIGS, "the sweep ended before the kill"
    kept = complete_configs(journal)
    (killed / "calls.txt").write_text("")
    done = run_script(killed, "resume_script.py", SCRIPT, env={"TOOL": tool, "RESUME": str(journal)},
                      args=(str(killed),), check=False)  # fmt: skip
    assert done.returncode == 0, describe(done, killed)
    resumed_calls = {int(k) for k in (killed / "calls.txt").read_text().split()}
    assert resumed_calls == set(range(CONFIGS)) - kept, "only the configs the journal lacked"

    done = run_script(whole, "resume_script.py", SCRIPT, env={"TOOL": tool}, args=(str(whole),),
                      check=False)  # fmt: skip
    assert done.returncode == 0, describe(done, whole)
    resumed = json.loads((killed / "result.json").read_text())
    uninterrupted = json.loads((whole / "result.json").read_text())
    assert resumed["configs"] == uninterrupted["configs"]
    assert rows(resumed) == rows(uninterrupted)
    assert sorted((r["config"], r["run"]) for r in resumed["raw"]) == sorted(
        (r["config"], r["run"]) for r in uninterrupted["raw"])
    assert resumed["complete"]
    for a, b in zip(resumed["processed"], uninterrupted["processed"]):
        assert a["AvgValue"] == pytest.approx(b["AvgValue"], rel=0.25), (a, b)
    print(f"{tool}: killed with {held} of {CONFIGS} configs journaled; resumed {len(resumed_calls)}")
