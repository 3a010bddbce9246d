"""The cupti tool's launch__ and device__attribute_ metrics against Nsight Compute's on the
same kernels (GPU and ncu needed): every served metric of three kernels of different launch
shapes (a vector add, a cuBLAS GEMM, a reduction) must have ncu's value and unit. Runs in a
subprocess because the ncu tool re-executes the whole program."""

from __future__ import annotations

import json
import subprocess
import textwrap

import pytest
from script_runner import describe, run_script, skip_without_ncu

pytestmark = pytest.mark.gpu

SCRIPT = textwrap.dedent(
    """
    import json, os, sys
    import torch
    import kscope
    from kscope.collection import core

    METRICS = json.loads(os.environ["KSCOPE_TEST_METRICS"])
    TOOL = os.environ.get("KSCOPE_TEST_TOOL", "cupti")

    @kscope.analyze.kernel(configs=[("add",), ("gemm",), ("sum",)], runs=1, tool=TOOL,
                           metrics=["gpu__time_duration.sum", *METRICS],
                           verbosity=kscope.VerbosityLevel.SILENT,
                           output_prefix=os.path.join(os.getcwd(), TOOL + "_out", ""))
    def shapes(kind):
        a = torch.randn(1024, 1024, device="cuda")
        b = torch.randn(1024, 1024, device="cuda")
        a @ b  # cuBLAS's first call loads its kernels: outside the annotation
        with kscope.annotate(kind):
            if kind == "add":
                torch.add(a, b)
            elif kind == "gemm":
                a @ b
            else:
                a.sum()

    df = shapes().to_dataframe()
    rows = {f"{r.Annotation} {r.Metric}": [float(r.AvgValue), None if r.Unit != r.Unit else r.Unit]
            for r in df.itertuples()}
    print("RESULT " + json.dumps(rows))
    """
)


def _result(done):
    line = [l for l in done.stdout.splitlines() if l.startswith("RESULT ")]
    return json.loads(line[-1][len("RESULT "):]) if line else None


def test_launch_and_device_metrics_match_ncu(tmp_path):
    skip_without_ncu()
    pytest.importorskip("torch")
    import kscope_launcher

    listed = subprocess.run([kscope_launcher.executable(), "query-metrics", "--launch"],
                            capture_output=True, text=True, check=True)  # fmt: skip
    metrics = listed.stdout.split()
    env = {"KSCOPE_TEST_METRICS": json.dumps(metrics)}
    cupti = run_script(tmp_path, "cupti.py", SCRIPT, env={**env, "KSCOPE_TEST_TOOL": "cupti"})
    ncu = run_script(tmp_path, "ncu.py", SCRIPT, env={**env, "KSCOPE_TEST_TOOL": "ncu"})
    ours, theirs = _result(cupti), _result(ncu)
    assert ours and theirs, describe(cupti, tmp_path) + describe(ncu, tmp_path)
    mismatches = []
    for key, (value, unit) in sorted(theirs.items()):
        if key.endswith("gpu__time_duration.sum"):
            continue
        got = ours.get(key)
        # ncu prints waves per SM with two decimals (0.48 for 64/132): compare at its precision.
        tolerance = max(5e-4 * abs(value), 0.005 if key.endswith("waves_per_multiprocessor") else 0)
        if got is None or abs(got[0] - value) > tolerance or (got[1] or "") != (unit or ""):
            mismatches.append(f"{key}: kscope {got}, ncu {[value, unit]}")
    print("\n".join(mismatches))
    assert not mismatches, "\n".join(mismatches)
    assert len(theirs) >= 3 * (len(metrics) + 1)
