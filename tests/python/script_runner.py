"""Runs a Python script in a fresh interpreter with this checkout's kscope importable: for the
tools that re-execute the program (ncu), which under pytest would re-run the test session."""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PYTHON_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "python"))
FIXTURES_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "fixtures"))


def skip_without_ncu() -> None:
    if not (os.environ.get("KSCOPE_NCU") or shutil.which("ncu")
            or os.path.exists("/usr/local/cuda/bin/ncu")):  # fmt: skip
        pytest.skip("Nsight Compute (ncu) is not installed")


def _tail(text: str, limit: int) -> str:
    return text if len(text) <= limit else "[...]\n" + text[-limit:]


def describe(done: subprocess.CompletedProcess[str], directory: Path) -> str:
    """What a failed script run left: its command and exit status, the ends of its stdout and
    stderr, and the ends of the ncu logs and child reports kscope wrote, found under
    ``directory`` (an output prefix there) or named by the ncu command line in the output
    (``--log-file``, printed at verbosity DEBUG)."""
    parts = [f"command: {done.args}", f"exit status: {done.returncode}",
             "--- stdout ---", _tail(done.stdout, 4000),
             "--- stderr ---", _tail(done.stderr, 4000)]  # fmt: skip
    logs = {str(p) for p in directory.glob("**/ncu-output-*.log")}
    logs.update(re.findall(r"--log-file (\S+\.log)", done.stdout + done.stderr))
    for log in sorted(logs):
        for path in (Path(log), Path(log[: -len(".log")] + ".child.json")):
            if path.is_file():
                parts += [f"--- {path} ---", _tail(path.read_text(errors="replace"), 3000)]
    return "\n".join(parts)


def _process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux: /proc/PID/task/TID/children), parents first."""
    tree = [pid]
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            kids = children.read_text().split()
        except OSError:
            continue
        for kid in kids:
            tree += _process_tree(int(kid))
    return tree


def _stop_tree(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """Stops a script that outlived its time and returns what it printed: SIGABRT to it and then
    to each of its descendants (found before the first signal: a child that ended would let its
    parent go on), so that every Python process among them (the script, and the program ncu
    re-runs) prints the stacks of all its threads (faulthandler); then SIGKILL to what is left."""
    tree = _process_tree(proc.pid)
    for sig, grace in ((signal.SIGABRT, 15), (signal.SIGKILL, 5)):
        for pid in tree:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
            if sig == signal.SIGABRT:
                time.sleep(0.2)  # one stack at a time: they share the script's stderr
        try:
            return proc.communicate(timeout=grace)
        except subprocess.TimeoutExpired:
            continue
    return "", "(its output pipes stayed open after SIGKILL; held by: " + _pipe_holders(proc) + ")"


def _pipe_holders(proc: subprocess.Popen[str]) -> str:
    """The processes other than this one that hold ``proc``'s stdout or stderr pipe open (Linux:
    /proc/PID/fd), with their command lines."""
    pipes = {f"pipe:[{os.fstat(f.fileno()).st_ino}]" for f in (proc.stdout, proc.stderr) if f}
    holders = []
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        pid = int(fd_dir.parent.name)
        if pid == os.getpid():
            continue
        try:
            if any(os.readlink(fd) in pipes for fd in fd_dir.iterdir()):
                command = (fd_dir.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                holders.append(f"{pid} {command.strip()}")
        except OSError:
            continue
    return "; ".join(holders) or "no process found"


def run_script(directory: Path, name: str, source: str,
               env: dict[str, str | None] | None = None,
               check: bool = True, args: tuple[str, ...] = (),
               timeout: float = 500) -> subprocess.CompletedProcess[str]:  # fmt: skip
    """Writes ``source`` to ``directory/name`` and runs it there with ``args`` and with ``env``
    added to the environment (a None value removes the variable); with ``check``, fails the test
    on a non-zero exit status, showing :func:`describe`. PYTHONFAULTHANDLER is set, so a crash
    prints the Python stack; a script still running after ``timeout`` seconds fails the test with
    the stacks of every Python process it started (:func:`_stop_tree`)."""
    script = directory / name
    script.write_text(source)
    path = os.pathsep.join(p for p in [PYTHON_DIR, os.environ.get("PYTHONPATH", "")] if p)
    environment = dict(os.environ, PYTHONPATH=path, PYTHONFAULTHANDLER="1")
    for key, value in (env or {}).items():
        if value is None:
            environment.pop(key, None)
        else:
            environment[key] = value
    command = [sys.executable, str(script), *args]
    # No core files from the SIGABRT that stops a script past its time: the soft limit, 0 while
    # the script starts, is what it and its children inherit.
    core_limit = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (0, core_limit[1]))
    try:
        proc = subprocess.Popen(command, cwd=directory, text=True, env=environment,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    finally:
        resource.setrlimit(resource.RLIMIT_CORE, core_limit)
    with proc:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stdout, stderr = _stop_tree(proc)
            stopped = subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)
            pytest.fail(f"timed out after {timeout:g} s; the stacks of its Python processes are "
                        f"in its stderr\n" + describe(stopped, directory))
    done = subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)
    if check:
        assert done.returncode == 0, describe(done, directory)
    return done
