"""ProfileResults: DataFrames from saved results (golden files in the engine's JSON format),
kscope.load, to_json round trips."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pandas as pd
import pytest

import kscope
from kscope._native import native
from kscope.exceptions import ProfilerException

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures")
GOLDEN = os.path.join(FIXTURES, "golden", "python")
SILENT = kscope.VerbosityLevel.SILENT

PROCESSED_TAIL = [
    "AvgValue", "StdDev", "MinValue", "MaxValue", "NumRuns", "Kernel", "GPU", "Host",
    "ComputeClock", "MemoryClock", "Unit", "ClockMHz_Min", "TempC_Max", "PowerW_Avg",
    "Throttled", "Median", "Q1", "Q3", "CI95_Lower", "CI95_Upper", "RelativeStdDevPct",
    "StableMeasurement", "Normalized",
]  # fmt: skip


def golden(name):
    return kscope.load(os.path.join(GOLDEN, name))


def test_processed_columns_in_reference_order():
    df = golden("cpp_matmul_sweep.json").to_dataframe()
    assert list(df.columns) == ["Annotation", "Metric", "n", "dtype", *PROCESSED_TAIL, "Geomean"]


def test_processed_values_and_dtypes():
    df = golden("cpp_matmul_sweep.json").to_dataframe()
    assert df["n"].dtype == np.int64 and df["n"].tolist() == [1024, 2048] * 4
    assert df["dtype"].tolist() == ["float32", "float16"] * 4
    assert df["NumRuns"].dtype == np.int64
    first = df.iloc[0]
    assert (first["Annotation"], first["Metric"], first["Unit"]) == ("matmul", "gpu__time_duration.sum", "ns")
    assert first["AvgValue"] == 105.0 and first["StdDev"] == pytest.approx(math.sqrt(50))
    assert (first["GPU"], first["Host"], first["ComputeClock"]) == ("NVIDIA H200", "gpu-node-1", 1980000)
    assert df["Normalized"].dtype == bool and not df["Normalized"].any()


def test_failed_run_is_not_counted():
    df = golden("cpp_matmul_sweep.json").to_dataframe()
    row = df[(df.Annotation == "matmul") & (df.Metric == "gpu__time_duration.sum") & (df.n == 2048)]
    assert row["NumRuns"].item() == 1 and row["AvgValue"].item() == 400.0
    assert math.isnan(row["StdDev"].item())


def test_telemetry_columns_are_nan_without_telemetry():
    df = golden("cpp_matmul_sweep.json").to_dataframe()
    for column in ("ClockMHz_Min", "TempC_Max", "PowerW_Avg", "Throttled"):
        assert df[column].dtype == float and df[column].isna().all()


def test_telemetry_columns():
    df = golden("cpp_telemetry.json").to_dataframe()
    assert df["ClockMHz_Min"].tolist() == [1755.0, 1980.0]
    assert df["TempC_Max"].tolist() == [71.0, 64.0] and df["Throttled"].tolist() == [0.5, 0.0]
    assert df["PowerW_Avg"].tolist() == pytest.approx([612.5, 480.0])
    telemetry = golden("cpp_telemetry.json").engine_results.telemetry
    assert len(telemetry) == 4 and telemetry[0].after.sm_clock_mhz == 1755
    assert telemetry[1].before.clock_event_reasons == 0x20 and telemetry[1].cooling_wait_s == 2.5
    # How old each reading was at the run boundary (the sampler's); absent in older files.
    assert telemetry[0].before.age_ms == 3.25 and telemetry[0].after.age_ms == 18.5
    assert telemetry[1].before.age_ms is None


def test_stable_measurement_is_nullable_boolean():
    df = golden("cpp_matmul_sweep.json").to_dataframe()
    assert str(df["StableMeasurement"].dtype) == "boolean"
    assert df["StableMeasurement"].tolist()[:3] == [False, pd.NA, True]


def test_derived_metric_without_unit_has_nan_unit():
    df = golden("cpp_matmul_sweep.json").to_dataframe()
    derived = df[df.Metric == "tflops"]
    assert len(derived) == 4 and derived["Unit"].isna().all()
    assert df[df.Metric == "gpu__time_duration.sum"]["Unit"].eq("ns").all()


def test_rows_keep_first_appearance_order():
    df = golden("cpp_matmul_sweep.json").to_dataframe()
    assert df[["Annotation", "Metric"]].drop_duplicates().values.tolist() == [
        ["matmul", "gpu__time_duration.sum"], ["add", "gpu__time_duration.sum"],
        ["matmul", "tflops"], ["add", "tflops"]]  # fmt: skip


def test_normalized_results():
    df = golden("cpp_normalized.json").to_dataframe()
    assert list(df.columns) == ["Annotation", "Metric", "n", *PROCESSED_TAIL,
                                "NormalizationValue", "Geomean"]  # fmt: skip
    assert df["Normalized"].eq("torch").all()
    assert df[df.Annotation == "torch"]["AvgValue"].tolist() == [1.0, 1.0]
    triton = df[df.Annotation == "triton"]
    assert triton["AvgValue"].tolist() == pytest.approx([4.1 / 5.0, 60.0 / 81.0])
    assert triton["NormalizationValue"].tolist() == [5.0, 81.0]


def test_raw_dataframe():
    raw = golden("cpp_matmul_sweep.json").raw_dataframe()
    assert list(raw.columns) == ["Annotation", "Value", "Metric", "Kernel", "GPU", "Host",
                                 "ComputeClock", "MemoryClock", "Unit", "n", "dtype"]  # fmt: skip
    assert len(raw) == 16
    assert raw["Value"].tolist()[:4] == [100.0, 110.0, 400.0, pytest.approx(float("nan"), nan_ok=True)]
    assert raw["n"].tolist()[:4] == [1024, 1024, 2048, 2048]


def test_python_objects_come_back():
    r = golden("python_objects.json")
    df = r.to_dataframe()
    assert df["shape"].tolist() == [[1024, 512], [2048, 512]]
    assert df["opts"].tolist() == [{"dtype": "f16"}, {"dtype": "f32"}]
    assert math.isnan(df["scale"][0]) and df["scale"][1] == 0.5
    assert df["flag"].tolist() == [True, False]
    assert r.configs[0] == ([1024, 512], {"dtype": "f16"}, None, True)


def test_python_objects_come_back_from_a_result_in_another_layout(tmp_path):
    # kscope's layout reads only the configs' text; a document in another (one line, keys
    # sorted) is decoded whole, to the same values.
    with open(os.path.join(GOLDEN, "python_objects.json")) as f:
        document = json.load(f)
    path = tmp_path / "one_line.json"
    path.write_text(json.dumps(document, sort_keys=True))
    assert kscope.load(path).configs == golden("python_objects.json").configs
    assert kscope.load(path).configs[0] == ([1024, 512], {"dtype": "f16"}, None, True)


def test_cpp_loader_keeps_python_objects_as_json_text():
    engine = native.Results.load(os.path.join(GOLDEN, "python_objects.json"))
    assert engine.configs[0].values[:2] == ["[1024,512]", '{"dtype":"f16"}']


def test_unfinished_journal():
    r = golden("journal_unfinished.jsonl")
    assert r.complete is False and (r.name, r.id) == ("vadd", 3)
    df = r.to_dataframe()
    assert df["n"].tolist() == [1024]
    assert df["AvgValue"].tolist() == [1515.0] and df["Kernel"].tolist() == ["vadd"]


def test_properties():
    r = golden("cpp_matmul_sweep.json")
    assert (r.name, r.id, r.parameters, r.complete) == ("matmul", 0, ["n", "dtype"], True)
    assert r.configs == [(1024, "float32"), (2048, "float16")]
    assert r.metadata["gpu"] == "NVIDIA H200" and r.metadata["compute_capability"] == 90
    assert "matmul" in str(r) and repr(r) == "<ProfileResults matmul-0: 2 configs, 8 rows>"


def test_the_duration_definition_is_metadata_and_frame_attrs(tmp_path):
    document = json.loads(open(os.path.join(GOLDEN, "cpp_matmul_sweep.json")).read())
    document["metadata"]["duration_definition"] = "profiler"
    path = tmp_path / "profiler.json"
    path.write_text(json.dumps(document))
    r = kscope.load(path)
    assert r.metadata["duration_definition"] == "profiler"
    assert r.to_dataframe().attrs["duration_definition"] == "profiler"
    assert r.raw_dataframe().attrs["duration_definition"] == "profiler"
    r.to_json(tmp_path / "again.json")
    assert kscope.load(tmp_path / "again.json").metadata["duration_definition"] == "profiler"
    # A file written before kscope recorded it: none known.
    assert golden("cpp_matmul_sweep.json").to_dataframe().attrs["duration_definition"] == ""


@pytest.mark.parametrize("name", ["cpp_matmul_sweep.json", "cpp_normalized.json",
                                  "python_objects.json", "journal_unfinished.jsonl"])  # fmt: skip
def test_to_json_round_trip(tmp_path, name):
    r = golden(name)
    path = tmp_path / "again.json"
    r.to_json(path)
    again = kscope.load(path)
    pd.testing.assert_frame_equal(again.to_dataframe(), r.to_dataframe())
    pd.testing.assert_frame_equal(again.raw_dataframe(), r.raw_dataframe())
    assert json.loads(path.read_text())["kind"] == "kscope.results"


def test_to_json_of_a_session_keeps_python_objects(fake_engine, tmp_path):
    tensor = np.ones((2, 2))

    @kscope.analyze.kernel(verbosity=SILENT)
    def f(shape, opts, data, n):
        pass

    r = f(configs=[((4, 4), {"a": [1, 2]}, tensor, np.int64(7))])
    r.to_json(tmp_path / "r.json")
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["configs"][0]["values"] == [[4, 4], {"a": [1, 2]},
                                           "ndarray(shape=(2, 2), dtype=float64)", 7]  # fmt: skip
    df = kscope.load(tmp_path / "r.json").to_dataframe()
    assert df["shape"][0] == [4, 4] and df["opts"][0] == {"a": [1, 2]} and df["n"][0] == 7


def test_result_written_by_the_cpp_engine():
    r = kscope.load(os.path.join(FIXTURES, "golden", "vadd_results.json"))
    df = r.to_dataframe()
    assert list(df.columns[:4]) == ["Annotation", "Metric", "n", "dtype"]
    assert df["n"].dtype == np.int64 and set(df["n"]) == {1024, 4096}
    assert set(df["Normalized"]) == {"baseline"} and "NormalizationValue" in df.columns
    assert df[df["Annotation"] == "baseline"]["AvgValue"].eq(1.0).all()


def test_load_ncu_report_csv():
    r = kscope.load_ncu(os.path.join(FIXTURES, "ncu", "kscope_range_replay.csv"),
                        metrics=["gpu__time_duration.sum"])  # fmt: skip
    df = r.to_dataframe()
    assert r.parameters == ["ID"] and df["ID"].dtype == np.int64
    assert set(df["Metric"]) == {"gpu__time_duration.sum"} and (df["Unit"] == "ns").all()
    assert set(df["Annotation"]) == {"vadd", "scale"} and (df["AvgValue"] > 0).all()


def test_load_ncu_unknown_metric():
    with pytest.raises(ValueError, match="nope"):
        kscope.load_ncu(os.path.join(FIXTURES, "ncu", "kscope_range_replay.csv"), metrics=["nope"])


def test_load_missing_file(tmp_path):
    with pytest.raises(ProfilerException, match="cannot open"):
        kscope.load(tmp_path / "missing.json")


def test_load_other_json(tmp_path):
    path = tmp_path / "other.json"
    path.write_text('{"kind": "something else"}')
    with pytest.raises(ProfilerException, match="is not a kscope result file"):
        kscope.load(path)
