"""The one ``kscope`` command: the console script's launcher (``kscope_launcher.main``, also run
by ``python3 -m kscope``) runs ``plot`` in Python and becomes the engine's executable for
everything else, help, version and usage errors included."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from cli_helpers import LAUNCHER, environment, needs_engine_tool
from plot_helpers import PYTHON_DIR, run_cli

import kscope_launcher
from kscope import __main__ as cli

ROOT = os.path.dirname(PYTHON_DIR)
ENGINE_COMMANDS = ("show", "query-metrics", "check-metrics", "import-ncu", "merge", "compare")



def _listed_subcommands(help_text: str) -> list[str]:
    section = help_text.split("Subcommands:\n")[1].split("\n\n")[0]
    return re.findall(r"^  ([a-z][a-z-]+)\s", section, flags=re.M)


@needs_engine_tool
def test_help_lists_every_subcommand_plot_included_and_every_exit_status():
    done = run_cli("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("kscope ")
    assert "\nUsage: kscope [OPTIONS] SUBCOMMAND\n" in done.stdout
    assert _listed_subcommands(done.stdout) == [*ENGINE_COMMANDS, "plot"]
    statuses = re.findall(r"^  (\S+)\s", done.stdout.split("Exit status:\n")[1], flags=re.M)
    assert statuses == ["0", "1", "2", "3", "128+N"]


@needs_engine_tool
def test_no_command_prints_the_help_on_stderr_and_exits_2():
    done = run_cli()
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Subcommands:" in done.stderr and "Exit status:" in done.stderr


@needs_engine_tool
def test_an_unknown_command_is_a_usage_error_naming_them_all():
    done = run_cli("frobnicate")
    assert done.returncode == 2
    assert done.stderr == (
        "kscope: error: unknown subcommand 'frobnicate' (expected one of: show, query-metrics, "
        "check-metrics, import-ncu, merge, compare, plot)\nRun 'kscope --help' for usage.\n"
    )


@needs_engine_tool
def test_version():
    done = run_cli("--version")
    assert done.returncode == 0
    assert re.fullmatch(r"kscope \d+\.\d+\.\d+\n", done.stdout)


def test_the_console_script_is_the_launcher_and_the_wheel_ships_it():
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        toml = tomllib.load(f)
    assert toml["project"]["name"] == "kernelscope"
    assert toml["project"]["scripts"] == {"kscope": "kscope_launcher:main"}
    assert toml["tool"]["scikit-build"]["wheel"]["packages"] == [
        "python/kscope", "python/kscope_launcher"]  # fmt: skip
    assert cli.main is kscope_launcher.main


@needs_engine_tool
def test_the_engines_executable_lists_plot_and_says_where_it_is():
    done = subprocess.run([kscope_launcher.executable(), "plot", "x.json"], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith("kscope: error: plot is part of the Python package's kscope "
                                  "command (pip install 'kernelscope[plot]')")  # fmt: skip


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
    direct = subprocess.run([kscope_launcher.executable(), *args], capture_output=True, text=True)
    assert done.returncode == direct.returncode == 2
    assert done.stderr == direct.stderr and "missing.json" in done.stderr


def test_a_missing_engine_tool_is_one_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KSCOPE_CLI", str(tmp_path / "nope"))
    assert cli.main(["show", "x.json"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kscope: error: the engine's command-line tool ")
    assert "$KSCOPE_CLI" in err and "nope" in err


def test_an_engine_tool_that_cannot_run_is_one_clear_error(tmp_path, monkeypatch, capsys):
    broken = tmp_path / "kscope"
    broken.write_bytes(b"\x7fELF truncated")
    broken.chmod(0o755)
    monkeypatch.setenv("KSCOPE_CLI", str(broken))
    assert cli.main(["show", "x.json"]) == 1
    assert capsys.readouterr().err == (
        f"kscope: error: cannot run the engine's command-line tool {broken}: Exec format error\n")


def test_kscope_cli_names_the_executable_and_gets_the_arguments(tmp_path, monkeypatch):
    script = tmp_path / "kscope"
    script.write_text('#!/bin/sh\necho "$*"\nexit 7\n')
    script.chmod(0o755)
    monkeypatch.setenv("KSCOPE_CLI", str(script))
    done = run_cli("show", "x.json", "--format", "md")
    assert done.returncode == 7
    assert done.stdout == "show x.json --format md\n"


def test_the_engine_tools_signal_is_the_commands(tmp_path, monkeypatch):
    # The launcher becomes the executable (exec): a signal that ends it ends the command, which
    # a shell reports as 128 + N.
    script = tmp_path / "kscope"
    script.write_text("#!/bin/sh\nkill -TERM $$\n")
    script.chmod(0o755)
    monkeypatch.setenv("KSCOPE_CLI", str(script))
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    done = subprocess.run(["sh", "-c", f'"{sys.executable}" -m kscope show x.json; echo $?'],
                          capture_output=True, text=True, env=env)  # fmt: skip
    assert done.stdout == f"{128 + 15}\n"


@needs_engine_tool
def test_python_m_kscope_and_the_launcher_agree():
    launcher = subprocess.run([sys.executable, "-c", LAUNCHER, "--help"], capture_output=True,
                              text=True, env=environment())  # fmt: skip
    assert launcher.returncode == 0
    assert launcher.stdout == run_cli("--help").stdout
