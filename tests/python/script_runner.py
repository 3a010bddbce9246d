"""Runs a Python script in a fresh interpreter with this checkout's kscope importable: for the
tools that re-execute the program (ncu), which under pytest would re-run the test session."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PYTHON_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "python")


def skip_without_ncu() -> None:
    if not (os.environ.get("KSCOPE_NCU") or shutil.which("ncu")
            or os.path.exists("/usr/local/cuda/bin/ncu")):  # fmt: skip
        pytest.skip("Nsight Compute (ncu) is not installed")


def run_script(directory: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    """Writes ``source`` to ``directory/name`` and runs it there; fails the test on a non-zero
    exit status, showing the ends of its output."""
    script = directory / name
    script.write_text(source)
    path = os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, str(script)], cwd=directory, text=True,
                          env=dict(os.environ, PYTHONPATH=path), capture_output=True,
                          timeout=500)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done
