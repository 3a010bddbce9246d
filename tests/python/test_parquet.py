"""The Parquet format (docs/outputs.md, docs/output-schema.md "Parquet"): kscope's own writer and
reader (src/report/parquet_*), checked against pyarrow and pandas as an independent reader.
``pandas.read_parquet`` of a kscope file gives the raw table with the documented columns and
dtypes, pyarrow reads every table inside it, kscope reads its files back to the same result, and
a Parquet file kscope cannot read is a FileFormatError saying what and what to do. The tests that
need pyarrow skip without it (requirements-dev.txt pins it)."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from typing import Any

import numpy as np
import pandas as pd
import pytest
from cli_helpers import LAUNCHER, environment, needs_engine_tool, run_kscope

import kscope
from kscope.exceptions import FileFormatError, InvalidArgumentError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "tests", "fixtures", "golden")
SWEEP = os.path.join(GOLDEN, "plot", "vadd_sweep.json")
RESULTS = [SWEEP, os.path.join(GOLDEN, "python", "cpp_telemetry.json"),
           os.path.join(GOLDEN, "python", "python_objects.json"),
           os.path.join(GOLDEN, "python", "cpp_normalized.json"),
           os.path.join(GOLDEN, "info_collectors_results.json"),
           os.path.join(GOLDEN, "python", "journal_unfinished.jsonl")]  # fmt: skip
NO_PYARROW = "pyarrow is not installed (pip install -r requirements-dev.txt)"


def pyarrow_parquet() -> Any:
    pytest.importorskip("pyarrow", reason=NO_PYARROW)
    import pyarrow.parquet as pq

    return pq


def written(source: str, tmp_path: Any, name: str = "r.parquet") -> str:
    path = str(tmp_path / name)
    kscope.load(source).write("parquet", path)
    return path


@pytest.mark.parametrize("source", RESULTS, ids=os.path.basename)
def test_pandas_reads_the_raw_table_with_the_documented_columns(source, tmp_path):
    pytest.importorskip("pyarrow", reason=NO_PYARROW)
    results = kscope.load(source)
    frame = pd.read_parquet(written(source, tmp_path))
    raw = results.raw_dataframe()
    # The raw table's columns (docs/output-schema.md), then each row's config and run indices.
    assert list(frame.columns) == [*raw.columns, "config", "run"]
    assert [str(frame[c].dtype) for c in ("Value", "ComputeClock", "MemoryClock", "config", "run")] \
        == ["float64", "int64", "int64", "int64", "int64"]  # fmt: skip
    engine_raw = results.engine_results.raw
    assert list(frame["config"]) == [r.config for r in engine_raw]
    assert list(frame["run"]) == [r.run for r in engine_raw]
    for name in raw.columns:
        if name in results.parameters and any(isinstance(v, (list, dict)) for v in raw[name]):
            continue  # Python's lists and dicts: the engine's text of them
        pd.testing.assert_series_equal(frame[name], raw[name], check_dtype=False, obj=name)


def test_parameter_columns_are_typed_by_their_values(tmp_path):
    pytest.importorskip("pyarrow", reason=NO_PYARROW)
    frame = pd.read_parquet(written(os.path.join(GOLDEN, "python", "cpp_matmul_sweep.json"), tmp_path))
    results = kscope.load(os.path.join(GOLDEN, "python", "cpp_matmul_sweep.json"))
    for name in results.parameters:
        values = [c[results.parameters.index(name)] for c in results.configs]
        expected = "int64" if all(isinstance(v, int) for v in values) else None
        if expected:
            assert str(frame[name].dtype) == expected, name


@pytest.mark.parametrize("source", RESULTS, ids=os.path.basename)
def test_kscope_reads_its_file_back_to_the_same_result(source, tmp_path):
    results = kscope.load(source)
    back = kscope.load(written(source, tmp_path))
    assert back.render("json") == results.render("json")
    assert back.configs == results.configs  # Python's own values, lists and dicts too
    pd.testing.assert_frame_equal(back.to_dataframe(), results.to_dataframe())
    pd.testing.assert_frame_equal(back.raw_dataframe(), results.raw_dataframe())


def test_the_file_is_read_by_its_magic_bytes_whatever_its_name(tmp_path):
    path = written(SWEEP, tmp_path, "result.json")
    assert open(path, "rb").read(4) == b"PAR1"
    assert kscope.load(path).render("json") == kscope.load(SWEEP).render("json")


def test_pyarrow_reads_every_table_inside(tmp_path):
    pq = pyarrow_parquet()
    import pyarrow as pa

    source = os.path.join(GOLDEN, "python", "cpp_telemetry.json")
    results = kscope.load(source)
    path = written(source, tmp_path)
    head = json.loads(pq.read_metadata(path).metadata[b"kscope.results"])
    assert head["kind"] == "kscope.results" and head["name"] == results.name
    data = open(path, "rb").read()
    tables = {name: pq.read_table(pa.BufferReader(data[start:start + size])).to_pandas()
              for name, (start, size) in head["tables"].items()}  # fmt: skip
    assert set(tables) == {"configs", "processed", "telemetry", "stops", "phases", "kernels"}
    assert [json.loads(v) for v in tables["configs"]["values"]] == [list(c) for c in results.configs]
    processed = results.to_dataframe()
    assert list(tables["processed"].columns) == [*processed.columns, "config"]
    for name in ("AvgValue", "StdDev", "NumRuns", "ClockMHz_Min", "CI95_Lower", "Geomean"):
        np.testing.assert_array_equal(tables["processed"][name], processed[name])
    telemetry = results.engine_results.telemetry
    assert len(tables["telemetry"]) == len(telemetry) > 0
    assert list(tables["telemetry"]["after_sm_clock_mhz"]) == [t.after.sm_clock_mhz for t in telemetry]


def test_render_of_a_binary_format_is_an_invalid_argument():
    with pytest.raises(InvalidArgumentError) as e:
        kscope.load(SWEEP).render("parquet")
    assert str(e.value) == ("format 'parquet' writes a binary file, not text: it cannot be written "
                            "as text (render). Write it to a file (kscope show -f parquet -o FILE, "
                            'write("parquet", path))')  # fmt: skip


def test_a_baseline_is_refused_and_nothing_written(tmp_path):
    with pytest.raises(InvalidArgumentError) as e:
        kscope.load(SWEEP).write("parquet", tmp_path / "x.parquet", compare=kscope.load(SWEEP))
    assert str(e.value).startswith("format 'parquet' has no compare table")
    assert not (tmp_path / "x.parquet").exists()


def test_a_parquet_file_of_another_program_is_no_result(tmp_path):
    pytest.importorskip("pyarrow", reason=NO_PYARROW)
    path = str(tmp_path / "other.parquet")
    pd.DataFrame({"x": [1, 2]}).to_parquet(path)
    with pytest.raises(FileFormatError) as e:
        kscope.load(path)
    assert str(e.value) == (
        f"'{path}' is a Parquet file but not a kscope result: its key-value metadata has no "
        '"kscope.results". kscope reads the Parquet files it writes (kscope show -f parquet, '
        'write("parquet", path)); read other Parquet files with pandas.read_parquet')


def test_a_compressed_file_names_the_codec_and_what_to_do(tmp_path):
    pq = pyarrow_parquet()
    path = str(tmp_path / "snappy.parquet")
    pq.write_table(pq.read_table(written(SWEEP, tmp_path)), path, compression="snappy")
    with pytest.raises(FileFormatError) as e:
        kscope.load(path)
    assert re.fullmatch(
        re.escape(f"'{path}': column 'Annotation', row group 0 is compressed with SNAPPY, which "
                  "kscope's Parquet reader does not read: kscope writes and reads uncompressed "
                  "Parquet. This file was written by ") + r"parquet-cpp-arrow version [0-9.]+"
        + re.escape(". Load the file kscope wrote, or read this one with pandas.read_parquet"),
        str(e.value)), str(e.value)  # fmt: skip


def test_a_file_rewritten_by_another_program_lacks_its_tables(tmp_path):
    pq = pyarrow_parquet()
    path = str(tmp_path / "rewritten.parquet")
    # Uncompressed and dictionary-encoded: kscope reads the raw table, not the tables it lost.
    pq.write_table(pq.read_table(written(SWEEP, tmp_path)), path, compression="none")
    with pytest.raises(FileFormatError) as e:
        kscope.load(path)
    text = str(e.value)
    assert text.startswith(f"'{path}', table configs (bytes "), text
    assert re.search(r"not a Parquet file \(it does not start and end with \"PAR1\"\)\. This "
                     r"file was written by parquet-cpp-arrow version [0-9.]+, not kscope: the "
                     r"tables of a kscope result inside it are lost when another program writes "
                     r"it again$", text), text  # fmt: skip


@needs_engine_tool
def test_show_compare_and_merge_take_parquet_files(tmp_path):
    parquet = written(SWEEP, tmp_path)
    shown = run_kscope("show", parquet)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == run_kscope("show", SWEEP).stdout
    compared = run_kscope("compare", SWEEP, parquet)
    assert compared.returncode == 0, compared.stderr
    assert compared.stdout.replace(parquet, SWEEP) == run_kscope("compare", SWEEP, SWEEP).stdout
    merged = run_kscope("merge", parquet, "--allow-overlap", "-o", str(tmp_path / "m.json"))
    assert merged.returncode == 0, merged.stderr
    assert kscope.load(tmp_path / "m.json").to_dataframe().equals(kscope.load(SWEEP).to_dataframe())
    out = run_kscope("show", SWEEP, "-f", "parquet", "-o", str(tmp_path / "cli.parquet"))
    assert out.returncode == 0, out.stderr
    assert kscope.load(tmp_path / "cli.parquet").render("json") == kscope.load(SWEEP).render("json")


@needs_engine_tool
def test_show_refuses_to_write_parquet_to_a_terminal(tmp_path):
    main, terminal = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-c", LAUNCHER, "show", SWEEP, "-f", "parquet"],
                              stdout=terminal, stderr=subprocess.PIPE, env=environment(),
                              timeout=120)  # fmt: skip
    finally:
        os.close(terminal)
        os.close(main)
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "kscope: error: format 'parquet' writes a binary file, not text: it cannot be written to "
        'a terminal. Write it to a file (kscope show -f parquet -o FILE, write("parquet", '
        'path))\n')
