"""A real Jupyter kernel of this Python for the tests (nbclient and jupyter_client run an
ipykernel, the pinned versions of requirements-dev.txt), with this process's kscope importable.

Without nbclient, nbformat, ipykernel, ipywidgets or tqdm a test that needs one skips and says
which are missing, unless ``KSCOPE_REQUIRE_NOTEBOOK_TEST=1`` (set by scripts/lib/python_env.sh
when it installed requirements-dev.txt, as in CI): then it fails, so CI cannot skip it
unnoticed."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

import kscope

# Where this process imported kscope from (the checkout's python/, or an installed wheel's
# site-packages): the kernel imports the same.
KSCOPE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(kscope.__file__)))
PACKAGES = ("nbclient", "nbformat", "ipykernel", "ipywidgets", "tqdm")
KERNEL_NAME = "kscope-test"


def require_packages() -> None:
    """Skips (or, with KSCOPE_REQUIRE_NOTEBOOK_TEST=1, fails) when a package is missing."""
    missing = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
    if not missing:
        return
    why = (f"needs {', '.join(missing)} to run a Jupyter kernel "
           "(pip install -r requirements-dev.txt)")  # fmt: skip
    if os.environ.get("KSCOPE_REQUIRE_NOTEBOOK_TEST") == "1":
        pytest.fail(f"KSCOPE_REQUIRE_NOTEBOOK_TEST=1, but this Python {why}")
    pytest.skip(why)


def install_kernel_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A kernel spec of our own, found first on JUPYTER_PATH: the kernel is this interpreter,
    whatever "python3" kernels the machine has; state files stay in tmp_path. Returns its name."""
    spec = tmp_path / "jupyter" / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "kscope test", "language": "python"}))  # fmt: skip
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        p for p in [KSCOPE_PARENT, os.environ.get("PYTHONPATH", "")] if p))  # fmt: skip
    return KERNEL_NAME
