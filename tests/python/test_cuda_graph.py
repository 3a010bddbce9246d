"""cuda_graph=True from Python: bad values and a missing torch are named (class and text), and
the engine's real Session (``_test_profile_without_device``) runs the schedule through the
Python front's callbacks: warm-up runs call the function, the first measured run captures each
region and launches it once, later runs replay the regions in order inside their annotations
without calling the function. The torch capture is replaced by a recording fake here; the GPU
test (test_gpu_cuda_graph.py) measures with the real one."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

import kscope
import kscope.collection.core as core
from kscope._native import native
from kscope.exceptions import NotSupportedError

SILENT = kscope.VerbosityLevel.SILENT


class RecordingCapture:
    """The callbacks of kscope.cuda_graphs.TorchRegionCapture, recording what the engine asks."""

    events: list[str] = []

    def apply(self, options: Any) -> None:
        options.region_capture_begin = lambda name: self.events.append(f"begin {name}")
        options.region_capture_end = lambda failed: self.events.append(
            "end failed" if failed else f"launch in {native.current_annotation()}")
        options.region_capture_replay = lambda i: self.events.append(
            f"replay {i} in {native.current_annotation()}")
        options.region_capture_clear = lambda: self.events.append("clear")


@pytest.fixture
def recording(monkeypatch):
    RecordingCapture.events = []
    monkeypatch.setattr(core, "TorchRegionCapture", RecordingCapture)
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)
    return RecordingCapture.events


def test_cuda_graph_must_be_a_bool():
    with pytest.raises(TypeError, match=r"^cuda_graph must be a bool, got 'yes'$"):
        kscope.analyze.kernel(configs=[(1,)], cuda_graph="yes")


def test_cuda_graph_needs_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch raises ImportError
    with pytest.raises(NotSupportedError, match=r"^cuda_graph=True captures the annotated "
                       r"regions with PyTorch \(torch.cuda.CUDAGraph\), and torch cannot be "
                       r"imported \(.*\)\. Install torch, or leave cuda_graph False"):
        kscope.analyze.kernel(configs=[(1,)], cuda_graph=True)


def test_the_first_measured_run_captures_and_the_others_replay(recording, tmp_path):
    calls = []

    @kscope.analyze.kernel(configs=[(1,), (2,)], runs=3, warmup_runs=1, cuda_graph=True,
                           verbosity=SILENT)  # fmt: skip
    def bench(n):
        calls.append(n)
        with kscope.annotate("a"):
            recording.append(f"body a{n}")
        with kscope.annotate("b"):
            recording.append(f"body b{n}")

    results = bench()
    assert calls == [1, 1, 2, 2]  # per config: the warm-up run and the capturing run
    assert recording == [
        "body a1", "body b1",  # warm-up: the function as it is
        "begin a", "body a1", "launch in a", "begin b", "body b1", "launch in b",
        "replay 0 in a", "replay 1 in b", "replay 0 in a", "replay 1 in b",
        "clear",  # config 2 drops config 1's graphs
        "body a2", "body b2",
        "begin a", "body a2", "launch in a", "begin b", "body b2", "launch in b",
        "replay 0 in a", "replay 1 in b", "replay 0 in a", "replay 1 in b",
        "clear",  # the end of the sweep
    ]  # fmt: skip
    df = results.to_dataframe()
    assert sorted(set(df["Annotation"])) == ["a", "b"]
    assert df["NumRuns"].tolist() == [3, 3, 3, 3]  # replays count as runs, attributed per region
    path = tmp_path / "graphs.json"
    results.to_json(path)
    assert json.loads(path.read_text())["options"]["cuda_graph"] is True  # the file says how
