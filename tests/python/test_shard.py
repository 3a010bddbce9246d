"""A sweep sharded over ranks (``shard=``) and merged back (``kscope.load(*files)``,
``kscope merge``), through the engine's real session and journal without a device: each rank
reads its rank from the launcher's environment as under torchrun, Slurm or MPI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

import kscope
from kscope._native import native
from kscope.exceptions import FileFormatWarning, InvalidArgumentError

SILENT = kscope.VerbosityLevel.SILENT
LAUNCHERS = {
    "torchrun": ("RANK", "WORLD_SIZE", "LOCAL_RANK"),
    "Slurm": ("SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"),
    "Open MPI": ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"),
    "MPICH": ("PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"),
}
ALL_VARIABLES = [v for names in LAUNCHERS.values() for v in names]


@pytest.fixture
def cpu_engine(monkeypatch):
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)
    for v in ALL_VARIABLES:
        monkeypatch.delenv(v, raising=False)


def make(prefix, calls, **options):
    options.setdefault("runs", 2)
    options.setdefault("verbosity", SILENT)

    @kscope.analyze.kernel(configs=list(range(7)), output_prefix=prefix,
                           thermal_mode="off", **options)  # fmt: skip
    def sweep(k):
        calls.append(k)
        with kscope.annotate("a"):
            pass
        with kscope.annotate("b"):
            pass

    return sweep


@pytest.mark.parametrize("launcher", list(LAUNCHERS))
def test_each_rank_measures_its_share_and_the_merge_equals_one_sweep(cpu_engine, monkeypatch,
                                                                     tmp_path, launcher):
    rank_var, size_var, local_var = LAUNCHERS[launcher]
    journals = []
    for rank in range(3):
        monkeypatch.setenv(rank_var, str(rank))
        monkeypatch.setenv(size_var, "3")
        monkeypatch.setenv(local_var, str(rank))
        calls: list[int] = []
        part = make(f"{tmp_path}/shards/", calls, shard="auto")()
        assert sorted(set(calls)) == list(range(rank, 7, 3))  # interleaved
        assert os.path.basename(part.journal_path) == f"rank{rank}-journal-sweep-0.jsonl"
        assert part.metadata["shard_index"] == rank and part.metadata["shard_count"] == 3
        journals.append(part.journal_path)
    for v in (rank_var, size_var, local_var):
        monkeypatch.delenv(v)
    whole = make(f"{tmp_path}/whole/", [])()
    merged = kscope.load(*journals)
    pd.testing.assert_frame_equal(merged.to_dataframe(), whole.to_dataframe())
    pd.testing.assert_frame_equal(merged.raw_dataframe(), whole.raw_dataframe())
    assert merged.complete


def test_without_a_launcher_auto_measures_everything(cpu_engine, tmp_path):
    calls: list[int] = []
    r = make(f"{tmp_path}/", calls, shard="auto")()
    assert sorted(set(calls)) == list(range(7))
    assert os.path.basename(r.journal_path) == "journal-sweep-0.jsonl"


def test_a_shard_by_hand_and_the_merge_command(cpu_engine, tmp_path):
    paths = []
    for i in range(2):
        r = make(f"{tmp_path}/", [], shard=(i, 2))()
        path = tmp_path / f"part{i}.json"
        r.to_json(path)
        paths.append(str(path))
    whole = make(f"{tmp_path}/whole/", [])()
    out = tmp_path / "merged.json"
    done = subprocess.run([sys.executable, "-m", "kscope", "merge", *paths, "-o", str(out)],
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=os.path.dirname(kscope.__file__) + "/.."))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "kscope results: sweep" in done.stdout
    merged = kscope.load(out)
    pd.testing.assert_frame_equal(merged.to_dataframe()[["Annotation", "k", "AvgValue", "NumRuns",
                                                         "Geomean"]],
                                  whole.to_dataframe()[["Annotation", "k", "AvgValue", "NumRuns",
                                                        "Geomean"]])  # fmt: skip


def test_the_merge_command_keeps_every_ranks_timeline_named(cpu_engine, tmp_path):
    paths, parts = [], []
    for i in range(2):
        r = make(f"{tmp_path}/", [], shard=(i, 2))()
        path = tmp_path / f"part{i}.json"
        r.to_json(path)
        paths.append(str(path))
        parts.append(r.engine_results.timeline)
    out = tmp_path / "merged.json"
    trace = tmp_path / "trace.json"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(kscope.__file__) + "/..")
    for command in (["merge", *paths, "-o", str(out)], ["show", str(out), "-f", "trace", "-o", str(trace)]):
        done = subprocess.run([sys.executable, "-m", "kscope", *command], capture_output=True,
                              text=True, env=env)  # fmt: skip
        assert done.returncode == 0, done.stderr
    merged = kscope.load(out).engine_results.timeline
    assert list(merged.parts) == [f"rank 0: {paths[0]}", f"rank 1: {paths[1]}"]
    for i, part in enumerate(parts):
        assert part.kernels, "the device-free tool times its kernels"
        assert sorted((k.config, k.run, k.annotation) for k in merged.kernels if k.part == i) == \
            sorted((k.config, k.run, k.annotation) for k in part.kernels)
        assert sorted((p.phase, p.start_ns) for p in merged.phases if p.part == i) == \
            sorted((p.phase, p.start_ns) for p in part.phases)
    processes = {e["args"]["name"] for e in json.loads(trace.read_text())["traceEvents"]
                 if e["name"] == "process_name"}  # fmt: skip
    assert {f"kscope host: sweep (rank {i}: {paths[i]})" for i in range(2)} <= processes


def test_balancing_by_an_earlier_result_puts_the_longest_configs_apart(cpu_engine, tmp_path):
    earlier = make(f"{tmp_path}/earlier/", [])()  # config k takes about 100 (k + 1) ns
    shares = []
    for i in range(2):
        calls: list[int] = []
        make(f"{tmp_path}/b/", calls, shard=(i, 2), shard_balance=earlier.journal_path)()
        shares.append(sorted(set(calls)))
    # Longest first onto the least loaded rank (weights 7..1 for k = 6..0): 6 to rank 0,
    # 5 and 4 to rank 1, 3 and 2 to rank 0, 1 and 0 to rank 1.
    assert shares == [[2, 3, 6], [0, 1, 4, 5]]


def test_merging_refuses_gaps_overlaps_and_other_sweeps(cpu_engine, tmp_path):
    a = make(f"{tmp_path}/", [], shard=(0, 2))()
    b = make(f"{tmp_path}/", [], shard=(1, 2))()
    with pytest.raises(InvalidArgumentError, match=r"^Cannot merge: no part measured config\(s\) "
                                                   r"1, 3, 5 \(config 1: k=1\)"):  # fmt: skip
        kscope.load(a.journal_path, a.journal_path.replace("rank0", "rank0"), allow_overlap=True)
    with pytest.raises(InvalidArgumentError, match=r"measured by more than one part"):
        kscope.load(a.journal_path, a.journal_path, b.journal_path)
    with pytest.warns(FileFormatWarning, match=r"no part measured config\(s\) 1, 3, 5"):
        gap = kscope.load(a.journal_path, a.journal_path, allow_overlap=True, allow_missing=True)
    assert not gap.complete
    assert sorted(set(gap.to_dataframe()["k"])) == [0, 2, 4, 6]
    other = make(f"{tmp_path}/o/", [], runs=3, shard=(1, 2))()
    with pytest.raises(InvalidArgumentError,
                       match=r"was written with runs=2, '.*' has runs=3\. Merge the shards"):  # fmt: skip
        kscope.load(a.journal_path, other.journal_path)


def test_bad_shard_values_are_named():
    with pytest.raises(InvalidArgumentError, match=r"^Invalid shard '2/2'\. Expected 'auto'"):
        kscope.analyze.kernel(shard=(2, 2))
    with pytest.raises(TypeError, match="shard must be None, 'auto' or a tuple"):
        kscope.analyze.kernel(shard=3)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match=r"^shard_balance 'x\.json' is given without shard"):
        kscope.analyze.kernel(shard_balance="x.json")


def test_a_malformed_launcher_variable_is_named(cpu_engine, monkeypatch, tmp_path):
    monkeypatch.setenv("RANK", "one")
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(InvalidArgumentError,
                       match=r"^Invalid RANK='one' for shard 'auto' \(set by torchrun\)"):  # fmt: skip
        make(f"{tmp_path}/", [], shard="auto")()
    monkeypatch.setenv("RANK", "2")
    with pytest.raises(InvalidArgumentError, match=r"RANK=2 is not below WORLD_SIZE=2"):
        make(f"{tmp_path}/", [], shard="auto")()


def test_rank_without_world_size_is_named(cpu_engine, monkeypatch, tmp_path):
    # It measured every config as if no launcher had started the process (issue 38).
    monkeypatch.setenv("RANK", "1")
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    with pytest.raises(InvalidArgumentError) as e:
        make(f"{tmp_path}/", [], shard="auto")()
    assert str(e.value) == (
        "Invalid shard 'auto': RANK='1' is set but WORLD_SIZE is not (torchrun sets both). Set "
        "WORLD_SIZE, unset RANK to measure every config, or give shard 'i/n'.")


def test_the_merged_json_has_every_config_once(cpu_engine, tmp_path):
    parts = [make(f"{tmp_path}/", [], shard=(i, 3))().journal_path for i in range(3)]
    merged = kscope.load(*parts)
    path = tmp_path / "m.json"
    merged.to_json(path)
    doc = json.loads(path.read_text())
    assert sorted({p["config"] for p in doc["processed"]}) == list(range(7))
    assert len(doc["processed"]) == 14


def test_rank_0_counts_every_ranks_configs_from_their_journals(cpu_engine, monkeypatch, tmp_path,
                                                              capsys):
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "1")
    make(f"{tmp_path}/", [], shard="auto")()
    monkeypatch.setenv("RANK", "0")
    make(f"{tmp_path}/", [], shard="auto", verbosity=kscope.VerbosityLevel.INFO)()
    out = capsys.readouterr().out
    assert "[kscope] Shard: rank 0 of 2 (torchrun), 4 of 7 configs (interleaved)" in out
    assert "[kscope] All 2 ranks: 7 of 7 configs measured" in out


def test_a_rank_resumes_its_own_share(cpu_engine, tmp_path):
    calls: list[int] = []
    first = make(f"{tmp_path}/", calls, shard=(1, 2))()
    calls.clear()
    again = make(f"{tmp_path}/", calls, shard=(1, 2), resume=first.journal_path)()
    assert calls == []  # its share is complete in its journal
    assert sorted(set(again.to_dataframe()["k"])) == [1, 3, 5]
