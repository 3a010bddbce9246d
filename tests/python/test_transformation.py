"""kscope.transformation.aggregate_data (nsight-python's name): a raw frame aggregated with the
engine's statistics, the parameter columns keeping the configs' objects."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from kscope import transformation
from kscope.exceptions import InvalidArgumentError
from kscope.utils import VerbosityLevel

SILENT = VerbosityLevel.SILENT


def one(config):
    pass


def two(n, dtype):
    pass


def raw(configs, values=None, annotation="mm", name="config"):
    values = values or [float(i + 1) for i in range(len(configs))]
    return pd.DataFrame({
        "Annotation": [annotation] * len(configs), "Metric": ["gpu__time_duration.sum"] * len(configs),
        "Value": values, "Kernel": ["gemm"] * len(configs), "Unit": ["ns"] * len(configs),
        name: configs,
    })  # fmt: skip


def test_runs_of_one_config_are_aggregated_with_the_engines_statistics():
    out = transformation.aggregate_data(raw([128] * 4, [1.0, 2.0, 3.0, 4.0]), one, None, SILENT)
    assert len(out) == 1
    row = out.iloc[0]
    assert (row["AvgValue"], row["MinValue"], row["MaxValue"], row["NumRuns"]) == (2.5, 1.0, 4.0, 4)
    assert row["StdDev"] == pytest.approx(np.std([1, 2, 3, 4], ddof=1))
    assert row["CI95_Lower"] < 2.5 < row["CI95_Upper"]
    assert (row["Kernel"], row["Unit"]) == ("gemm", "ns")
    assert pd.api.types.is_integer_dtype(out["config"]) and out["config"].iloc[0] == 128


def test_dict_and_list_configs_stay_themselves_and_group_by_value():
    d1, d2 = {"M": 512, "N": 512}, {"M": 1024, "N": 1024}
    out = transformation.aggregate_data(raw([d1, d1, d2, dict(d2)]), one, None, SILENT)
    assert out["NumRuns"].tolist() == [2, 2]
    assert out["config"].iloc[0] is d1 and isinstance(out["config"].iloc[1], dict)
    out = transformation.aggregate_data(raw([[1, 2]]), one, None, SILENT)
    assert out["config"].iloc[0] == [1, 2] and out["NumRuns"].iloc[0] == 1


def test_array_configs_group_by_identity():
    # Tensors and arrays compare elementwise: the same object is one config, another is another.
    a, b = np.zeros((2, 2)), np.zeros((2, 2))
    out = transformation.aggregate_data(raw([a, a, b]), one, None, SILENT)
    assert out["NumRuns"].tolist() == [2, 1]
    assert out["config"].iloc[0] is a and out["config"].iloc[1] is b


def test_the_last_columns_are_the_functions_parameters():
    df = raw([1024, 1024, 2048], name="n")
    df["dtype"] = ["f32", "f32", "f16"]
    out = transformation.aggregate_data(df, two, None, SILENT)
    assert out[["n", "dtype", "NumRuns"]].values.tolist() == [[1024, "f32", 2], [2048, "f16", 1]]
    assert list(out.columns[:4]) == ["Annotation", "Metric", "Kernel", "Unit"]


def test_normalize_against_divides_by_the_baseline():
    df = pd.concat([raw([1, 1], [10.0, 10.0], "base"), raw([1, 1], [5.0, 5.0], "fast")])
    out = transformation.aggregate_data(df, one, "base", SILENT)
    assert out.set_index("Annotation")["AvgValue"].to_dict() == {"base": 1.0, "fast": 0.5}
    assert set(out["Normalized"]) == {"base"}
    with pytest.raises(InvalidArgumentError, match="nope"):
        transformation.aggregate_data(df, one, "nope", SILENT)


def test_failed_runs_are_nan_and_not_counted(capsys):
    out = transformation.aggregate_data(raw([1, 1, 1], [1.0, math.nan, 3.0]), one, None,
                                        VerbosityLevel.INFO)  # fmt: skip
    assert (out["AvgValue"].iloc[0], out["NumRuns"].iloc[0]) == (2.0, 2)
    assert capsys.readouterr().out == "[kscope] Processing profiled data\n"
