"""Info collectors without a GPU: the API and its checks (nsight-python's texts), the argument
binding rule, value conversion, and whole sessions through the engine's real session on the CPU
(``_kscope._test_profile_without_device``: each annotation entered in a measured run is one
"kernel" worth 100 (config + 1) + run ns), among them the reference's integration scenarios
(info_scenarios.py), and DataFrames of a golden result."""

from __future__ import annotations

import math
import os
import threading

import numpy as np
import pytest

import info_scenarios
import kscope
from kscope import info_collector
from kscope._native import native
from kscope.exceptions import ProfilerException

SILENT = kscope.VerbosityLevel.SILENT
ONCE, CONFIG, RUN, ANNOTATION = kscope.CollectionScope
GOLDEN = os.path.join(os.path.dirname(__file__), "..", "fixtures", "golden",
                      "info_collectors_results.json")  # fmt: skip
TIME = "gpu__time_duration.sum"


@pytest.fixture
def cpu_engine(monkeypatch):
    """profile() through the engine's real session without a device."""
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)


def add_mul(n):
    with kscope.annotate("add"):
        pass
    with kscope.annotate("mul"):
        pass


# --- API -------------------------------------------------------------------------------------


def test_exports():
    assert {"CollectionScope", "InfoCollector", "experimental"} <= set(kscope.__all__)
    assert [s.value for s in kscope.CollectionScope] == ["once", "config", "run", "annotation"]


def test_info_collector_collect_per_scope():
    assert kscope.InfoCollector("v", lambda: "x", ONCE).collect(1, 2) == "x"
    assert kscope.InfoCollector("s", lambda x, y: x + y, CONFIG).collect(10, 20) == 30
    assert kscope.InfoCollector("s", lambda *a: sum(a), CONFIG).collect(1, 2, 3, 4, 5) == 15
    assert kscope.InfoCollector("r", lambda v: v * 2, RUN).collect(21) == 42


def test_collect_decorator_and_call():
    @kscope.experimental.collect(scope=CONFIG)
    def collector(value):
        return value

    assert collector._nsight_collector_scope == "config"
    assert collector._nsight_collector_name == "collector"

    def callback():
        return 1

    assert kscope.experimental.collect(callback, scope="once") is callback
    assert callback._nsight_collector_scope == "once"


def test_collect_errors():
    with pytest.raises(ValueError, match=r"^Invalid collection scope 'invalid'. Expected one "
                       r"of 'once', 'config', 'run', 'annotation' or a CollectionScope.$"):
        kscope.experimental.collect(scope="invalid")
    with pytest.raises(TypeError, match="^collect can only decorate a callable$"):
        kscope.experimental.collect(42, scope="run")


@pytest.mark.parametrize(
    "collector, error, text",
    [
        (("a", lambda: 1), ValueError,
         r"^Tuple-format info collector must be \(name, callback, scope\); got \('a', "),
        ((1, lambda: 1, "once"), TypeError, "^Info collector name must be a str; got 1$"),
        (("a", 1, "once"), TypeError, "^Info collector callback for 'a' must be callable$"),
        (lambda: 1, ValueError, r"^Collector function <lambda> is missing "
                                r"@nsight.experimental.collect\(scope=...\) decorator$"),
        (42, TypeError, "^Invalid collector type: int$"),
        (("a", lambda: 1, "sometimes"), ValueError,
         r"^Invalid scope 'sometimes' for collector 'a'. Expected one of \['once', 'config', "
         r"'run', 'annotation'\] or a CollectionScope.$"),
    ],
)  # fmt: skip
def test_normalisation_errors_at_decoration(collector, error, text):
    with pytest.raises(error, match=text):
        kscope.analyze.kernel(info_collectors=[collector])(lambda: None)


def test_three_forms_are_accepted():
    @kscope.experimental.collect(scope="run")
    def decorated(n):
        return n

    forms = [kscope.InfoCollector("inst", lambda: 1, ONCE), ("tup", lambda n: n, "config"),
             ("tup_enum", lambda n: n, CONFIG), decorated]  # fmt: skip
    assert [n for n, _, _ in info_collector.normalize_collectors(forms)] == [
        "inst", "tup", "tup_enum", "decorated"]  # fmt: skip
    kscope.analyze.kernel(info_collectors=forms)(lambda n: None)


