"""The colour rule of the ``kscope`` command (docs/cli.md, "Colour"), for the engine's executable
and for ``kscope plot``: colour on a terminal, none in a pipe, none under ``NO_COLOR`` or
``TERM=dumb``, colour in a pipe with ``FORCE_COLOR``. The terminal is a pseudo-terminal."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys

import pytest
from cli_helpers import LAUNCHER, environment, needs_engine_tool, run_kscope
from plot_helpers import golden_path

from kscope_launcher.colour import colour_for

SWEEP = golden_path("vadd_sweep.json")
ESCAPE = "\x1b["


def on_a_terminal(*args: str, **variables: str) -> str:
    """What ``kscope *args`` writes (stdout and stderr) with both on a pseudo-terminal."""
    master, slave = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", LAUNCHER, *args], stdin=subprocess.DEVNULL,
                               stdout=slave, stderr=slave,
                               env=environment(**{"TERM": "xterm", **variables}))  # fmt: skip
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    process.wait(timeout=120)
    return b"".join(chunks).decode()


def in_a_pipe(*args: str, **variables: str) -> str:
    done = run_kscope(*args, **{"TERM": "xterm", **variables})
    return done.stdout + done.stderr


@needs_engine_tool
def test_the_engines_table_and_errors_are_coloured_on_a_terminal_only():
    table = on_a_terminal("compare", SWEEP, SWEEP)
    assert f"{ESCAPE}1mAnnotation  Config" in table
    error = on_a_terminal("show", "missing.json")
    assert error.startswith(f"kscope: {ESCAPE}31merror:{ESCAPE}0m path: File does not exist")
    assert ESCAPE not in in_a_pipe("compare", SWEEP, SWEEP)
    assert ESCAPE in in_a_pipe("compare", SWEEP, SWEEP, FORCE_COLOR="1")


@needs_engine_tool
@pytest.mark.parametrize("variables", [{"NO_COLOR": "1"}, {"TERM": "dumb"},
                                       {"NO_COLOR": "1", "FORCE_COLOR": "1"}])  # fmt: skip
def test_no_colour_on_a_terminal_when_told(variables):
    assert ESCAPE not in on_a_terminal("compare", SWEEP, SWEEP, **variables)
    assert ESCAPE not in on_a_terminal("show", "missing.json", **variables)


def test_plots_messages_follow_the_same_rule(tmp_path):
    out = str(tmp_path / "v.png")
    chosen = on_a_terminal("plot", SWEEP, "-o", out)
    assert f"plotting the first, {ESCAPE}1mgpu__time_duration.sum{ESCAPE}0m;" in chosen
    error = on_a_terminal("plot", "missing.json")
    assert error.startswith(f"kscope: {ESCAPE}31merror:{ESCAPE}0m argument input:")
    assert ESCAPE not in on_a_terminal("plot", "missing.json", NO_COLOR="1")
    assert ESCAPE not in in_a_pipe("plot", SWEEP, "-o", out)
    assert ESCAPE in in_a_pipe("plot", "missing.json", FORCE_COLOR="yes")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("variables", "terminal", "expected"),
    [({}, True, True), ({}, False, False), ({"NO_COLOR": ""}, True, True),
     ({"NO_COLOR": "1"}, True, False), ({"FORCE_COLOR": "1"}, False, True),
     ({"FORCE_COLOR": "0"}, False, False), ({"FORCE_COLOR": ""}, False, False),
     ({"NO_COLOR": "x", "FORCE_COLOR": "1"}, False, False), ({"TERM": "dumb"}, True, False)],
)  # fmt: skip
def test_the_rule(monkeypatch, variables, terminal, expected):
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm")
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    stream = _Terminal() if terminal else io.StringIO()
    assert colour_for(stream) is expected
