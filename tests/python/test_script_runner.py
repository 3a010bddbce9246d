"""script_runner.run_script, which the GPU tests use to run whole programs: a script that outlives
its time fails the test with the Python stacks of the script and of the processes it started."""

from __future__ import annotations

import pytest
from script_runner import run_script

HANGS = """
import subprocess, sys, time

def parent_waits_for_its_child():
    subprocess.run([sys.executable, "-c", "import time\\ndef child_sleeps():\\n    time.sleep(600)\\nchild_sleeps()"])

parent_waits_for_its_child()
"""


def test_a_script_past_its_time_fails_with_the_stacks_of_its_processes(tmp_path):
    with pytest.raises(pytest.fail.Exception) as failure:
        run_script(tmp_path, "hangs.py", HANGS, timeout=3)
    text = str(failure.value)
    assert "timed out after 3 s" in text
    assert "in parent_waits_for_its_child" in text
    assert "in child_sleeps" in text


def test_a_script_in_time_returns_its_output(tmp_path):
    done = run_script(tmp_path, "prints.py", "print('hello')\n", timeout=30)
    assert done.returncode == 0 and done.stdout == "hello\n"
