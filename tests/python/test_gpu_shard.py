"""A sweep sharded by torchrun over two ranks on the one GPU of the test machine: each rank
measures its interleaved share on device 0, the ranks take turns through the GPU's lock, and
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
from script_runner import PYTHON_DIR, describe, run_script

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
