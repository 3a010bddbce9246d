"""The faults of docs/faults.md on a real GPU with the cupti tool (torch kernels; marker gpu):
Ctrl-C in a sweep reading hardware counters, CUDA out-of-memory inside a config, two kscope
processes reading counters at once, kscope and ncu at once (both orders), and a faulting kernel.
Each runs in a script of its own where it could disturb this process (a signal, a lost CUDA
context). The CPU side of each is in tests/python/test_fault_*.py."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from script_runner import PYTHON_DIR, describe, run_script, skip_without_ncu

import kscope

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
SILENT = kscope.VerbosityLevel.SILENT
N = 1 << 22  # 16 MiB of floats: dram__bytes_read.sum of one add_ is about 16.8 MB

# A counter sweep: each run adds 1 to N floats; n configs of 10 runs, optionally slowed down.
COUNTERS = textwrap.dedent(
    f"""
    import json, os, signal, sys, threading, time
    import torch
    import kscope

    N = {N}

    def sweep(prefix, configs, pause=0.0, **options):
        @kscope.analyze.kernel(configs=configs, runs=10, output_prefix=prefix, thermal_mode="off",
                               metrics=["dram__bytes_read.sum"], **options)
        def add(n):
            a = torch.ones(N, device="cuda")
            with kscope.annotate("add"):
                a.add_(1)
            time.sleep(pause)

        return add()

    def values(results):
        return [float(v) for v in results.to_dataframe()["AvgValue"]]
    """
)


def _report(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    lines = done.stdout.splitlines()
    line = next((l for l in lines if l.startswith("RESULT ")), None)
    assert line is not None, describe(done, Path("."))
    out: dict[str, Any] = json.loads(line[len("RESULT "):])
    out["waited"] = [l for l in lines if "Waiting for" in l]
    print(out)
    return out


def _near(values: list[float], expected: float, rel: float = 0.25) -> bool:
    return all(abs(v - expected) <= rel * expected for v in values)


# --- Ctrl-C -------------------------------------------------------------------------------------

INTERRUPT = COUNTERS + textwrap.dedent(
    """
    out = sys.argv[1]
    journal = os.path.join(out, "journal-add-0.jsonl")
    sent = []
    # As from a terminal, also when the tests run as a shell's background job (SIGINT ignored).
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def watch():
        while True:
            try:
                if open(journal).read().count('"kind":"runs"') >= 2:
                    break
            except FileNotFoundError:
                pass
            time.sleep(0.005)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=watch, daemon=True).start()
    result = {}
    try:
        sweep(out + "/", list(range(1, 41)), pause=0.02, verbosity=kscope.VerbosityLevel.SILENT)
    except KeyboardInterrupt:
        result["caught"] = "KeyboardInterrupt"
    result["after_s"] = time.monotonic() - sent[0]
    lines = [json.loads(l) for l in open(journal)]
    result["end"] = lines[-1]["kind"]
    result["loaded"] = values(kscope.load(journal))
    # The counters and CUPTI were released: the next sweep of the process reads them.
    result["next"] = values(sweep(out + "/next/", [1, 2], verbosity=kscope.VerbosityLevel.SILENT))
    print("RESULT", json.dumps(result))
    """
)


def test_ctrl_c_in_a_counter_sweep_and_the_next_sweep_reads_counters(tmp_path: Path) -> None:
    out = _report(run_script(tmp_path, "interrupt.py", INTERRUPT, args=(str(tmp_path),)))
    assert out["caught"] == "KeyboardInterrupt"
    assert out["after_s"] < 1.0
    assert out["end"] == "end"
    assert 1 <= len(out["loaded"]) < 40 and _near(out["loaded"], 4 * N)
    assert len(out["next"]) == 2 and _near(out["next"], 4 * N)


# --- CUDA out of memory -------------------------------------------------------------------------


def _oom_sweep(tmp_path: Path, mode: str) -> Any:
    @kscope.analyze.kernel(configs=[1, 2, 3], runs=3, output_prefix=f"{tmp_path}/{mode}/",
                           thermal_mode="off", verbosity=SILENT, on_config_error=mode)  # fmt: skip
    def alloc(k: int) -> None:
        a = torch.ones(N, device="cuda")
        if k == 2:
            torch.empty(1 << 45, dtype=torch.uint8, device="cuda")  # 32 TiB
        with kscope.annotate("add"):
            a.add_(1)

    return alloc()


def test_out_of_memory_with_skip_fails_its_config_and_the_sweep_goes_on(tmp_path: Path) -> None:
    with pytest.warns(RuntimeWarning, match="1 of 3 configs failed"):
        results = _oom_sweep(tmp_path, "skip")
    (failure,) = results.failed_configs
    assert failure["config"] == 1 and failure["values"] == (2,)
    assert failure["type"].endswith("OutOfMemoryError"), failure
    assert "CUDA out of memory" in failure["message"]
    df = results.to_dataframe()
    assert list(df["NumRuns"]) == [3, 0, 3]
    assert df["AvgValue"][0] > 0 and df["AvgValue"][2] > 0  # not sticky
    assert df["Error"][1].startswith(failure["type"])


def test_out_of_memory_with_raise_propagates_unchanged(tmp_path: Path) -> None:
    with pytest.raises(torch.OutOfMemoryError, match="CUDA out of memory"):
        _oom_sweep(tmp_path, "raise")
    (journal,) = (tmp_path / "raise").glob("journal-alloc-*.jsonl")
    assert list(kscope.load(str(journal)).to_dataframe()["k"]) == [1]
    # The next measurement of the process works.
    a = torch.ones(N, device="cuda")
    assert kscope.time(lambda: a.add_(1), runs=5).median > 0


# --- A second profiler --------------------------------------------------------------------------

SECOND = COUNTERS + textwrap.dedent(
    """
    # At verbosity INFO: a wait for the GPU's lock is printed ("[kscope] Waiting for ...").
    result = {"pid": os.getpid()}
    try:
        r = sweep(sys.argv[1] + "/", list(range(1, int(sys.argv[2]) + 1)), pause=0.05)
        result["values"] = values(r)
    except kscope.exceptions.ProfilerException as e:
        result["error"] = str(e)
    print("RESULT", json.dumps(result))
    """
)


def _start(tmp_path: Path, name: str, configs: int) -> subprocess.Popen[str]:
    (tmp_path / name).mkdir()
    (tmp_path / f"{name}.py").write_text(SECOND)
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    return subprocess.Popen([sys.executable, str(tmp_path / f"{name}.py"), str(tmp_path / name),
                             str(configs)], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


def _wait_measuring(tmp_path: Path, name: str, proc: subprocess.Popen[str]) -> Path:
    """Returns the journal of `name` once it holds a line of runs: the sweep measures (and
    holds the GPU's lock)."""
    journal = tmp_path / name / "journal-add-0.jsonl"
    deadline = time.monotonic() + 120
    while not journal.exists() or journal.read_text().count('"kind":"runs"') < 1:
        assert time.monotonic() < deadline and proc.poll() is None, "the sweep never measured"
        time.sleep(0.01)
    return journal


def _finish(proc: subprocess.Popen[str], timeout: float = 180) -> dict[str, Any]:
    stdout, stderr = proc.communicate(timeout=timeout)  # never forever
    done = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    return _report(done)


def test_two_kscope_counter_sweeps_on_one_gpu_take_turns_and_say_for_whom(tmp_path: Path) -> None:
    first = _start(tmp_path, "first", 20)  # 20 configs x 10 runs x 50 ms: about 10 s
    _wait_measuring(tmp_path, "first", first)  # it holds the GPU's lock
    second = _start(tmp_path, "second", 2)
    a, b = _finish(first), _finish(second)
    assert _near(a["values"], 4 * N) and _near(b["values"], 4 * N)
    assert a["waited"] == []
    assert len(b["waited"]) == 1 and f"Waiting for kscope process {a['pid']} (" in b["waited"][0]


NCU_TARGET = textwrap.dedent(
    """
    import time, torch
    a = torch.ones(1 << 22, device="cuda")
    t0 = time.monotonic()
    while time.monotonic() - t0 < 12:
        a.add_(1)
        torch.cuda.synchronize()
        time.sleep(0.01)
    """
)


def test_kscope_while_ncu_profiles_another_process(tmp_path: Path) -> None:
    # ncu (not kscope's: it takes no kscope lock) profiles a loop of kernels for 12 s; a kscope
    # counter sweep meanwhile fails at once naming ncu, or measures right: never wrong numbers.
    skip_without_ncu()
    ncu = os.environ.get("KSCOPE_NCU") or "ncu"
    (tmp_path / "target.py").write_text(NCU_TARGET)
    (tmp_path / "k").mkdir()
    profiler = subprocess.Popen([ncu, "--clock-control", "none", "--metrics", "dram__bytes_read.sum",
                                 "-o", str(tmp_path / "other"), sys.executable,
                                 str(tmp_path / "target.py")], text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        time.sleep(5)  # ncu is profiling by now
        t0 = time.monotonic()
        done = run_script(tmp_path, "k.py", SECOND, args=(str(tmp_path / "k"), "2"), timeout=120)
        took = time.monotonic() - t0
        out = _report(done)
    finally:
        ncu_out, _ = profiler.communicate(timeout=180)
    print(ncu_out[-3000:])
    if "error" in out:
        assert "another process holds this GPU's performance counters" in out["error"], out
        assert "ncu (pid " in out["error"], out
        assert took < 30  # at once, not after ncu ended
    else:
        assert _near(out["values"], 4 * N), out


def test_ncu_while_kscope_reads_counters(tmp_path: Path) -> None:
    # The other order: a kscope counter sweep runs, ncu starts on another process. kscope's
    # values stay right whatever ncu does, and neither hangs.
    skip_without_ncu()
    ncu = os.environ.get("KSCOPE_NCU") or "ncu"
    (tmp_path / "target.py").write_text(NCU_TARGET.replace("< 12", "< 3"))
    first = _start(tmp_path, "first", 20)
    _wait_measuring(tmp_path, "first", first)
    other = subprocess.run([ncu, "--clock-control", "none", "--metrics", "dram__bytes_read.sum",
                            sys.executable, str(tmp_path / "target.py")], text=True,
                           capture_output=True, timeout=180)  # fmt: skip
    print("ncu exit", other.returncode, (other.stdout + other.stderr)[-3000:])
    a = _finish(first)
    assert "error" not in a, a
    assert _near(a["values"], 4 * N), a


# --- A faulting kernel --------------------------------------------------------------------------

FAULT = textwrap.dedent(
    """
    import glob, json, os, sys
    import cupy, torch
    import kscope

    SILENT = kscope.VerbosityLevel.SILENT
    out = sys.argv[1]
    # A write 1 TiB past a small allocation: an illegal address.
    bad = cupy.RawKernel(
        r'extern "C" __global__ void bad(char* p) { *(int*)(p + (1ull << 40)) = 1; }', "bad")

    def sweep(name, fault_at):
        @kscope.analyze.kernel(configs=[1, 2, 3], runs=3, output_prefix=out + f"/{name}/",
                               thermal_mode="off", verbosity=SILENT, on_config_error="skip")
        def work(k):
            a = torch.ones(1 << 20, device="cuda")
            with kscope.annotate("add"):
                a.add_(1)
                if k == fault_at:
                    bad((1,), (1,), (cupy.zeros(4, dtype=cupy.int8),))
                    cupy.cuda.runtime.deviceSynchronize()

        return work()

    result = {}
    before = sweep("before", None)
    try:
        sweep("fault", 2)
    except kscope.exceptions.ProfilerException as e:
        result["error"] = str(e)
    # What is in memory stays usable after the context is lost.
    result["rows"] = len(before.to_dataframe())
    before.write("json", out + "/before.json")
    result["written"] = os.path.getsize(out + "/before.json") > 0
    result["reloaded"] = len(kscope.load(out + "/before.json").to_dataframe())
    (journal,) = glob.glob(out + "/fault/journal-*.jsonl")
    result["journal"] = [int(k) for k in kscope.load(journal).to_dataframe()["k"]]
    print("RESULT", json.dumps(result), flush=True)
    """
)


def test_a_faulting_kernel_says_the_context_is_lost_and_results_in_memory_stay_usable(
    tmp_path: Path,
) -> None:
    pytest.importorskip("cupy")
    # The exit status is not asserted: what torch and CUDA do at exit without a context is
    # theirs (the script must still end: run_script fails a hang).
    done = run_script(tmp_path, "fault.py", FAULT, args=(str(tmp_path),), timeout=180, check=False)
    print("exit status", done.returncode)
    out = _report(done)
    assert out["error"].startswith("config 1 (k=2) failed: "), out
    assert "the CUDA context of this process is lost" in out["error"]
    assert out["rows"] == 3 and out["written"] and out["reloaded"] == 3
    assert out["journal"] == [1]


def test_sigterm_kills_a_counter_sweep_and_a_new_process_resumes_it(tmp_path: Path) -> None:
    first = _start(tmp_path, "first", 20)
    journal = _wait_measuring(tmp_path, "first", first)
    first.send_signal(signal.SIGTERM)
    first.communicate(timeout=30)
    assert first.returncode == -signal.SIGTERM
    resumed = run_script(tmp_path, "resume.py", COUNTERS + textwrap.dedent(
        f"""
        r = sweep({str(tmp_path / 'first')!r} + "/", list(range(1, 21)),
                  resume={str(journal)!r}, verbosity=kscope.VerbosityLevel.SILENT)
        print("RESULT", json.dumps({{"values": values(r)}}))
        """))  # fmt: skip
    out = _report(resumed)
    assert len(out["values"]) == 20 and _near(out["values"], 4 * N)