def test_duplicate_names_also_across_scopes():
    with pytest.raises(ProfilerException, match=r"^Duplicate info collector name 'name'. Each "
                       r"collector must have a unique name \(the function name becomes the "
                       r"column name\).$"):  # fmt: skip
        kscope.analyze.kernel(
            info_collectors=[("name", lambda: 1, "once"), ("name", lambda *a: 2, "annotation")]
        )(lambda: None)


@pytest.mark.parametrize("reserved", ["Kernel", "GPU", "Value", "Annotation", "AvgValue", "Geomean",
                                      "CI95_Lower", "Normalized", "StableMeasurement", "Throttled"])
def test_reserved_names(reserved):
    text = (rf"^Info collector name '{reserved}' collides with a reserved profiler column. "
            r"Reserved names: \['Annotation', 'AvgValue', ")
    with pytest.raises(ProfilerException, match=text):
        kscope.analyze.kernel(info_collectors=[(reserved, lambda *a: 1, "config")])(lambda: None)


def test_reserved_through_an_aggregate_column():
    with pytest.raises(ProfilerException, match="through its column 'PowerW_Avg'"):
        kscope.analyze.kernel(info_collectors=[("PowerW", lambda: 1, "run")])(lambda: None)


def test_parameter_names():
    def kernel(n, dtype):
        return None

    with pytest.raises(ProfilerException, match=r"^Info collector name 'n' collides with a "
                       r"parameter of 'kernel'. Rename the collector so it does not shadow a "
                       r"function argument column.$"):  # fmt: skip
        kscope.analyze.kernel(info_collectors=[("n", lambda *a: 1, "config")])(kernel)
    kscope.analyze.kernel(info_collectors=[("driver", lambda: "1.0", "once"),
                                           ("temp", lambda *a: 1, "config")])(kernel)  # fmt: skip


# --- binding rule and values -----------------------------------------------------------------


def test_bind_args_to_signature():
    bind = info_collector.bind_args_to_signature
    assert bind(lambda *a: a, (), (1, 2, 3)) == [1, 2, 3]
    assert bind(lambda n: n, (), (1, 2, 3)) == [1]  # default-padded config trimmed
    assert bind(lambda annotation_name, n: None, ("add",), (1, 2, 3)) == ["add", 1]
    assert bind(lambda annotation_name, *cfg: None, ("add",), (1, 2)) == ["add", 1, 2]
    assert bind(lambda: None, ("add",), (1,)) == ["add"]
    assert bind(max, (), (1, 2)) == [1, 2]  # no introspectable signature: everything


def test_column_values():
    value = info_collector.column_value
    assert value(None) is None and value("x") == "x"
    assert value(3) == 3.0 and isinstance(value(3), float) and value(True) == 1.0
    assert value(np.int64(7)) == 7.0 and value(np.float32(0.5)) == 0.5 and value(np.bool_(0)) == 0.0
    assert value(math.nan) is None
    assert value((1, 2)) == "(1, 2)" and value({"a": 1}) == "{'a': 1}"


# --- whole sessions on the CPU ---------------------------------------------------------------


def test_engine_collectors_convert_python_values():
    """The bindings' own conversion (without the package's adapter): numbers, numpy scalars and
    bools are floats, None is missing, a value of another type is a failure."""
    options = native.Options()
    options.verbosity = native.Verbosity.SILENT
    warnings = []
    options.on_warning = warnings.append
    returns = {"np": np.int64(5), "none": None, "text": "t", "bool": True, "list": [1]}
    options.info_collectors = [
        native.InfoCollector(name, native.CollectionScope.RUN, lambda a, c, v=value: v)
        for name, value in returns.items()
    ]

    def run(config):
        native.begin_annotation("a")
        native.end_annotation()

    results = native._test_profile_without_device("t", native.configs(["n"], [[1]]), run, options)
    assert results.raw[0].info == [5.0, None, "t", 1.0, None]
    assert warnings == ["Info collector 'list' (run scope) raised std::bad_cast: std::bad_cast. "
                        "Its column will be None for failed runs."]  # fmt: skip
    assert [c.aggregated for c in results.info_columns] == [True, False, False, True, False]


