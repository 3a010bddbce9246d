"""kscope.release() and the torch.profiler hand-over, without a GPU: the wrapped entry points
release kscope's CUPTI state and then call torch's own, once wrapped they stay wrapped, and
without torch nothing happens."""

from __future__ import annotations

import sys
import types

import pytest

import kscope
from kscope import _cupti_handoff


def test_release_is_callable_with_nothing_held():
    kscope.release()
    kscope.release()


def test_torch_profiler_entry_points_release_first(monkeypatch):
    calls: list[str] = []
    fake = types.ModuleType("torch.autograd.profiler")
    fake._prepare_profiler = lambda config, activities: calls.append(f"prepare {config}")  # type: ignore[attr-defined]
    fake._enable_profiler = lambda config, activities: calls.append(f"enable {config}")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch.autograd.profiler", fake)
    monkeypatch.setattr(_cupti_handoff.native, "release", lambda: calls.append("release"))
    _cupti_handoff.hand_over_to_torch_profiler()
    _cupti_handoff.hand_over_to_torch_profiler()  # idempotent: wrapped once
    fake._prepare_profiler("cfg", [])  # type: ignore[attr-defined]
    fake._enable_profiler("cfg", [])  # type: ignore[attr-defined]
    assert calls == ["release", "prepare cfg", "release", "enable cfg"]


def test_without_torch_nothing_is_wrapped(monkeypatch):
    monkeypatch.delitem(sys.modules, "torch.autograd.profiler", raising=False)
    _cupti_handoff.hand_over_to_torch_profiler()  # no error, nothing to do


def test_a_sweep_hands_over(monkeypatch):
    pytest.importorskip("numpy")
    seen: list[bool] = []
    monkeypatch.setattr("kscope.collection.core.hand_over_to_torch_profiler", lambda: seen.append(True))
    ok = kscope.device_available()
    if ok:
        pytest.skip("checks the no-GPU path: the sweep fails before any GPU work")

    @kscope.analyze.kernel(configs=[1], thermal_mode="off", verbosity=kscope.VerbosityLevel.SILENT)
    def f(n: int) -> None:
        with kscope.annotate("a"):
            pass

    with pytest.raises(kscope.exceptions.ProfilerException):
        f()
    assert seen == [True]  # even when the sweep fails, the engine may hold CUPTI
