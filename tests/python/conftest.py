"""pytest setup for kscope's Python tests.

- Marker ``gpu``: the test needs a usable CUDA device. The engine decides
  (``kscope.device_available()``); without one the test is skipped with its reason.
- Every test starts with no active tool (the tool selection is process-global).
- Fixture ``fake_engine``: replaces the engine's ``profile`` with a GPU-free stand-in that
  drives the Python callbacks from C++ exactly as ``profile`` does (GIL released) and returns
  engine Results with synthetic values (see fake_engine.py).
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import kscope  # noqa: E402
from kscope import tools_manager  # noqa: E402
from kscope._native import native  # noqa: E402

_DEVICE_OK, _DEVICE_REASON = kscope.device_available(), kscope.device_unavailable_reason()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "gpu: needs a usable CUDA device (auto-skipped without one)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _DEVICE_OK:
        return
    skip = pytest.mark.skip(reason=f"no usable CUDA device: {_DEVICE_REASON}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _no_active_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools_manager, "_active_tool", None)


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch, tmp_path):
    """The engine's profile() replaced by fake_engine.FakeEngine; yields the fake (its
    ``calls`` list records every session)."""
    from fake_engine import FakeEngine

    engine = FakeEngine(str(tmp_path))
    monkeypatch.setattr(native, "profile", engine.profile)
    yield engine


@pytest.fixture
def gpu_warmup() -> None:
    """Initialises CUDA through torch before a GPU test (torch is on the GPU machine)."""
    torch = pytest.importorskip("torch")
    torch.zeros(1, device="cuda")
    torch.cuda.synchronize()


__all__ = ["kscope"]
