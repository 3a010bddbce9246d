"""The command the ncu and sanitizer tools re-run this program with (docs/tools/ncu.md)."""

from __future__ import annotations

import os
import sys
import textwrap
import types

from script_runner import FIXTURES_DIR, describe, run_script

import kscope
from kscope._native import native
from kscope.collection.reexec import flushing_in_child, reexec_command


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


def test_outside_the_child_the_benchmark_is_passed_as_it_is(monkeypatch):
    monkeypatch.delenv("KSCOPE_CHILD_SESSION", raising=False)

    def run(config):
        pass

    assert flushing_in_child(run) is run


FLUSH_SCRIPT = textwrap.dedent(
    """
    import kscope

    print("BEFORE THE SESSION")  # stdout is a pipe (and PYTHONUNBUFFERED unset): block-buffered

    @kscope.analyze.kernel(configs=[(1,)], runs=1, warmup_runs=0, tool="ncu",
                           verbosity=kscope.VerbosityLevel.SILENT)
    def bench(n):
        print("IN THE BENCHMARK")

    try:
        bench()
    except kscope.exceptions.ProfilerException as error:
        print("PARENT GOT", type(error).__name__)
    """
)


def test_the_re_run_program_keeps_what_python_printed(tmp_path):
    # A fake ncu (tests/fixtures/ncu/fake_ncu.sh) re-runs the script as ncu would; the child
    # ends with std::_Exit inside the engine. Without a GPU the child's session fails
    # (NoDeviceError); with one it runs the benchmark and the fake ncu leaves no report
    # (ToolError). Either way the child's output before and during the session must be there.
    fake_ncu = os.path.join(FIXTURES_DIR, "ncu", "fake_ncu.sh")
    done = run_script(tmp_path, "flush.py", FLUSH_SCRIPT, check=False,
                      env={"KSCOPE_NCU": fake_ncu, "FAKE_NCU_MODE": "exec",
                           "PYTHONUNBUFFERED": None})  # fmt: skip
    details = describe(done, tmp_path)
    assert done.returncode == 0, details
    assert done.stdout.count("BEFORE THE SESSION") == 2, details  # parent and child
    has_gpu, _ = native.device_available()
    assert done.stdout.count("IN THE BENCHMARK") == (1 if has_gpu else 0), details
    expected = "ToolError" if has_gpu else "NoDeviceError"
    assert f"PARENT GOT {expected}" in done.stdout, details
