"""A sweep sharded by torchrun over two ranks on the one GPU of the test machine: each rank
measures its interleaved share on device 0, the ranks take turns through the GPU's lock (under
the ncu tool too: its parent holds the lock while the re-run child measures), and
the merge of their journals holds the configs, runs and rows of a single-process sweep, with
values within the run-to-run noise (GPU and torch needed)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest
from script_runner import PYTHON_DIR, describe, run_script, skip_without_ncu

import kscope

pytestmark = pytest.mark.gpu

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    import torch
    import kscope

    out = sys.argv[1]
    shard = "auto" if os.environ.get("SHARDED") else None

    @kscope.analyze.kernel(configs=[1 << s for s in range(14, 26)], runs=5,
                           output_prefix=os.path.join(out, ""), thermal_mode="off", shard=shard)
    def add(n):
        a = torch.ones(n, device="cuda")
        b = torch.ones(n, device="cuda")
        time.sleep(0.2)  # the ranks overlap in time, so one waits for the GPU's lock
        with kscope.annotate("add"):
            torch.add(a, b)

    r = add()
    print("RANK", os.environ.get("RANK"), "DEVICE", r.metadata["device"], r.metadata["uuid"],
          "CONFIGS", sorted(set(r.to_dataframe()["n"])))
    """
)


def test_two_torchrun_ranks_merge_to_one_sweep(tmp_path):
    pytest.importorskip("torch")
    sharded = tmp_path / "sharded"
    single = tmp_path / "single"
    sharded.mkdir()
    single.mkdir()
    (sharded / "shard_script.py").write_text(SCRIPT)
    path = os.pathsep.join(p for p in [PYTHON_DIR, os.environ.get("PYTHONPATH", "")] if p)
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node=2", "shard_script.py",
         str(sharded)],
        cwd=sharded, env=dict(os.environ, PYTHONPATH=path, SHARDED="1"), text=True,
        capture_output=True, timeout=400)  # fmt: skip
    assert done.returncode == 0, describe(done, sharded)
    output = done.stdout + done.stderr
    print(output[-3000:])
    assert re.search(r"Waiting for kscope process \d+ \(.*\), which measures on GPU GPU-", output)
    journals = sorted(str(p) for p in sharded.glob("rank*-journal-add-0.jsonl"))
    assert len(journals) == 2
    uuids = {json.loads(open(j).readline())["metadata"]["uuid"] for j in journals}
    assert len(uuids) == 1 and next(iter(uuids)).startswith("GPU-")

    run_script(single, "shard_script.py", SCRIPT, args=(str(single),))
    merged = kscope.load(*journals)
    (one,) = [str(p) for p in single.glob("journal-add-0.jsonl")]
    whole = kscope.load(one)
    a, b = merged.to_dataframe(), whole.to_dataframe()
    assert list(a["n"]) == list(b["n"])
    assert list(a["NumRuns"]) == list(b["NumRuns"]) == [5] * 12
    assert len(merged.raw_dataframe()) == len(whole.raw_dataframe()) == 60
    for x, y, n in zip(a["AvgValue"], b["AvgValue"], a["n"]):
        assert x == pytest.approx(y, rel=0.25), (n, x, y)
    print(merged.to_dataframe()[["n", "AvgValue", "NumRuns"]].to_string())


NCU_SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    import torch
    import kscope

    out = sys.argv[1]
    times = os.path.join(out, "times-" + os.environ["RANK"])

    @kscope.analyze.kernel(configs=[1 << 20, 1 << 22, 1 << 24, 1 << 26], runs=2, tool="ncu",
                           clock_control="none", output_prefix=os.path.join(out, ""),
                           thermal_mode="off", shard="auto")
    def add(n):
        with open(times, "a") as f:  # runs in ncu's re-run child only: while ncu measures
            print(time.time(), file=f)
        a = torch.ones(n, device="cuda")
        b = torch.ones(n, device="cuda")
        with kscope.annotate("add"):
            torch.add(a, b)

    r = add()
    print("RANK", os.environ["RANK"], "CONFIGS", sorted(set(r.to_dataframe()["n"])))
    """
)


def test_two_torchrun_ranks_under_ncu_take_turns_on_the_gpu(tmp_path):
    # The ncu parent holds the GPU's lock while its re-run child measures: the children of the
    # two ranks never run at the same time.
    skip_without_ncu()
    pytest.importorskip("torch")
    (tmp_path / "ncu_shard.py").write_text(NCU_SCRIPT)
    path = os.pathsep.join(p for p in [PYTHON_DIR, os.environ.get("PYTHONPATH", "")] if p)
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node=2", "ncu_shard.py",
         str(tmp_path)],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=path), text=True, capture_output=True,
        timeout=400)  # fmt: skip
    assert done.returncode == 0, describe(done, tmp_path)
    output = done.stdout + done.stderr
    assert len(re.findall(r"Waiting for kscope process \d+ \(.*\), which measures on GPU", output)) == 1, \
        output[-3000:]
    spans = []
    for rank in range(2):
        stamps = [float(t) for t in (tmp_path / f"times-{rank}").read_text().split()]
        spans.append((min(stamps), max(stamps)))
    (a0, a1), (b0, b1) = spans
    assert a1 < b0 or b1 < a0, f"the ranks' ncu children overlapped: {spans}"
    journals = sorted(str(p) for p in tmp_path.glob("rank*-journal-add-0.jsonl"))
    merged = kscope.load(*journals).to_dataframe()
    assert list(merged["n"]) == [1 << 20, 1 << 22, 1 << 24, 1 << 26]
    assert list(merged["NumRuns"]) == [2] * 4
