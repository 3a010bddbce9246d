"""Info collectors on real kernels (marker gpu): nsight-python's integration scenarios
(tests/test_info_collector_integration.py of the reference) with PyTorch elementwise kernels, one
kernel per annotation, plus what only a real tool can show: work a collector launches is not
attributed to the annotation, and values come back from the child of the ncu tool."""

from __future__ import annotations

import math
import os
import random
import shutil
import subprocess
import sys
import textwrap

import pytest

import kscope

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
SILENT = kscope.VerbosityLevel.SILENT
ONCE, CONFIG, RUN, ANNOTATION = kscope.CollectionScope
PYTHON_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "python")

_TENSORS: dict[int, tuple] = {}


def launch_add(n: int) -> None:
    a, b = _tensors(n)
    torch.add(a, b)


def launch_mul(n: int) -> None:
    a, b = _tensors(n)
    torch.mul(a, b)


def _tensors(n: int) -> tuple:
    # Allocated once, outside the annotations: only the elementwise kernel runs inside.
    if n not in _TENSORS:
        _TENSORS[n] = (torch.randn(n, device="cuda"), torch.randn(n, device="cuda"))
    return _TENSORS[n]


def cell(df, annotation, n, column):
    rows = df[(df["n"] == n) & (df["Annotation"] == annotation)]
    assert len(rows) == 1, df
    return rows[column].iloc[0]


def test_annotation_counter_per_run_copies():
    counter = {"n": 0}

    @kscope.experimental.collect(scope=ANNOTATION)
    def exec_counter(annotation_name, *config_args):
        counter["n"] += 1
        return counter["n"]

    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=3, verbosity=SILENT,
                           info_collectors=[exec_counter])
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)
        with kscope.annotate("mul"):
            launch_mul(n)

    df = bench().to_dataframe()
    assert {"exec_counter_Avg", "exec_counter_Min", "exec_counter_Max"} <= set(df.columns)
    assert cell(df, "add", 512, "exec_counter_Min") == 1
    assert cell(df, "add", 512, "exec_counter_Max") == 5
    assert cell(df, "mul", 512, "exec_counter_Min") == 2
    assert cell(df, "mul", 512, "exec_counter_Max") == 6
    assert cell(df, "add", 1024, "exec_counter_Min") == 7
    assert cell(df, "add", 1024, "exec_counter_Max") == 11
    assert cell(df, "mul", 1024, "exec_counter_Min") == 8
    assert cell(df, "mul", 1024, "exec_counter_Max") == 12
    assert (df["AvgValue"] > 0).all()


def test_once_config_and_mixed_scopes():
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

    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=2, verbosity=SILENT,
                           info_collectors=[static_version, track_config, annotation_value])
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    df = bench().to_dataframe()
    assert calls == {"once": 1, "config": [512, 1024]}
    assert (df["static_version"] == "v1.0.0").all() and df["static_version"].nunique() == 1
    assert df[df["n"] == 512]["track_config_Avg"].iloc[0] == 1024
    assert df[df["n"] == 1024]["track_config_Avg"].iloc[0] == 2048
    assert (df["annotation_value_Avg"] == 3).all()


def test_collectors_with_derive_metric():
    @kscope.experimental.collect(scope=ONCE)
    def derive_static_version():
        return "v9.9.9"

    @kscope.experimental.collect(scope=CONFIG)
    def derive_config_value(n):
        return n * 3

    def derive_double(time_ns, n):
        return time_ns * 2.0, "ns2"

    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=2, verbosity=SILENT,
                           derive_metric=derive_double,
                           info_collectors=[derive_static_version, derive_config_value])
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    df = bench().to_dataframe()
    derived = df[df["Metric"] == "derive_double"]
    assert len(derived) == 2
    assert (derived["derive_static_version"] == "v9.9.9").all()
    assert derived["derive_config_value_Avg"].notna().all()
    assert derived[derived["n"] == 512]["derive_config_value_Avg"].iloc[0] == 1536


