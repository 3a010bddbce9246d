"""Shared helpers of the tests of the ``kscope`` command: running it as the console script does
(the launcher, in a subprocess, with this checkout's package) and skipping what needs the
engine's executable when it is not built."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from plot_helpers import PYTHON_DIR

import kscope_launcher

#: The console script's body: what ``kscope ARGS`` runs once the wheel is installed.
LAUNCHER = "import sys, kscope_launcher; sys.exit(kscope_launcher.main())"


def environment(**variables: str) -> dict[str, str]:
    """This process's environment for the command: this checkout's package, the Agg backend,
    no colour settings of the caller's; then ``variables``."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(PYTHONPATH=PYTHON_DIR, MPLBACKEND="Agg")
    env.update(variables)
    return env


def run_kscope(*args: str, cwd: str | None = None, **variables: str) -> subprocess.CompletedProcess[str]:
    """``kscope *args`` through the launcher, in a pipe."""
    return subprocess.run([sys.executable, "-c", LAUNCHER, *args], cwd=cwd,
                          env=environment(**variables), capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def _engine_tool_missing() -> str:
    try:
        kscope_launcher.executable()
    except kscope_launcher.EngineToolMissing as missing:
        return str(missing)
    return ""


#: Skips a test that needs the engine's executable (target kscope_cli) when it is not built.
needs_engine_tool = pytest.mark.skipif(bool(_engine_tool_missing()),
                                       reason=f"the kscope executable is not built: "
                                       f"{_engine_tool_missing()}")  # fmt: skip
