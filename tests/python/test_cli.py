"""The one ``kscope`` command: ``python3 -m kscope`` (the wheel's console script runs the same
``main``) reaches the Python ``plot`` and the engine's subcommands, documents its exit codes,
and exits 2 on usage errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from plot_helpers import PYTHON_DIR, run_cli

from kscope import __main__ as cli
from kscope import _engine_cli

ROOT = os.path.dirname(PYTHON_DIR)
ENGINE_COMMANDS = ("show", "query-metrics", "check-metrics", "import-ncu", "merge")


def _engine_tool_built() -> bool:
    try:
        _engine_cli.executable()
    except _engine_cli.EngineToolMissing:
        return False
    return True


needs_engine_tool = pytest.mark.skipif(
    not _engine_tool_built(), reason="the kscope executable is not built (target kscope_cli)"
)


def test_help_lists_every_subcommand_and_the_exit_codes():
    done = run_cli("--help")
    assert done.returncode == 0
    for command in (*ENGINE_COMMANDS, "plot"):
        assert re.search(rf"^\s+{command}\s", done.stdout, flags=re.M), done.stdout
    assert "exit status:" in done.stdout
    assert re.search(r"^\s+2\s+usage error", done.stdout, flags=re.M)
    assert done.stdout.startswith("usage: kscope ")


def test_no_command_prints_the_help_and_exits_2():
    done = run_cli()
    assert done.returncode == 2
    assert "commands:" in done.stderr


def test_an_unknown_command_is_a_usage_error():
    done = run_cli("frobnicate")
    assert done.returncode == 2
    assert "invalid choice: 'frobnicate'" in done.stderr


def test_version():
    done = run_cli("--version")
    assert done.returncode == 0
    assert re.fullmatch(r"kscope \d+\.\d+\.\d+\n", done.stdout)


def test_the_console_script_runs_the_same_main():
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["name"] == "kernelscope"
    assert project["scripts"] == {"kscope": "kscope.__main__:main"}
    assert callable(cli.main)


@needs_engine_tool
def test_the_engine_subcommands_are_the_engine_tools():
    done = subprocess.run([_engine_cli.executable(), "--help"], capture_output=True, text=True)
    listed = re.findall(r"^  ([a-z][a-z-]+)\s", done.stdout.split("Subcommands:")[1], flags=re.M)
    assert sorted(listed) == sorted(_engine_cli.COMMANDS) == sorted(ENGINE_COMMANDS)


@needs_engine_tool
def test_query_metrics_reaches_the_engine_tool():
    done = run_cli("query-metrics", "--chip", "GH100")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Chip GH100\n")
    assert "gpu__time_duration" in done.stdout


@needs_engine_tool
def test_engine_errors_keep_the_engine_tools_status_and_message(tmp_path):
    args = ["show", str(tmp_path / "missing.json")]
    done = run_cli(*args)
    direct = subprocess.run([_engine_cli.executable(), *args], capture_output=True, text=True)
    assert done.returncode == direct.returncode != 0
    assert done.stderr == direct.stderr and "missing.json" in done.stderr


def test_a_missing_engine_tool_is_one_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KSCOPE_CLI", str(tmp_path / "nope"))
    assert cli.main(["show", "x.json"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kscope: error: the engine's command-line tool ")
    assert "$KSCOPE_CLI" in err and "nope" in err


def test_the_engine_tools_signal_becomes_128_plus_n(tmp_path, monkeypatch):
    script = tmp_path / "kscope"
    script.write_text("#!/bin/sh\nkill -TERM $$\n")
    script.chmod(0o755)
    monkeypatch.setenv("KSCOPE_CLI", str(script))
    assert cli.main(["show", "x.json"]) == 128 + 15


def test_python_m_kscope_and_main_agree():
    done = subprocess.run([sys.executable, "-m", "kscope", "--help"], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=PYTHON_DIR))  # fmt: skip
    assert done.returncode == 0
    assert done.stdout == run_cli("--help").stdout
