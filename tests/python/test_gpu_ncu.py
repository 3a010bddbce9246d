"""The ncu tool from Python: a script re-run under Nsight Compute (GPU and ncu needed).

Runs in a subprocess because the ncu tool re-executes the whole program: under pytest that
would re-run the test session."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.gpu
PYTHON_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "python")

SCRIPT = textwrap.dedent(
    """
    import torch
    import kscope

    @kscope.analyze.kernel(configs=[(1 << 20,), (1 << 22,)], runs=2, tool="ncu",
                           metrics=["gpu__time_duration.sum", "dram__bytes_read.sum"],
                           verbosity=kscope.VerbosityLevel.SILENT)
    def vadd(n):
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        with kscope.annotate("add"):
            torch.add(a, b)

    df = vadd().to_dataframe()
    assert (df["AvgValue"] > 0).all(), df
    print("ROWS", len(df), sorted(set(df["Metric"])), sorted(set(df["Unit"])))
    """
)


def test_ncu_tool_from_a_python_script(tmp_path):
    if not (os.environ.get("KSCOPE_NCU") or shutil.which("ncu")
            or os.path.exists("/usr/local/cuda/bin/ncu")):  # fmt: skip
        pytest.skip("Nsight Compute (ncu) is not installed")
    pytest.importorskip("torch")
    script = tmp_path / "ncu_script.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=500)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "ROWS 4 ['dram__bytes_read.sum', 'gpu__time_duration.sum']" in done.stdout