def test_call_counts_and_arguments(cpu_engine):
    calls = {"once": 0, "config": [], "run": [], "annotation": []}

    def once():
        calls["once"] += 1
        return "static"

    def config(n):
        calls["config"].append(n)
        return n

    def run(n):
        calls["run"].append(n)
        return n

    def annotation(name, n):
        calls["annotation"].append((name, n))
        return name

    collectors = [("o", once, "once"), ("c", config, "config"), ("r", run, "run"),
                  ("a", annotation, "annotation")]

    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=3, warmup_runs=1, verbosity=SILENT,
                           info_collectors=collectors)
    def bench(n):
        add_mul(n)

    bench()
    assert calls["once"] == 1
    assert calls["config"] == [512, 1024]
    assert calls["run"] == [512, 512, 512, 1024, 1024, 1024]
    assert calls["annotation"] == ([("add", 512), ("mul", 512)] * 3
                                   + [("add", 1024), ("mul", 1024)] * 3)
    bench()  # ONCE collectors run once per call of the decorated function
    assert calls["once"] == 2


def test_callbacks_get_the_original_python_values(cpu_engine):
    seen = []

    @kscope.analyze.kernel(runs=1, verbosity=SILENT, info_collectors=[
        ("all", lambda *values: seen.append(values), "config"),
        ("first", lambda shape: seen.append(shape), "run"),
        ("ann", lambda name, shape, opts: seen.append((name, opts)), "annotation")])  # fmt: skip
    def bench(shape, opts, scale=2.5):
        with kscope.annotate("k"):
            pass

    bench((2, 3), {"dtype": "f16"})
    # default-padded config: *args gets it all; fixed arity gets its leading values
    assert seen == [((2, 3), {"dtype": "f16"}, 2.5), (2, 3), ("k", {"dtype": "f16"})]


def test_raw_rows_of_derived_metrics_carry_the_values(cpu_engine):
    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=2, verbosity=SILENT,
                           derive_metric=lambda t, n: (t * 2.0, "ns2"),
                           info_collectors=[("value", lambda n: n * 3, "config")])  # fmt: skip
    def bench(n):
        with kscope.annotate("add"):
            pass

    raw = bench().raw_dataframe()
    derived = raw[raw["Metric"] == "<lambda>"]
    assert derived["value"].tolist() == [1536.0, 1536.0, 3072.0, 3072.0]


@pytest.mark.parametrize("scenario", info_scenarios.SCENARIOS, ids=lambda f: f.__name__)
def test_reference_scenario(cpu_engine, scenario):
    scenario(lambda annotation, n: None)


def test_failing_collector_warns_once_per_call(cpu_engine):
    def failing(n):
        raise ValueError("Simulated collection failure")

    @kscope.analyze.kernel(configs=[(512,), (1024,)], runs=2, verbosity=SILENT,
                           info_collectors=[("failing", failing, "run")])  # fmt: skip
    def bench(n):
        with kscope.annotate("add"):
            pass

    for _ in range(2):  # and again in the next call
        with pytest.warns(RuntimeWarning) as record:
            df = bench().to_dataframe()
        assert len(record) == 1 and "Simulated collection failure" in str(record[0].message)
        assert df["failing"].isna().all()  # never a number: one column of missing values


def test_keyboard_interrupt_in_a_collector_stops_profiling(cpu_engine):
    def stop():
        raise KeyboardInterrupt

    @kscope.analyze.kernel(runs=2, verbosity=SILENT, info_collectors=[("stop", stop, "once")])
    def bench():
        with kscope.annotate("a"):
            pass

    with pytest.raises(KeyboardInterrupt):
        bench()


def test_annotation_on_a_worker_thread(cpu_engine):
    threads = []

    def where(name):
        threads.append(threading.current_thread().name)
        return name

    @kscope.analyze.kernel(runs=1, verbosity=SILENT,
                           info_collectors=[("where", where, "annotation")])
    def bench():
        def work():
            with kscope.annotate("worker"):
                pass

        t = threading.Thread(target=work, name="worker-thread")
        t.start()
        t.join()

    df = bench().to_dataframe()
    assert threads == ["worker-thread"] and df["where"].tolist() == ["worker"]


