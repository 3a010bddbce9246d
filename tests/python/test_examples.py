"""Runs every numbered example's main() (GPU tests; Triton's is skipped without triton).

Examples write their plots to the working directory: the test runs them in ``$KSCOPE_PLOT_OUT``
when set (to keep the PNGs), else in a temporary directory."""

from __future__ import annotations

import glob
import importlib.util
import os

import pytest

EXAMPLES = sorted(
    glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python", "[0-9]*.py"))
)


def test_examples_exist():
    assert [os.path.basename(p)[:2] for p in EXAMPLES] == [
        "00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "13"]  # fmt: skip


@pytest.mark.gpu
@pytest.mark.usefixtures("gpu_warmup")
@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p) for p in EXAMPLES])
def test_example(path, tmp_path, monkeypatch):
    if "triton" in os.path.basename(path):
        pytest.importorskip("triton")
    out = os.environ.get("KSCOPE_PLOT_OUT") or str(tmp_path)
    os.makedirs(out, exist_ok=True)
    monkeypatch.chdir(out)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    df = module.main()
    assert len(df) > 0
    assert (df["AvgValue"].dropna() > 0).all()
