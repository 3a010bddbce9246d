"""Tool selection: activate / deactivate / get_active_tool and the tool a
decorated function uses."""

from __future__ import annotations

import shutil

import pytest

import kscope
from kscope import tools_manager
from kscope.exceptions import NCUNotAvailableError, NotSupportedError

SILENT = kscope.VerbosityLevel.SILENT


@pytest.fixture
def ncu_in_build(monkeypatch):
    monkeypatch.setattr(tools_manager, "_engine_tools", lambda: ["cupti", "ncu", "sanitizer"])


def test_tool_members():
    assert [(t.name, t.value) for t in kscope.Tool] == [
        ("CUPTI", "cupti"), ("NCU", "ncu"), ("SANITIZER", "sanitizer")]  # fmt: skip
    assert kscope.Tool.NCU == "ncu"


def test_nothing_active_at_start():
    assert kscope.get_active_tool() is None


def test_activate_cupti_and_again():
    kscope.activate(kscope.Tool.CUPTI)
    kscope.activate(kscope.Tool.CUPTI)
    assert kscope.get_active_tool() is kscope.Tool.CUPTI


def test_activate_needs_a_tool_member():
    with pytest.raises(ValueError, match=r"^tool must be a kscope\.Tool member \(one of \['CUPTI', "
                       r"'NCU', 'SANITIZER'\]\), got 'cupti'$"):  # fmt: skip
        kscope.activate("cupti")


def test_switching_tools_is_refused(ncu_in_build):
    kscope.activate(kscope.Tool.CUPTI)
    with pytest.raises(RuntimeError, match=r"^Tool\.CUPTI is already active; cannot switch to "
                       r"Tool\.NCU$"):  # fmt: skip
        kscope.activate(kscope.Tool.NCU)
    assert kscope.get_active_tool() is kscope.Tool.CUPTI


def test_deactivate_cupti():
    kscope.activate(kscope.Tool.CUPTI)
    kscope.deactivate()
    assert kscope.get_active_tool() is None
    kscope.deactivate()
    assert kscope.get_active_tool() is None


def test_tool_missing_from_the_build(monkeypatch):
    monkeypatch.setattr(tools_manager, "_engine_tools", lambda: ["cupti"])
    with pytest.raises(NotSupportedError, match=r"^tool 'ncu' is not available in this kscope "
                       r"build; available: 'cupti'\.$"):  # fmt: skip
        kscope.activate(kscope.Tool.NCU)
    assert kscope.get_active_tool() is None


def test_ncu_not_on_path(ncu_in_build, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(NCUNotAvailableError, match=r"^Nsight Compute CLI \(ncu\) is not available"):
        kscope.activate(kscope.Tool.NCU)
    assert kscope.get_active_tool() is None


def test_ncu_stays_active(ncu_in_build, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    kscope.activate(kscope.Tool.NCU)
    with pytest.warns(RuntimeWarning, match="NVIDIA Nsight Compute cannot be deactivated once "
                      "loaded; it stays the active tool for the lifetime of the process."):
        kscope.deactivate()
    assert kscope.get_active_tool() is kscope.Tool.NCU


def test_default_tool_is_cupti(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        pass

    f()
    assert fake_engine.calls[0]["options"].tool == "cupti"


def test_active_tool_is_used_at_call_time(fake_engine, ncu_in_build, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")

    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        pass

    kscope.activate(kscope.Tool.SANITIZER)
    f()
    assert fake_engine.calls[0]["options"].tool == "sanitizer"


@pytest.mark.parametrize("tool", [kscope.Tool.NCU, "ncu", "NCU"])
def test_decorator_tool_wins(fake_engine, tool):
    kscope.activate(kscope.Tool.CUPTI)

    @kscope.analyze.kernel(tool=tool, verbosity=SILENT)
    def f():
        pass

    f()
    assert fake_engine.calls[0]["options"].tool == "ncu"


def test_the_tool_enum_and_programs_are_the_engines_registry():
    import ast
    import typing
    from pathlib import Path

    from kscope import tools_manager
    from kscope._native import native

    engine = list(native.available_tools())
    assert [t.value for t in tools_manager.Tool] == engine
    assert [t.name for t in tools_manager.Tool] == [name.upper() for name in engine]
    # The names type checkers know (ToolName, and the Tool they see) are the engine's too.
    assert list(typing.get_args(tools_manager.ToolName)) == engine + [n.upper() for n in engine]
    source = ast.parse(Path(tools_manager.__file__).read_text())
    typed = next(
        node
        for node in ast.walk(source)
        if isinstance(node, ast.ClassDef) and node.name == "Tool"
    )
    members = [
        (statement.targets[0].id, statement.value.value)
        for statement in typed.body
        if isinstance(statement, ast.Assign)
    ]
    assert members == [(name.upper(), name) for name in engine]
    assert tools_manager.Tool.__doc__
    programs = {t.value: tools_manager._external_program(t) for t in tools_manager.Tool}
    assert programs == {"cupti": None, "ncu": "ncu", "sanitizer": "compute-sanitizer"}
