"""Malformed saved results through ``kscope.load`` and ``python3 -m kscope plot``: each is one
:class:`kscope.exceptions.FileFormatError` naming the file, the JSON path (or line) and what was
expected (issue 15: they raised RuntimeError, IndexError and OverflowError, and ``plot`` printed
a traceback)."""

from __future__ import annotations

import copy
import json
import os
from typing import Any

import pytest
from plot_helpers import run_cli

import kscope
from kscope import visualization
from kscope.exceptions import FileFormatError, FileFormatWarning, ProfilerException

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "fixtures", "golden", "vadd_results.json")


def golden_doc() -> dict[str, Any]:
    with open(GOLDEN, encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


def write(tmp_path, doc: Any, name: str = "r.json") -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def changed(path: str, value: Any) -> dict[str, Any]:
    """The golden document with the member at ``path`` (keys and indices joined by '/') set to
    ``value``, or removed when ``value`` is ``...``."""
    doc = golden_doc()
    keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split("/")]
    target: Any = doc
    for k in keys[:-1]:
        target = target[k]
    if value is ...:
        del target[keys[-1]]
    else:
        target[keys[-1]] = copy.deepcopy(value)
    return doc


CASES = [
    ("kind", 5, "is not a kscope result file (expected a JSON object whose kind is "
     '"kscope.results", found 5)'),
    ("configs", ..., 'at /: the member "configs" is missing'),
    ("schema_version", ..., 'at /: the member "schema_version" is missing'),
    ("processed/0/NumRuns", -3, "at /processed/0/NumRuns: expected a non-negative integer, found -3"),
    ("processed/0/NumRuns", 1e300, "at /processed/0/NumRuns: expected a non-negative integer, "
     "found 1e+300"),
    ("processed/0/NumRuns", 2.5, "at /processed/0/NumRuns: expected a non-negative integer, found 2.5"),
    ("processed/0/config", 7, "at /processed/0/config: expected a config index below 2 (the number "
     "of configs in the header), found 7"),
    ("raw/0/config", 7, "at /raw/0/config: expected a config index below 2"),
    ("raw/0/Metric", ..., 'at /raw/0: the member "Metric" is missing'),
    ("raw/0/Value", "fast", 'at /raw/0/Value: expected a number or null, found "fast"'),
    ("processed/0/Annotation", 3, "at /processed/0/Annotation: expected a string, found 3"),
    ("options/runs", "3", 'at /options/runs: expected an integer from -2147483648 to 2147483647, '
     'found "3"'),
    ("raw", {}, "at /raw: expected an array, found an object"),
]  # fmt: skip


@pytest.mark.parametrize(("where", "value", "text"), CASES)
def test_malformed_result_is_one_file_format_error(tmp_path, where, value, text):
    path = write(tmp_path, changed(where, value))
    with pytest.raises(FileFormatError) as info:
        kscope.load(path).to_dataframe()
    assert str(info.value).startswith(f"'{path}' ")
    assert text in str(info.value)
    assert isinstance(info.value, ProfilerException) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[1]", "is not a kscope result file (expected a JSON object whose kind is "
         '"kscope.results", found an array of 1 element)'),
        ('{"kind": ', "is not valid JSON at line 1, column 10: unexpected end of input; "
         "expected '[', '{', or a literal"),
        ('{"kind": "kscope.journal"}\n', "line 1 at /: the member \"schema_version\" is missing"),
    ],
)  # fmt: skip
def test_malformed_text_is_one_file_format_error(tmp_path, text, expected):
    path = write(tmp_path, text, "r.jsonl" if "journal" in text else "r.json")
    with pytest.raises(FileFormatError, match="^'" + path.replace(".", r"\.")) as info:
        kscope.load(path)
    assert expected in str(info.value)


def test_bad_journal_line_is_skipped_with_a_warning(tmp_path):
    doc = golden_doc()
    header = {k: doc[k] for k in ("schema_version", "name", "id", "options", "metadata",
                                  "parameters", "configs")}  # fmt: skip
    header["kind"] = "kscope.journal"
    header["options"] = dict(header["options"], normalize_against=None)
    run = {"config": 0, "run": 0, "entered": ["k"], "failed": []}
    record = {"annotation": "k", "kernel": "vadd", "config": 0, "run": 0,
              "metrics": [["gpu__time_duration.sum", 100.0, "ns"]]}  # fmt: skip
    good = {"kind": "runs", "runs": [run], "records": [record]}
    bad = {"kind": "runs", "runs": [dict(run, config=9)], "records": []}
    lines = [header, bad, good, {"kind": "end", "error": ""}]
    path = write(tmp_path, "".join(json.dumps(line) + "\n" for line in lines), "j.jsonl")
    with pytest.warns(FileFormatWarning) as caught:
        results = kscope.load(path)
    assert [str(w.message) for w in caught] == [
        f"journal '{path}': line 2 at /runs/0/config: expected a config index below 2 (the number "
        "of configs in the header), found 9 (the line was skipped; the result lacks what it held)"
    ]
    frame = results.to_dataframe()
    assert list(frame["AvgValue"]) == [100.0]  # line 3 still loads
    assert not results.complete


