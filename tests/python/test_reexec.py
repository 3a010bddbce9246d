"""The command the ncu and sanitizer tools re-run this program with (docs/tools/ncu.md)."""

from __future__ import annotations

import sys
import types

import kscope
from kscope._reexec import reexec_command


def test_this_pytest_process_can_be_re_run():
    argv, reason = reexec_command()
    assert reason == ""
    assert argv[0] == sys.executable and argv[1:] == sys.orig_argv[1:]


def test_python_dash_c_cannot(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["-c"])
    assert reexec_command() == ([], "the program was given with `python -c`, which cannot be re-run")


def test_interactive_cannot(monkeypatch):
    monkeypatch.setattr(sys, "argv", [""])
    argv, reason = reexec_command()
    assert argv == [] and "interactively" in reason


def test_notebook_cannot(monkeypatch):
    fake_ipython = types.ModuleType("IPython")
    fake_ipython.get_ipython = lambda: object()
    monkeypatch.setitem(sys.modules, "IPython", fake_ipython)
    argv, reason = reexec_command()
    assert argv == [] and "IPython/Jupyter" in reason


def test_the_engine_gets_the_command(fake_engine):
    @kscope.analyze.kernel(verbosity=kscope.VerbosityLevel.SILENT)
    def f():
        pass

    f()
    options = fake_engine.calls[0]["options"]
    assert options.reexec_argv == [sys.executable, *sys.orig_argv[1:]]
    assert options.reexec_unavailable == ""
