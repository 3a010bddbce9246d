"""scripts/run_nsight_python_suite.py on a synthetic checkout of nsight-python: the shim makes
`nsight` kscope in the children, examples run as scripts, tests under pytest, counts printed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUNNER = os.path.join(ROOT, "scripts", "run_nsight_python_suite.py")


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(textwrap.dedent(text))


def _checkout(tmp_path):
    root = tmp_path / "nsight-python"
    _write(str(root / "examples" / "00_ok.py"), """
        import nsight, kscope
        from nsight.collection import core
        assert nsight is kscope and core.ProfileResults is kscope.ProfileResults
        open("written-here.txt", "w").close()
    """)
    _write(str(root / "examples" / "01_fails.py"), "raise ValueError('boom')\n")
    _write(str(root / "examples" / "12_out_of_range.py"), "raise SystemExit(3)\n")
    _write(str(root / "tests" / "test_a.py"), """
        import nsight
        from nsight.thermovision import ThermalController

        def test_layout():
            assert nsight.transformation.__name__ == "kscope.transformation"

        def test_fails():
            assert ThermalController().adaptive_mode is False
    """)
    _write(str(root / "tests" / "test_unimportable.py"), "import no_such_module_here\n")
    return root


def _run(*args, env=None):
    environment = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    return subprocess.run([sys.executable, RUNNER, *args], capture_output=True, text=True,
                          env=env or environment, check=False, timeout=300)  # fmt: skip


def test_runner_counts_examples_and_tests(tmp_path):
    root = _checkout(tmp_path)
    done = _run(str(root), "--out", str(tmp_path / "logs"))
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "[PASSED ] example 00_ok.py" in out
    assert "[FAILED ] example 01_fails.py" in out and "ValueError: boom" in out
    assert "12_out_of_range" not in out  # 00-11 only
    assert "[suite] examples: 1 passed, 1 failed (of 2)" in out
    assert "[suite] tests: 1 passed, 1 failed, 1 error (of 3)" in out
    assert not (root / "examples" / "written-here.txt").exists()  # ran in a copy
    assert (tmp_path / "logs" / "tests-junit.xml").exists()


def test_runner_refuses_what_is_no_checkout(tmp_path):
    done = _run(str(tmp_path))
    assert done.returncode == 2
    assert "has no examples/ directory: not a checkout of nsight-python" in done.stderr


def test_runner_says_when_kscope_is_not_importable(tmp_path):
    root = _checkout(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = subprocess.run([sys.executable, "-c", "import kscope"], env=env, cwd=str(tmp_path),
                           capture_output=True, check=False)  # fmt: skip
    if probe.returncode == 0:
        pytest.skip("kscope is installed in this Python: it is importable without PYTHONPATH")
    done = subprocess.run([sys.executable, RUNNER, str(root)], capture_output=True, text=True,
                          env=env, cwd=str(tmp_path), check=False, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "`import nsight` does not give kscope through the shim" in done.stderr
