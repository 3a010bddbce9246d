"""kscope.sanitize and the findings of tool "sanitizer" results (ok, to_dataframe), without a
GPU: the engine is replaced by fake_engine, and saved results carry findings as the C++ engine
writes them (docs/tools/sanitizer.md)."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

import kscope
from kscope.transformation import LEADING_COLUMNS, TRAILING_COLUMNS, findings_frame
from kscope.exceptions import InvalidArgumentError

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures")
SILENT = kscope.VerbosityLevel.SILENT

OOB = {
    "check": "memcheck", "kind": "Invalid __global__ write of size 4 bytes",
    "category": "Precise", "severity": "Error", "kernel": "scale", "function": "scale",
    "pc": 160, "block": [11, 0, 0], "thread": [184, 0, 0], "address": 139619127525376,
    "size": 4, "file": "/src/kernels.cu", "line": 5, "detail": "out of bounds", "count": 1,
    "host_stack": ["cuLaunchKernel (/usr/lib/libcuda.so.1+0x39fb94)"], "annotation": "scale",
    "config": 1, "run": 0, "attribution": "annotation",
}  # fmt: skip
RACE = {
    "check": "racecheck", "kind": "Race condition", "category": "Analysis",
    "severity": "Error", "kernel": "race", "function": "race", "pc": None, "block": None,
    "thread": None, "address": None, "size": None, "file": "", "line": None,
    "detail": "Write at k.cu:7 races with Read at k.cu:8", "count": 764, "host_stack": [],
    "annotation": "", "config": None, "run": None, "attribution": "unattributed",
}  # fmt: skip


def sanitizer_result(tmp_path, findings):
    """A result file as the C++ engine writes it for tool "sanitizer" (from the golden one)."""
    with open(os.path.join(FIXTURES, "golden", "vadd_results.json"), encoding="utf-8") as f:
        doc = json.load(f)
    doc["options"]["tool"] = doc["metadata"]["tool"] = "sanitizer"
    doc["raw"], doc["processed"], doc["findings"] = [], [], findings
    path = tmp_path / "sanitized.json"
    path.write_text(json.dumps(doc))
    return kscope.load(path)


def test_journal_of_a_sanitizer_session_keeps_its_findings(tmp_path):
    """Issue 15, defect 1: kscope.load of the journal said ok=True, findings=0."""
    with open(os.path.join(FIXTURES, "golden", "vadd_results.json"), encoding="utf-8") as f:
        doc = json.load(f)
    header = {k: doc[k] for k in ("schema_version", "name", "id", "parameters", "configs")}
    header.update(kind="kscope.journal", options=dict(doc["options"], tool="sanitizer"),
                  metadata=dict(doc["metadata"], tool="sanitizer"))  # fmt: skip
    lines = [header, {"kind": "findings", "findings": [OOB, RACE]}, {"kind": "end", "error": ""}]
    path = tmp_path / "journal-sanitized-0.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    r = kscope.load(path)
    assert not r.ok and r.complete
    assert [f["kernel"] for f in r.findings] == ["scale", "race"]
    assert r.findings[0]["config"] == 1 and r.findings[1]["count"] == 764


def test_findings_frame_columns_and_values():
    df = findings_frame([OOB, RACE], ["n"], [(1024,), (3001,)])
    assert list(df.columns) == [*LEADING_COLUMNS, "n", *TRAILING_COLUMNS]
    assert len(df) == 2
    assert df["Kind"][0] == "Invalid __global__ write of size 4 bytes"
    assert df["n"][0] == 3001 and pd.isna(df["n"][1])  # config unknown
    assert df["Block"][0] == (11, 0, 0) and df["Thread"][1] is None
    assert df["Line"][0] == 5 and pd.isna(df["Line"][1])
    assert df["Config"][0] == 1 and pd.isna(df["Config"][1])
    assert df["Count"][1] == 764
    assert df["HostStack"][0] == ["cuLaunchKernel (/usr/lib/libcuda.so.1+0x39fb94)"]
    assert df["Attribution"].tolist() == ["annotation", "unattributed"]


def test_clean_frame_has_the_same_columns():
    df = findings_frame([], ["n", "dtype"], [(1024, "f32")])
    assert df.empty
    assert list(df.columns) == [*LEADING_COLUMNS, "n", "dtype", *TRAILING_COLUMNS]


def test_results_with_findings_are_not_ok(tmp_path):
    r = sanitizer_result(tmp_path, [OOB])
    assert not r.ok
    assert r.findings[0]["annotation"] == "scale"
    df = r.to_dataframe()
    assert len(df) == 1 and df["Annotation"][0] == "scale" and df["n"][0] == 4096


def test_clean_sanitizer_results_are_ok(tmp_path):
    r = sanitizer_result(tmp_path, [])
    assert r.ok and r.findings == []
    assert r.to_dataframe().empty
    assert "Check" in r.to_dataframe().columns


def test_measuring_tools_are_always_ok():
    r = kscope.load(os.path.join(FIXTURES, "golden", "vadd_results.json"))
    assert r.ok and r.findings == []
    assert "AvgValue" in r.to_dataframe().columns


def test_sanitize_runs_each_config_once_with_the_sanitizer(fake_engine):
    ran = []

    def bench(n):
        ran.append(n)

    r = kscope.sanitize(bench, configs=[(1,), (2,)], checks=["memcheck", "racecheck"],
                        leak_check=True, print_limit=0, verbosity=SILENT)  # fmt: skip
    call = fake_engine.calls[0]
    options = call["options"]
    assert call["name"] == "bench"
    assert options.tool == "sanitizer"
    assert options.runs == 1 and options.warmup_runs == 0
    assert list(options.sanitizer_checks) == ["memcheck", "racecheck"]
    assert options.sanitizer_leak_check is True and options.sanitizer_print_limit == 0
    assert ran == [1, 2]  # the fake engine drives the callable like the child would
    assert r.ok and r.to_dataframe().empty


def test_sanitize_a_decorated_function_uses_its_configs(fake_engine):
    @kscope.analyze.kernel(configs=[(8,), (16,)], runs=20, verbosity=SILENT)
    def bench(n):
        pass

    kscope.sanitize(bench)
    options = fake_engine.calls[0]["options"]
    assert options.tool == "sanitizer" and options.runs == 1
    assert [c.values for c in fake_engine.calls[0]["configs"]] == [[8], [16]]
    kscope.sanitize(bench, configs=[(32,)])  # configs given here win
    assert [c.values for c in fake_engine.calls[1]["configs"]] == [[32]]
    bench()  # the decorated function still measures with its own tool
    assert fake_engine.calls[2]["options"].tool == "cupti"
    assert fake_engine.calls[2]["options"].runs == 20


def test_sanitize_checks_its_arguments(fake_engine):
    def bench(n):
        pass

    with pytest.raises(TypeError, match="checks must be a sequence of str"):
        kscope.sanitize(bench, configs=[(1,)], checks="memcheck")
    with pytest.raises(TypeError, match="leak_check must be a bool"):
        kscope.sanitize(bench, configs=[(1,)], leak_check=1)
    with pytest.raises(TypeError, match="print_limit must be an int"):
        kscope.sanitize(bench, configs=[(1,)], print_limit="9")
    with pytest.raises(InvalidArgumentError, match="Invalid sanitizer_checks entry 'leaks'"):
        kscope.sanitize(bench, configs=[(1,)], checks=["leaks"])
    with pytest.raises(InvalidArgumentError, match="sanitizer_leak_check is part of"):
        kscope.sanitize(bench, configs=[(1,)], checks=["racecheck"], leak_check=True)
    with pytest.raises(InvalidArgumentError, match="Invalid sanitizer_print_limit -1"):
        kscope.sanitize(bench, configs=[(1,)], print_limit=-1)
    assert fake_engine.calls == []
