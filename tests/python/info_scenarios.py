"""nsight-python's info-collector integration scenarios (tests/test_info_collector_integration.py
of the reference), written once and run twice: on the CPU through the engine's real session
(test_info_collectors.py) and on the GPU with PyTorch kernels (test_gpu_info_collectors.py).

Each scenario takes ``launch(annotation, n)``, which runs the one kernel of an annotation (or
nothing on the CPU), profiles a function with the collectors under test and checks the
DataFrame."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

import pytest

import kscope

SILENT = kscope.VerbosityLevel.SILENT
ONCE, CONFIG, RUN, ANNOTATION = kscope.CollectionScope
Launch = Callable[[str, int], None]


def profile(launch: Launch, annotations: tuple[str, ...], collectors: Any,
            configs: list[tuple[int]], runs: int, **options: Any) -> Any:  # fmt: skip
    """The processed DataFrame of a function that enters ``annotations`` in every run."""

    @kscope.analyze.kernel(configs=configs, runs=runs, verbosity=SILENT,
                           info_collectors=collectors, **options)  # fmt: skip
    def bench(n):
        for name in annotations:
            with kscope.annotate(name):
                launch(name, n)

    return bench().to_dataframe()


def cell(df: Any, annotation: str, n: int, column: str) -> Any:
    rows = df[(df["n"] == n) & (df["Annotation"] == annotation)]
    assert len(rows) == 1, df
    return rows[column].iloc[0]


def annotation_counter(launch: Launch) -> None:
    counter = {"n": 0}

    @kscope.experimental.collect(scope=ANNOTATION)
    def exec_counter(annotation_name, *config_args):
        counter["n"] += 1
        return counter["n"]

    df = profile(launch, ("add", "mul"), [exec_counter], [(512,), (1024,)], runs=3)
    # add is entered 1st, 3rd, 5th then 7th, 9th, 11th; mul 2nd, 4th, ... (per-run copies)
    expected = {("add", 512): (1, 5), ("mul", 512): (2, 6), ("add", 1024): (7, 11),
                ("mul", 1024): (8, 12)}  # fmt: skip
    for (annotation, n), (low, high) in expected.items():
        assert cell(df, annotation, n, "exec_counter_Min") == low
        assert cell(df, annotation, n, "exec_counter_Max") == high
    assert "exec_counter_Avg" in df.columns


def once_config_and_mixed_scopes(launch: Launch) -> None:
    calls = {"once": 0, "config": []}

    @kscope.experimental.collect(scope=ONCE)
    def static_version():
        calls["once"] += 1
        return "v1.0.0"

    @kscope.experimental.collect(scope=CONFIG)
    def track_config(n):
        calls["config"].append(n)
        return n * 2

    @kscope.experimental.collect(scope=ANNOTATION)
    def annotation_value(annotation_name, n):
        return len(annotation_name)

    df = profile(launch, ("add",), [static_version, track_config, annotation_value],
                 [(512,), (1024,)], runs=2)  # fmt: skip
    assert calls == {"once": 1, "config": [512, 1024]}
    assert (df["static_version"] == "v1.0.0").all() and df["static_version"].nunique() == 1
    assert cell(df, "add", 512, "track_config_Avg") == 1024
    assert cell(df, "add", 1024, "track_config_Avg") == 2048
    assert (df["annotation_value_Avg"] == 3).all()


def with_derive_metric(launch: Launch) -> None:
    @kscope.experimental.collect(scope=ONCE)
    def derive_static_version():
        return "v9.9.9"

    @kscope.experimental.collect(scope=CONFIG)
    def derive_config_value(n):
        return n * 3

    def derive_double(time_ns, n):
        return time_ns * 2.0, "ns2"

    df = profile(launch, ("add",), [derive_static_version, derive_config_value],
                 [(512,), (1024,)], runs=2, derive_metric=derive_double)  # fmt: skip
    derived = df[df["Metric"] == "derive_double"]
    assert len(derived) == 2
    assert (derived["derive_static_version"] == "v9.9.9").all()
    assert derived["derive_config_value_Avg"].notna().all()
    assert cell(derived, "add", 512, "derive_config_value_Avg") == 1536


def annotation_strings(launch: Launch) -> None:
    seen = []

    @kscope.experimental.collect(scope=ANNOTATION)
    def track_annotation(annotation_name, n):
        seen.append((annotation_name, n))
        return f"{annotation_name}_{n}"

    df = profile(launch, ("add", "mul"), [track_annotation], [(512,), (1024,)], runs=2)
    assert cell(df, "add", 512, "track_annotation") == "add_512"
    assert cell(df, "mul", 1024, "track_annotation") == "mul_1024"
    assert "track_annotation_Avg" not in df.columns
    assert len(seen) == 8  # 2 configs x 2 runs x 2 annotations


def numeric_and_string(launch: Launch) -> None:
    values: list[int] = []

    @kscope.experimental.collect(scope=RUN)
    def numeric_collector(n):
        values.append(random.randint(100, 200))
        return values[-1]

    @kscope.experimental.collect(scope=RUN)
    def string_collector(n):
        return f"config_{n}"

    df = profile(launch, ("add",), [numeric_collector, string_collector], [(512,)], runs=5)
    assert "string_collector_Avg" not in df.columns
    row = df.iloc[0]
    assert row["numeric_collector_Min"] == min(values)
    assert row["numeric_collector_Max"] == max(values)
    assert row["numeric_collector_Avg"] == pytest.approx(sum(values) / 5)
    assert row["numeric_collector_Std"] == pytest.approx(
        math.sqrt(sum((v - sum(values) / 5) ** 2 for v in values) / 4))  # fmt: skip
    assert row["string_collector"] == "config_512"


def failing_collector(launch: Launch) -> None:
    @kscope.experimental.collect(scope=RUN)
    def failing_collector(n):
        if n == 512:
            raise ValueError("Simulated collection failure")
        return n * 2

    @kscope.experimental.collect(scope=RUN)
    def success_collector(n):
        return n * 2

    with pytest.warns(RuntimeWarning) as record:
        df = profile(launch, ("add",), [failing_collector, success_collector],
                     [(512,), (1024,)], runs=2)  # fmt: skip
    messages = [str(w.message) for w in record if "Info collector" in str(w.message)]
    assert messages == ["Info collector 'failing_collector' (run scope) raised ValueError: "
                        "Simulated collection failure. Its column will be None for failed "
                        "runs."]  # fmt: skip
    assert cell(df, "add", 512, "success_collector_Avg") == 1024
    assert cell(df, "add", 1024, "success_collector_Avg") == 2048
    assert math.isnan(cell(df, "add", 512, "failing_collector_Avg"))
    assert cell(df, "add", 1024, "failing_collector_Avg") == 2048


def three_annotations_in_order(launch: Launch) -> None:
    order = []

    @kscope.experimental.collect(scope=ANNOTATION)
    def track_order(annotation_name, n):
        order.append(annotation_name)
        return len(order)

    df = profile(launch, ("first", "second", "third"), [track_order], [(512,)], runs=2)
    assert len(df) == 3
    df = df.set_index("Annotation")
    assert df.loc["first", ["track_order_Min", "track_order_Max"]].tolist() == [1, 4]
    assert df.loc["second", ["track_order_Min", "track_order_Max"]].tolist() == [2, 5]
    assert df.loc["third", ["track_order_Min", "track_order_Max"]].tolist() == [3, 6]


def decorator_api_columns(launch: Launch) -> None:
    @kscope.experimental.collect(scope=ONCE)
    def _z_collector():
        return "z_value"

    @kscope.experimental.collect(scope=CONFIG)
    def _a_collector(n):
        return n * 2

    @kscope.experimental.collect(scope=RUN)
    def _my_run_collector(n):
        return n

    @kscope.experimental.collect(scope=ANNOTATION)
    def _my_annotation_collector(annotation_name, n):
        return annotation_name

    df = profile(launch, ("add",), [_z_collector, _a_collector, _my_run_collector,
                                    _my_annotation_collector], [(512,)], runs=1)  # fmt: skip
    for column in ("_z_collector", "_a_collector_Avg", "_my_run_collector_Avg",
                   "_my_annotation_collector", "n"):  # fmt: skip
        assert column in df.columns
    assert df["_z_collector"].iloc[0] == "z_value" and df["_a_collector_Avg"].iloc[0] == 1024
    assert df["n"].iloc[0] == 512


def empty_collectors(launch: Launch) -> None:
    for collectors in (None, []):
        df = profile(launch, ("add",), collectors, [(512,)], runs=1)
        columns = list(df.columns)
        assert len(df) == 1 and columns[columns.index("Throttled") + 1 : columns.index("CI95_Lower")] == [
            "Median", "Q1", "Q3"]


SCENARIOS = [annotation_counter, once_config_and_mixed_scopes, with_derive_metric,
             annotation_strings, numeric_and_string, failing_collector,
             three_annotations_in_order, decorator_api_columns, empty_collectors]  # fmt: skip
