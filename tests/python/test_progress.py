"""The sweep's progress in Jupyter: a tqdm.auto bar fed by the engine's progress updates when
tqdm and ipywidgets are installed; the engine's printed line everywhere else (terminal, logs,
notebooks without them). test_notebook_kernel.py runs it in a real kernel."""

from __future__ import annotations

import builtins
import sys
import types

import pytest

import kscope
from kscope import utils
from kscope._native import native


class FakeBar:
    """Records what a tqdm bar is told."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.n = 0
        self.postfix = ""
        self.closed = False
        self.history = []

    def set_postfix_str(self, text):
        self.postfix = text

    def refresh(self):
        self.history.append((self.n, self.postfix))

    def close(self):
        self.closed = True


def _update(config, num_configs, done, total, label, finished=False):
    u = native.ProgressUpdate()
    u.config, u.num_configs, u.done_runs, u.total_runs = config, num_configs, done, total
    u.label, u.finished = label, finished
    return u


def test_one_bar_per_sweep_follows_the_updates():
    bars = []

    def tqdm(**kwargs):
        bars.append(FakeBar(**kwargs))
        return bars[-1]

    show = utils.NotebookProgress(tqdm, "matmul")
    show(_update(0, 2, 0, 6, "n=1"))
    show(_update(1, 2, 3, 6, "n=2"))
    show(_update(1, 2, 6, 6, "n=2", finished=True))
    (bar,) = bars
    assert bar.kwargs == {"total": 6, "desc": "matmul", "unit": "run"}
    assert bar.history == [(0, "config 1/2 (n=1)"), (3, "config 2/2 (n=2)"),
                           (6, "config 2/2 (n=2)")]  # fmt: skip
    assert bar.closed
    show(_update(0, 1, 0, 1, ""))
    assert len(bars) == 2 and bars[1].history == [(0, "config 1/1")]


def _pretend_notebook(monkeypatch):
    shell = type("ZMQInteractiveShell", (), {})()
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))


def test_outside_a_notebook_the_engine_prints_its_line():
    assert not utils.in_notebook()
    assert utils.notebook_progress("f") is None


def test_in_a_notebook_with_tqdm_and_ipywidgets_a_bar(monkeypatch):
    pytest.importorskip("tqdm")
    pytest.importorskip("ipywidgets")
    _pretend_notebook(monkeypatch)
    assert isinstance(utils.notebook_progress("f"), utils.NotebookProgress)


def test_in_a_notebook_without_ipywidgets_the_engine_prints_its_line(monkeypatch):
    # tqdm.auto would warn "IProgress not found" and print a text bar of its own.
    _pretend_notebook(monkeypatch)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # import ipywidgets: ImportError
    assert utils.notebook_progress("f") is None


def test_in_a_notebook_without_tqdm_the_engine_prints_its_line(monkeypatch):
    _pretend_notebook(monkeypatch)
    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):
        if name.startswith("tqdm"):
            raise ImportError("No module named 'tqdm'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    assert utils.notebook_progress("f") is None


def test_the_engine_sends_a_sweeps_updates_instead_of_its_line(monkeypatch, capsys):
    updates = []
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)
    monkeypatch.setattr("kscope.collection.core.notebook_progress",
                        lambda name: updates.append if name == "f" else None)  # fmt: skip

    @kscope.analyze.kernel(configs=[(1,), (2,)], runs=2)
    def f(n):
        with kscope.annotate("a"):
            pass

    f()
    assert updates, "no progress update reached the display"
    assert [u.config for u in updates][0] == 0 and updates[-1].finished
    assert (updates[-1].done_runs, updates[-1].total_runs, updates[-1].num_configs) == (4, 4, 2)
    assert "Config 1/2" not in capsys.readouterr().out