def test_plot_cli_reports_malformed_files_without_a_traceback(tmp_path):
    for path in (write(tmp_path, changed("processed/0/config", 7)),
                 write(tmp_path, "[1]", "root.json"),
                 write(tmp_path, "a,b\n1,2\n", "other.csv"),
                 write(tmp_path, '"x\n', "quote.csv")):  # fmt: skip
        done = run_cli("plot", path, "-o", str(tmp_path / "x.png"))
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith(f"kscope: error: '{path}' "), done.stderr
        assert "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


def test_processed_csv_without_the_columns_is_named(tmp_path):
    path = write(tmp_path, "Annotation,Metric,n,AvgValue\nk,t,1,2.0\n", "p.csv")
    with pytest.raises(FileFormatError) as info:
        visualization.read_processed_csv(path)
    assert str(info.value) == (
        f"'{path}' is not a processed kscope CSV (processed_data-<name>-<id>.csv): it lacks the "
        "column(s) NumRuns, Normalized, CI95_Lower, CI95_Upper; found the columns Annotation, "
        "Metric, n, AvgValue"
    )


def test_kernel_names_that_are_not_utf8_reach_dataframes_escaped(tmp_path):
    """Issue 15, defect 4: ``to_dataframe()`` raised UnicodeDecodeError."""
    fixture = os.path.join(os.path.dirname(__file__), "..", "fixtures", "ncu",
                           "nvtx_nested_raw_stdout.csv")  # fmt: skip
    with open(fixture, "rb") as f:
        data = f.read().replace(b'"kA(float *)"', b'"k\xff\xfeA(float *)"', 1)
    path = tmp_path / "latin1.csv"
    path.write_bytes(data)
    results = kscope.load_ncu(str(path), metrics=["gpu__time_duration.sum"])
    frame = results.to_dataframe()
    assert frame["Kernel"].iloc[0] == "k\\xFF\\xFEA"
    results.to_json(tmp_path / "latin1.json")
    assert kscope.load(tmp_path / "latin1.json").to_dataframe()["Kernel"].iloc[0] == "k\\xFF\\xFEA"


# Every member the reader requires, removed or given a value of the wrong type: each is one
# FileFormatError naming the member's JSON path.
REQUIRED_MEMBERS = (
    [("", key) for key in ("schema_version", "name", "configs", "raw", "processed")]
    + [("raw/0/", key) for key in ("Annotation", "Value", "Metric", "config", "run")]
    + [("processed/0/", key) for key in (
        "Annotation", "Metric", "config", "AvgValue", "StdDev", "MinValue", "MaxValue", "NumRuns",
        "CI95_Lower", "CI95_Upper", "RelativeStdDevPct", "StableMeasurement", "Normalized",
        "Geomean")]
    + [("configs/0/", "values")]
)  # fmt: skip


@pytest.mark.parametrize(("parent", "key"), REQUIRED_MEMBERS)
def test_missing_member_is_named(tmp_path, parent, key):
    path = write(tmp_path, changed(parent + key, ...))
    with pytest.raises(FileFormatError) as info:
        kscope.load(path)
    assert f'at /{parent.rstrip("/")}: the member "{key}" is missing' in str(info.value)


@pytest.mark.parametrize(("parent", "key"), REQUIRED_MEMBERS)
def test_member_of_the_wrong_type_is_named(tmp_path, parent, key):
    path = write(tmp_path, changed(parent + key, {"an": "object"}))
    with pytest.raises(FileFormatError) as info:
        kscope.load(path)
    assert f"at /{parent}{key}: expected " in str(info.value)
    assert str(info.value).endswith("found an object")


@pytest.mark.parametrize(("content", "why"), [
    (b"", "is empty (0 bytes)"),
    (b"\x00\x01binary", "is not a text file (byte \\x00 at offset 0)"),
])  # fmt: skip
def test_empty_and_binary_files_are_said_to_be_so(tmp_path, content, why):
    # They were "not valid JSON at line 1, column 1" and "invalid literal" (issue 38).
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(FileFormatError) as info:
        kscope.load(path)
    assert str(info.value) == (
        f"'{path}' {why}: expected a kscope result (JSON) or journal (JSON lines)"
    )


def test_a_journal_line_that_is_no_utf8_is_a_warning(tmp_path):
    # It was dropped without a word when it was the last line (issue 38).
    journal = os.path.join(os.path.dirname(GOLDEN), "python", "journal_unfinished.jsonl")
    with open(journal, "rb") as f:
        lines = f.read().rstrip(b"\n").split(b"\n")
    lines.append(b'{"kind": "metadata", "metadata": {"gpu": "\xff"}}')
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.warns(FileFormatWarning) as caught:
        kscope.load(path)
    assert [str(w.message) for w in caught] == [
        f"journal '{path}': line {len(lines)} is not UTF-8 text (byte \\xFF at column 43) (the "
        "line was skipped; the result lacks what it held)"
    ]
