"""Ctrl-C (SIGINT) and SIGTERM in the middle of a sweep, in a script and in a Jupyter kernel
(docs/faults.md), through the engine's real session and journal without a device
(``_kscope._test_profile_without_device``): the exception reaches the caller within a second,
the journal is closed and loads with every finished run, and the next ``profile()`` in the same
process works; a SIGTERM that ends the process leaves a journal that ``resume`` completes.
tests/python/test_gpu_faults.py does the same with the cupti tool's counters."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from notebook_kernel import install_kernel_spec, require_packages
from script_runner import FIXTURES_DIR, describe, run_script

import kscope
from kscope._native import native

# The sweep: 30 configs of two runs of 30 ms of Python work each, journaled every 0.1 s.
SWEEP = """
import json, os, signal, sys, threading, time
import kscope
from kscope._native import native

ENGINE = native.profile  # the real one, for the ncu tool
native.profile = native._test_profile_without_device
# Python raises KeyboardInterrupt on SIGINT only where SIGINT was not ignored when it started, and
# a shell's background job ("tests &") starts with it ignored: have the handler a terminal gives.
signal.signal(signal.SIGINT, signal.default_int_handler)


def sweep(prefix, configs, **options):
    @kscope.analyze.kernel(configs=configs, runs=2, output_prefix=prefix, thermal_mode="off",
                           verbosity=kscope.VerbosityLevel.SILENT, **options)
    def bench(n):
        with kscope.annotate("step"):
            t = time.monotonic()
            while time.monotonic() - t < 0.03:
                pass

    return bench()


def journal_lines(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f]
    except (FileNotFoundError, ValueError):
        return []


def interrupt_when_journaled(path, send):
    # Once two lines of runs are on disk: mid-sweep, with finished runs to keep.
    def watch():
        while sum(line.get("kind") == "runs" for line in journal_lines(path)) < 2:
            time.sleep(0.005)
        SENT.append(time.monotonic())
        send()

    threading.Thread(target=watch, daemon=True).start()


SENT = []
"""

SCRIPT = SWEEP + """
out = sys.argv[1]
if sys.argv[3] == "exit":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
journal = os.path.join(out, "journal-bench-0.jsonl")
interrupt_when_journaled(journal, lambda: os.kill(os.getpid(), getattr(signal, sys.argv[2])))
try:
    sweep(out + "/", list(range(1, 31)))
    caught = None
except BaseException as e:
    caught = type(e).__name__
after = time.monotonic() - SENT[0]
loaded = kscope.load(journal)
nxt = sweep(out + "/next/", [1, 2])
print(json.dumps({"caught": caught, "after_s": after,
                  "kinds": [line["kind"] for line in journal_lines(journal)],
                  "end": journal_lines(journal)[-1],
                  "loaded": [int(n) for n in loaded.to_dataframe()["n"]],
                  "complete": loaded.complete,
                  "next": [int(n) for n in nxt.to_dataframe()["n"]]}))
"""


def _check_closed_journal(report: dict[str, Any], error: str) -> None:
    assert report["after_s"] < 1.0, report
    kinds = report["kinds"]
    assert kinds[0] == "kscope.journal" and kinds[-1] == "end", kinds
    # The end line holds the exception with its traceback, the exception last.
    assert report["end"]["error"].splitlines()[-1].startswith(error), report["end"]
    assert kinds.count("runs") >= 2
    loaded = report["loaded"]
    assert len(loaded) >= 1 and loaded == list(range(1, len(loaded) + 1)), loaded
    assert len(loaded) < 30 and report["complete"] is False
    assert report["next"] == [1, 2]


@pytest.mark.parametrize(("sig", "handler", "caught", "error"), [
    ("SIGINT", "default", "KeyboardInterrupt", "KeyboardInterrupt"),
    ("SIGTERM", "exit", "SystemExit", "SystemExit: 143"),
])  # fmt: skip
def test_a_signal_mid_sweep_reaches_the_script_and_the_next_sweep_works(
    tmp_path: Path, sig: str, handler: str, caught: str, error: str
) -> None:
    done = run_script(tmp_path, "sweep.py", SCRIPT, args=(str(tmp_path), sig, handler), timeout=120)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["caught"] == caught, describe(done, tmp_path)
    _check_closed_journal(report, error)


def test_sigterm_without_a_handler_ends_the_process_and_resume_completes_the_sweep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = run_script(tmp_path, "sweep.py", SCRIPT, args=(str(tmp_path), "SIGTERM", "default"),
                      check=False, timeout=120)  # fmt: skip
    assert done.returncode == -signal.SIGTERM, describe(done, tmp_path)
    assert done.stdout == ""
    journal = tmp_path / "journal-bench-0.jsonl"
    kinds = [json.loads(line)["kind"] for line in journal.read_text().splitlines()]
    assert kinds[0] == "kscope.journal" and "end" not in kinds and kinds.count("runs") >= 2

    monkeypatch.setattr(native, "profile", native._test_profile_without_device)

    @kscope.analyze.kernel(configs=list(range(1, 31)), runs=2, output_prefix=f"{tmp_path}/",
                           thermal_mode="off", verbosity=kscope.VerbosityLevel.SILENT,
                           resume=str(journal))  # fmt: skip
    def bench(n: int) -> None:
        with kscope.annotate("step"):
            pass

    df = bench().to_dataframe()
    assert list(df["n"]) == list(range(1, 31))
    assert list(df["NumRuns"]) == [2] * 30


NCU_SCRIPT = SWEEP + """
out = sys.argv[1]
journal = os.path.join(out, "journal-bench-0.jsonl")

