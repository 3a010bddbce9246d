"""Shared helpers of the plot tests: the Agg backend (nothing opens a window), the plot
goldens, and readers for what a matplotlib Figure shows."""

from __future__ import annotations

import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

from matplotlib.container import BarContainer, ErrorbarContainer  # noqa: E402

import kscope  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "fixtures", "golden")
TIME = "gpu__time_duration.sum"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(kscope.__file__)))


def run_cli(*args: str, cwd: str | None = None) -> subprocess.CompletedProcess:
    """``python3 -m kscope *args`` in a subprocess (Agg backend, this kscope on the path)."""
    env = dict(os.environ, MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join([PYTHON_DIR, env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-m", "kscope", *args], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=120)  # fmt: skip


def golden_path(name: str) -> str:
    """A plot golden (tests/fixtures/golden/plot/), or ``python/<name>`` for the Python ones."""
    sub = "" if "/" in name else "plot"
    return os.path.join(GOLDEN, sub, name)


def golden(name: str) -> kscope.ProfileResults:
    return kscope.load(golden_path(name))


def series_lines(ax):
    """The data lines of a line plot (legend entries), without error-bar and separator lines."""
    return [line for line in ax.get_lines() if not line.get_label().startswith("_")]


def bar_groups(ax):
    """Bar containers of the series (not the aggregate bars): label -> heights."""
    return {
        c.get_label(): [p.get_height() for p in c.patches]
        for c in ax.containers
        if isinstance(c, BarContainer) and not c.get_label().startswith("_")
    }


def aggregate_bars(ax, name):
    """Heights of the aggregate bars ``name`` ("Avg" or "Geomean"), in series order."""
    return [
        c.patches[0].get_height()
        for c in ax.containers
        if isinstance(c, BarContainer) and c.get_label() == f"_{name}"
    ]


def error_bars(ax):
    """The CI95 error-bar containers, keyed by series label."""
    return {
        c.get_label()[len("_ci95 ") :]: c
        for c in ax.containers
        if isinstance(c, ErrorbarContainer)
    }


def suptitle(fig):
    """The figure's title (``Figure.get_suptitle`` is matplotlib >= 3.8 only)."""
    getter = getattr(fig, "get_suptitle", None)
    return getter() if getter else fig._suptitle.get_text()


def legend_labels(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend else []


def tick_labels(ax):
    return [t.get_text() for t in ax.get_xticklabels()]


def value_texts(ax):
    return [t.get_text() for t in ax.texts]