def test_annotation_scope_strings_with_two_annotations():
    seen = []

    @kscope.experimental.collect(scope=ANNOTATION)
    def track_annotation(annotation_name, n):
        seen.append((annotation_name, n))
        return f"{annotation_name}_{n}"

    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=2, verbosity=SILENT,
                           info_collectors=[track_annotation])
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)
        with kscope.annotate("mul"):
            launch_mul(n)

    df = bench().to_dataframe()
    assert cell(df, "add", 512, "track_annotation") == "add_512"
    assert cell(df, "mul", 1024, "track_annotation") == "mul_1024"
    assert len(seen) == 8  # 2 configs x 2 runs x 2 annotations


def test_numeric_and_string_run_collectors():
    @kscope.experimental.collect(scope=RUN)
    def numeric_collector(n):
        return random.randint(100, 200)

    @kscope.experimental.collect(scope=RUN)
    def string_collector(n):
        return f"config_{n}"

    @kscope.analyze.kernel(configs=[(512,)], runs=5, verbosity=SILENT,
                           info_collectors=[numeric_collector, string_collector])
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    df = bench().to_dataframe()
    assert {"numeric_collector_Avg", "numeric_collector_Std", "numeric_collector_Min",
            "numeric_collector_Max", "string_collector"} <= set(df.columns)  # fmt: skip
    assert "string_collector_Avg" not in df.columns
    row = df.iloc[0]
    for column in ("numeric_collector_Min", "numeric_collector_Max", "numeric_collector_Avg"):
        assert 100 <= row[column] <= 200
    assert row["string_collector"] == "config_512"


def test_failing_collector_never_aborts():
    @kscope.experimental.collect(scope=RUN)
    def failing_collector(n):
        if n == 512:
            raise ValueError("Simulated collection failure")
        return n * 2

    @kscope.experimental.collect(scope=RUN)
    def success_collector(n):
        return n * 2

    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=1, verbosity=SILENT,
                           info_collectors=[failing_collector, success_collector])
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    with pytest.warns(RuntimeWarning, match=r"Info collector 'failing_collector' \(run scope\) "
                      r"raised ValueError: Simulated collection failure"):  # fmt: skip
        df = bench().to_dataframe()
    assert df[df["n"] == 512]["success_collector_Avg"].iloc[0] == 1024
    assert df[df["n"] == 1024]["success_collector_Avg"].iloc[0] == 2048
    assert math.isnan(df[df["n"] == 512]["failing_collector_Avg"].iloc[0])
    assert df[df["n"] == 1024]["failing_collector_Avg"].iloc[0] == 2048


def test_three_annotations_in_order():
    order = []

    @kscope.experimental.collect(scope=ANNOTATION)
    def track_order(annotation_name, n):
        order.append(annotation_name)
        return len(order)

    @kscope.analyze.kernel(configs=[(512,)], runs=2, verbosity=SILENT,
                           info_collectors=[track_order])
    def bench(n):
        with kscope.annotate("first"):
            launch_add(n)
        with kscope.annotate("second"):
            launch_mul(n)
        with kscope.annotate("third"):
            launch_add(n)

    df = bench().to_dataframe().set_index("Annotation")
    assert len(df) == 3
    assert df.loc["first", ["track_order_Min", "track_order_Max"]].tolist() == [1, 4]
    assert df.loc["second", ["track_order_Min", "track_order_Max"]].tolist() == [2, 5]
    assert df.loc["third", ["track_order_Min", "track_order_Max"]].tolist() == [3, 6]