@kscope.analyze.kernel(configs=[1, 2], runs=1, tool="ncu", output_prefix=out + "/",
                       verbosity=kscope.VerbosityLevel.SILENT)
def bench(n):
    with kscope.annotate("step"):
        pass

# Ctrl-C once the (fake) ncu part runs.
pid_file = os.environ["FAKE_NCU_PID"]
def watch():
    while not os.path.exists(pid_file) or not open(pid_file).read().strip():
        time.sleep(0.005)
    SENT.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=watch, daemon=True).start()
native.profile = ENGINE
try:
    bench()
    caught = None
except BaseException as e:
    caught = type(e).__name__
native.profile = native._test_profile_without_device
after = time.monotonic() - SENT[0]
try:
    os.kill(int(open(pid_file).read()), 0)
    ncu_left = True
except ProcessLookupError:
    ncu_left = False
nxt = sweep(out + "/next/", [1, 2])
print(json.dumps({"caught": caught, "after_s": after, "ncu_left": ncu_left,
                  "end": journal_lines(journal)[-1],
                  "next": [int(n) for n in nxt.to_dataframe()["n"]]}))
"""


def test_ctrl_c_while_an_ncu_part_runs_stops_it_at_once(tmp_path: Path) -> None:
    done = run_script(tmp_path, "sweep.py", NCU_SCRIPT, args=(str(tmp_path),), timeout=120, env={
        "KSCOPE_NCU": f"{FIXTURES_DIR}/ncu/fake_ncu.sh", "FAKE_NCU_MODE": "hang",
        "FAKE_NCU_PID": str(tmp_path / "ncu.pid")})  # fmt: skip
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["caught"] == "KeyboardInterrupt", describe(done, tmp_path)
    assert report["after_s"] < 1.0
    assert report["ncu_left"] is False  # stopped and reaped
    assert report["end"]["kind"] == "end"
    assert report["end"]["error"].splitlines()[-1].startswith("KeyboardInterrupt")
    assert report["next"] == [1, 2]


NOTEBOOK_SWEEP = SWEEP + """
journal = os.path.join({out!r}, "journal-bench-0.jsonl")
interrupt_when_journaled(journal, lambda: None)
sweep({out!r} + "/", list(range(1, 31)))
"""


def test_an_interrupted_cell_raises_keyboardinterrupt_and_the_next_cell_sweeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    require_packages()
    from jupyter_client.manager import start_new_kernel

    kernel = install_kernel_spec(tmp_path, monkeypatch)
    out = str(tmp_path / "out")
    journal = Path(out) / "journal-bench-0.jsonl"
    printed: list[dict[str, Any]] = []
    km, kc = start_new_kernel(kernel_name=kernel, startup_timeout=120)
    try:
        msg_id = kc.execute(NOTEBOOK_SWEEP.format(out=out))
        # Jupyter's interrupt (SIGINT to the kernel) once two lines of runs are on disk.
        deadline = time.monotonic() + 60
        while not journal.exists() or journal.read_text().count('"kind":"runs"') < 2:
            assert time.monotonic() < deadline, "the sweep never journaled two lines"
            time.sleep(0.005)
        km.interrupt_kernel()
        sent = time.monotonic()
        reply = kc.get_shell_msg(timeout=30)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=30)
        after = time.monotonic() - sent
        assert reply["content"]["status"] == "error", reply["content"]
        assert reply["content"]["ename"] == "KeyboardInterrupt"
        assert after < 1.0

        # The next cell: the journal loads, closed, and the next sweep of the kernel works.
        check = kc.execute_interactive(
            "loaded = kscope.load(journal)\n"
            "lines = journal_lines(journal)\n"
            "print(json.dumps({'kinds': [line['kind'] for line in lines], 'end': lines[-1],"
            " 'after_s': 0, 'loaded': [int(n) for n in loaded.to_dataframe()['n']],"
            " 'complete': loaded.complete,"
            f" 'next': [int(n) for n in sweep({out!r} + '/next/', [1, 2]).to_dataframe()['n']]}}))",
            timeout=60, output_hook=printed.append)  # fmt: skip
        assert check["content"]["status"] == "ok", check["content"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    text = "".join(m["content"].get("text", "") for m in printed if m["msg_type"] == "stream")
    _check_closed_journal(json.loads(text.splitlines()[-1]), "KeyboardInterrupt")

