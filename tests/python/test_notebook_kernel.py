"""kscope in a real Jupyter kernel (tests/python/notebook_kernel.py): a device-free sweep (the
engine's CPU session, ``_test_profile_without_device``) in a notebook cell draws tqdm.auto's live
widget bar, fed by the engine's progress updates, which ends full and green; the results and a
comparison render as HTML tables."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
from notebook_kernel import PACKAGES, install_kernel_spec, require_packages

SWEEP = """
import kscope
from kscope._native import native

# The engine's device-free session: the real Session, journal and progress updates, with a
# stand-in collector (tests/python: the CPU test hook).
native.profile = native._test_profile_without_device

@kscope.analyze.kernel(configs=[(1,), (2,)], runs=3)
def sweep(n):
    with kscope.annotate("a<b>"):
        pass

results = sweep()
"""


def _run_notebook(cells: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Runs ``cells`` in a fresh kernel of this Python, with this process's kscope importable;
    returns the executed notebook, its widget states in ``metadata.widgets``."""
    import nbformat
    from nbclient import NotebookClient

    kernel = install_kernel_spec(tmp_path, monkeypatch)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = NotebookClient(notebook, kernel_name=kernel, timeout=120,
                            startup_timeout=120, store_widget_state=True,
                            resources={"metadata": {"path": str(tmp_path)}})  # fmt: skip
    client.execute()
    return notebook


def _models(notebook: Any, name: str) -> list[dict[str, Any]]:
    state = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    return [m["state"] for m in state.values() if m["model_name"] == name]


def test_a_sweep_in_a_kernel_shows_a_live_bar_and_html_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_packages()
    notebook = _run_notebook([SWEEP, "results", "kscope.compare(results, sweep())"],
                             tmp_path, monkeypatch)  # fmt: skip
    sweep, shown, compared = notebook.cells

    # The bar: a widget in the cell's output, tqdm's text form beside it.
    widgets = [o for o in sweep.outputs if o.output_type == "display_data"
               and "application/vnd.jupyter.widget-view+json" in o.data]  # fmt: skip
    assert len(widgets) == 1, sweep.outputs
    assert widgets[0].data["text/plain"].startswith("sweep:")
    # The final states of both sweeps' bars (the third cell runs the second): full (2 configs x
    # 3 runs), closed as complete, the last config named.
    bars = [(b["value"], b["max"], b["bar_style"]) for b in _models(notebook, "FloatProgressModel")]
    assert bars == [(6.0, 6.0, "success")] * 2
    # tqdm.notebook writes figure spaces (U+2007) for spaces.
    texts = [m["value"].replace("\u2007", " ") for m in _models(notebook, "HTMLModel")]
    assert any(t.startswith("sweep: 100%") for t in texts), texts
    assert any("6/6" in t and "config 2/2 (n=2)" in t for t in texts), texts
    # The bar replaces the engine's printed progress line; tqdm found its widgets.
    streams = "".join(o.get("text", "") for o in sweep.outputs if o.output_type == "stream")
    assert "Config 1/2" not in streams
    assert "IProgress not found" not in streams
    assert "[kscope] Profiling completed successfully" in streams

    # The results and the comparison as the engine's HTML tables.
    (result,) = shown.outputs
    html = result.data["text/html"]
    assert html.startswith('<div class="kscope-results">\n<p><strong>kscope: sweep #0</strong>')
    assert html.count("<tr><td>a&lt;b&gt;</td>") == 2
    (comparison,) = [o for o in compared.outputs if o.output_type == "execute_result"]
    html = comparison.data["text/html"]
    assert html.startswith('<div class="kscope-comparison">')
    assert html.count('<td class="kscope-verdict kscope-verdict-same"') == 2


def test_missing_packages_skip_or_fail_when_required(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every package there but two.
    found = {name: None if name in ("nbclient", "ipywidgets") else object() for name in PACKAGES}
    monkeypatch.setattr(importlib.util, "find_spec", found.get)
    why = ("needs nbclient, ipywidgets to run a Jupyter kernel "
           "(pip install -r requirements-dev.txt)")  # fmt: skip
    monkeypatch.delenv("KSCOPE_REQUIRE_NOTEBOOK_TEST", raising=False)
    with pytest.raises(pytest.skip.Exception, match=re.escape(why)):
        require_packages()
    monkeypatch.setenv("KSCOPE_REQUIRE_NOTEBOOK_TEST", "1")
    required = f"KSCOPE_REQUIRE_NOTEBOOK_TEST=1, but this Python {why}"
    with pytest.raises(pytest.fail.Exception, match=re.escape(required)):
        require_packages()