def test_decorator_api_columns_and_ordering():
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

    @kscope.analyze.kernel(configs=[(512,)], runs=1, verbosity=SILENT,
                           info_collectors=[_z_collector, _a_collector, _my_run_collector,
                                            _my_annotation_collector])  # fmt: skip
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    df = bench().to_dataframe()
    for column in ("_z_collector", "_a_collector_Avg", "_my_run_collector_Avg",
                   "_my_annotation_collector", "n"):  # fmt: skip
        assert column in df.columns
    assert df["_z_collector"].iloc[0] == "z_value" and df["_a_collector_Avg"].iloc[0] == 1024
    assert df["n"].iloc[0] == 512


@pytest.mark.parametrize("collectors", [None, []])
def test_empty_collectors(collectors):
    @kscope.analyze.kernel(configs=[(512,)], runs=1, verbosity=SILENT, info_collectors=collectors)
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    assert len(bench().to_dataframe()) == 1


def test_kernels_of_an_annotation_collector_are_not_attributed():
    # The collector runs before the annotation opens: its kernel would otherwise make two
    # kernels in "add" ("More than one kernel ...").
    @kscope.experimental.collect(scope=ANNOTATION)
    def gpu_sum(annotation_name, n):
        a, _ = _tensors(n)
        return float(a.sum().item())

    @kscope.experimental.collect(scope=RUN)
    def gpu_max(n):
        a, _ = _tensors(n)
        return float(a.max().item())

    @kscope.analyze.kernel(configs=[(1 << 16,)], runs=3, verbosity=SILENT,
                           info_collectors=[gpu_sum, gpu_max])
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    df = bench().to_dataframe()
    assert len(df) == 1 and df["NumRuns"].iloc[0] == 3 and (df["AvgValue"] > 0).all()
    assert df["gpu_sum_Std"].iloc[0] == 0 and not math.isnan(df["gpu_max_Avg"].iloc[0])


def test_output_csv_has_the_columns(tmp_path):
    @kscope.analyze.kernel(configs=[(512,)], runs=2, verbosity=SILENT, output_csv=True,
                           output_prefix=str(tmp_path / "ic_"),
                           info_collectors=[("ver", lambda: "v1", "once"),
                                            ("size", lambda n: n * 4, "config")])  # fmt: skip
    def bench(n):
        with kscope.annotate("add"):
            launch_add(n)

    bench()
    raw = (tmp_path / "ic_profiled_data-bench-0.csv").read_text().splitlines()[0]
    processed = (tmp_path / "ic_processed_data-bench-0.csv").read_text().splitlines()[0]
    assert raw.endswith(",Unit,ver,size,n")
    assert ",Throttled,ver,size_Avg,size_Std,size_Min,size_Max,CI95_Lower," in processed


NCU_SCRIPT = textwrap.dedent(
    """
    import os
    import torch
    import kscope

    @kscope.experimental.collect(scope="run")
    def pid(n):
        return os.getpid()

    @kscope.analyze.kernel(configs=[(1 << 20,)], runs=2, tool="ncu",
                           verbosity=kscope.VerbosityLevel.SILENT,
                           info_collectors=[pid, ("region", lambda a, n: a, "annotation")])
    def vadd(n):
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        with kscope.annotate("add"):
            torch.add(a, b)

    df = vadd().to_dataframe()
    print("PARENT", os.getpid(), "CHILD", int(df["pid_Avg"].iloc[0]),
          "REGION", df["region"].iloc[0])
    """
)


def test_values_come_back_from_the_ncu_child(tmp_path):
    if not (os.environ.get("KSCOPE_NCU") or shutil.which("ncu")
            or os.path.exists("/usr/local/cuda/bin/ncu")):  # fmt: skip
        pytest.skip("Nsight Compute (ncu) is not installed")
    script = tmp_path / "ncu_collectors.py"
    script.write_text(NCU_SCRIPT)
    path = os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=500)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    words = done.stdout.split()
    parent, child = int(words[words.index("PARENT") + 1]), int(words[words.index("CHILD") + 1])
    assert child != parent  # collected in the re-executed program, carried back
    assert words[words.index("REGION") + 1] == "add"
