"""script_runner.run_script, which the GPU tests use to run whole programs: a script that outlives
its time fails the test with the Python stacks of the script and of the processes it started, and
names any process that still holds its output pipes."""

from __future__ import annotations

import contextlib
import os
import signal

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


LEAVES_A_HOLDER = """
import subprocess, sys, time

# A process outside the script's tree keeps the script's output pipes: its parent ends at once,
# so that it belongs to no one's tree by the time the script is stopped.
HOLDER = "import os, time; open('holder.pid', 'w').write(str(os.getpid())); time.sleep(600)"
subprocess.run([sys.executable, "-c",
                f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {HOLDER!r}])"])
time.sleep(600)
"""


def test_a_script_whose_pipes_another_process_holds_names_that_process(tmp_path):
    try:
        with pytest.raises(pytest.fail.Exception) as failure:
            run_script(tmp_path, "leaves_a_holder.py", LEAVES_A_HOLDER, timeout=3)
    finally:
        pid_file = tmp_path / "holder.pid"
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
    text = str(failure.value)
    assert "its output pipes stayed open after SIGKILL; held by: " in text
    assert "time.sleep(600)" in text