def test_column_order_and_raw_columns(cpu_engine):
    @kscope.analyze.kernel(configs=[(512,)], runs=1, verbosity=SILENT, info_collectors=[
        ("_z_collector", lambda: "z_value", "once"), ("_a_collector", lambda n: n * 2, "config"),
        ("obj", lambda n: (n, n), "run")])  # fmt: skip
    def bench(n):
        with kscope.annotate("add"):
            pass

    results = bench()
    df = results.to_dataframe()
    columns = list(df.columns)
    assert columns[columns.index("Throttled") + 1: columns.index("CI95_Lower")] == [
        "_z_collector", "_a_collector_Avg", "_a_collector_Std", "_a_collector_Min",
        "_a_collector_Max", "obj"]  # fmt: skip
    assert df["_z_collector"].iloc[0] == "z_value" and df["_a_collector_Avg"].iloc[0] == 1024
    assert math.isnan(df["_a_collector_Std"].iloc[0])  # one run
    assert df["obj"].iloc[0] == "(512, 512)"  # other objects become their str
    raw = results.raw_dataframe()
    assert list(raw.columns) == ["Annotation", "Value", "Metric", "Kernel", "GPU", "Host",
                                 "ComputeClock", "MemoryClock", "Unit", "_z_collector",
                                 "_a_collector", "obj", "n"]  # fmt: skip


def test_to_json_round_trip(cpu_engine, tmp_path):
    @kscope.analyze.kernel(configs=[(1,), (2,)], runs=2, verbosity=SILENT,
                           info_collectors=[("twice", lambda n: 2 * n, "run")])  # fmt: skip
    def bench(n):
        with kscope.annotate("add"):
            pass

    results = bench()
    results.to_json(tmp_path / "r.json")
    again = kscope.load(tmp_path / "r.json")
    assert again.to_dataframe()["twice_Avg"].tolist() == [2.0, 4.0]
    assert list(again.raw_dataframe()["twice"]) == [2.0, 2.0, 4.0, 4.0]


def test_csv_files_have_the_columns(cpu_engine, tmp_path):
    @kscope.analyze.kernel(configs=[(512,)], runs=2, verbosity=SILENT, output_csv=True,
                           output_prefix=str(tmp_path / "ic_"),
                           info_collectors=[("ver", lambda: "v1", "once"),
                                            ("size", lambda n: n * 4, "config")])  # fmt: skip
    def bench(n):
        with kscope.annotate("add"):
            pass

    bench()
    raw = (tmp_path / "ic_profiled_data-bench-0.csv").read_text().splitlines()
    processed = (tmp_path / "ic_processed_data-bench-0.csv").read_text().splitlines()
    assert raw[0].endswith(",Unit,ver,size,n") and raw[1].endswith(",ns,v1,2048.0,512")
    assert ",Throttled,ver,size_Avg,size_Std,size_Min,size_Max,CI95_Lower," in processed[0]


def test_debug_prints_collected_values(cpu_engine, capsys):
    @kscope.analyze.kernel(runs=1, verbosity=kscope.VerbosityLevel.DEBUG,
                           info_collectors=[("region", lambda name: name, "annotation")])
    def bench():
        with kscope.annotate("add"):
            pass

    bench()
    assert "[kscope] Collected region (add): add" in capsys.readouterr().out


# --- golden result ---------------------------------------------------------------------------


def test_dataframes_of_a_golden_result():
    results = kscope.load(GOLDEN)
    df = results.to_dataframe()
    columns = list(df.columns)
    assert columns[columns.index("Throttled") + 1: columns.index("CI95_Lower")] == [
        "o", "c_Avg", "c_Std", "c_Min", "c_Max", "r_Avg", "r_Std", "r_Min", "r_Max",
        "a_Avg", "a_Std", "a_Min", "a_Max", "s"]  # fmt: skip
    first = df.iloc[0]
    assert (first["Annotation"], first["Metric"], first["n"]) == ("add", TIME, 512)
    assert (first["o"], first["c_Avg"], first["a_Min"], first["a_Max"], first["s"]) == (
        "v1", 1024.0, 1.0, 5.0, "add_512")  # fmt: skip
    assert df["r_Avg"].dtype == float and df["s"].dtype != float
    derived = df[df["Metric"] == "double"]
    assert len(derived) == 4 and derived["c_Avg"].notna().all()
    raw = results.raw_dataframe()
    assert list(raw.columns)[8:] == ["Unit", "o", "c", "r", "a", "s", "n"]
    assert raw["r"].isna().sum() == 4  # config 1 run 1 of both annotations and both metrics
