"""@kscope.analyze.kernel: decoration-time checks, options reaching the engine, the wrapper's
call semantics. The engine is the fake_engine fixture (no GPU) unless a test says otherwise."""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np
import pytest

import kscope
from kscope._native import native
from kscope.exceptions import (
    InvalidArgumentError,
    NoDeviceError,
    NotSupportedError,
    ProfilerException,
    ToolError,
)

SILENT = kscope.VerbosityLevel.SILENT
DEVICE_OK, _ = native.device_available()


def test_bare_decorator(fake_engine):
    @kscope.analyze.kernel
    def f(n):
        pass

    assert f.__name__ == "f"
    f(1)
    assert fake_engine.calls[0]["options"].runs == 1


def test_decorator_with_empty_parentheses(fake_engine):
    @kscope.analyze.kernel()
    def f(n):
        pass

    f(1)
    assert fake_engine.calls[0]["name"] == "f"


def test_decorator_with_options(fake_engine):
    runs = []

    @kscope.analyze.kernel(runs=3, verbosity=SILENT)
    def f(n):
        runs.append(n)

    df = f(7).to_dataframe()
    assert runs == [7, 7, 7]
    assert df["NumRuns"].tolist() == [3]


@pytest.mark.parametrize(
    ("option", "text"),
    [
        ("clock_control", r"^Invalid clock_control 'invalid_value'\. Expected 'base' or 'none'\.$"),
        ("cache_control", r"^Invalid cache_control 'invalid_value'\. Expected 'all', 'region' or 'none'\.$"),
        ("replay_mode", r"^Invalid replay_mode 'invalid_value'\. Expected 'kernel' or 'range'\.$"),
        (
            "metric_replay",
            r"^Invalid metric_replay 'invalid_value'\. Expected 'checkpoint', 'application' or "
            r"'kernel'\.$",
        ),
        (
            "duration_source",
            r"^Invalid duration_source 'invalid_value'\. Expected 'activity', 'profiler' or "
            r"'events'\.$",
        ),
        ("thermal_mode", r"^Invalid thermal_mode 'invalid_value'\. Expected 'auto', 'manual' or"),
    ],
)
def test_invalid_choice_at_decoration(option, text):
    with pytest.raises(ValueError, match=text) as info:
        kscope.analyze.kernel(**{option: "invalid_value"})
    assert isinstance(info.value, InvalidArgumentError)


def test_choice_of_wrong_type():
    with pytest.raises(ValueError, match=r"^Invalid cache_control None\. Expected 'all', 'region' or 'none'"):
        kscope.analyze.kernel(cache_control=None)


def test_thermal_cont_not_above_thermal_wait():
    with pytest.raises(ValueError, match=r"^Invalid thermal control parameters: thermal_cont "
                       r"\(10°C\) must be greater than thermal_wait \(15°C\)\."):  # fmt: skip
        kscope.analyze.kernel(thermal_wait=15, thermal_cont=10)


def test_thermal_values_are_ints():
    with pytest.raises(TypeError, match="thermal_wait must be an int or None"):
        kscope.analyze.kernel(thermal_wait=1.5)


@pytest.mark.parametrize("mode", ["auto", "manual", "off"])
def test_thermal_options_reach_the_engine(fake_engine, mode):
    @kscope.analyze.kernel(thermal_mode=mode, thermal_wait=12, thermal_cont=25,
                           thermal_timeout=60, thermal_device=0, verbosity=SILENT)  # fmt: skip
    def f():
        pass

    f()
    o = fake_engine.calls[0]["options"]
    assert (o.thermal_mode, o.thermal_wait, o.thermal_cont, o.thermal_timeout, o.thermal_device) == (
        mode, 12, 25, 60, 0)  # fmt: skip


def test_runs_must_be_positive():
    with pytest.raises(InvalidArgumentError, match=r"^Invalid runs 0\."):
        kscope.analyze.kernel(runs=0)


def test_runs_must_be_an_int():
    with pytest.raises(TypeError, match="runs must be an int"):
        kscope.analyze.kernel(runs="3")
    with pytest.raises(TypeError, match="runs must be an int"):
        kscope.analyze.kernel(runs=True)


def test_metrics_must_be_a_sequence_of_names():
    with pytest.raises(TypeError, match="metrics must be a sequence of str"):
        kscope.analyze.kernel(metrics="gpu__time_duration.sum")


def test_metric_names_are_stripped(fake_engine):
    @kscope.analyze.kernel(metrics=["  gpu__time_duration.sum \n"], verbosity=SILENT)
    def f():
        pass

    f()
    assert fake_engine.calls[0]["options"].metrics == ["gpu__time_duration.sum"]


def test_derive_metric_must_be_callable():
    with pytest.raises(TypeError, match="^derive_metric must be a callable function$"):
        kscope.analyze.kernel(derive_metric=3)


def test_combine_kernel_metrics_checks():
    with pytest.raises(TypeError, match="combine_kernel_metrics must be a callable"):
        kscope.analyze.kernel(combine_kernel_metrics="sum")
    with pytest.raises(ValueError, match="exactly two positional arguments"):
        kscope.analyze.kernel(combine_kernel_metrics=lambda x: x)


def test_combine_kernel_metrics_called_from_the_engine(fake_engine):
    @kscope.analyze.kernel(combine_kernel_metrics=lambda x, y: np.float32(x + y), verbosity=SILENT)
    def f():
        pass

    f()
    assert fake_engine.calls[0]["combined"] == 3.0


def test_invalid_verbosity():
    with pytest.raises(ValueError, match=r"Invalid verbosity 2\. Expected one of "
                       r"VerbosityLevel\.SILENT"):  # fmt: skip
        kscope.analyze.kernel(verbosity=2)


def test_verbosity_reaches_the_engine(fake_engine):
    @kscope.analyze.kernel(verbosity=kscope.VerbosityLevel.DEBUG)
    def f():
        pass

    f()
    assert fake_engine.calls[0]["options"].verbosity == native.Verbosity.DEBUG


def test_clock_control_base_is_refused_by_the_cupti_tool():
    with pytest.raises(NotSupportedError, match="clock_control 'base' needs the ncu tool"):
        kscope.analyze.kernel(clock_control="base")


def test_every_option_reaches_the_engine(fake_engine, tmp_path):
    prefix = str(tmp_path / "out" / "run_")

    @kscope.analyze.kernel(runs=2, warmup_runs=1, cache_control="none", replay_mode="kernel",
                           metric_replay="application", duration_source="profiler",
                           ignore_kernel_list=["memset"],
                           normalize_against="fake", output_prefix=prefix, output_csv=True,
                           verbosity=SILENT)  # fmt: skip
    def f():
        pass

    f()
    o = fake_engine.calls[0]["options"]
    assert (o.runs, o.warmup_runs, o.cache_control, o.replay_mode) == (2, 1, "none", "kernel")
    assert (o.metric_replay, o.call_name) == ("application", "kscope.analyze.kernel()")
    assert o.duration_source == "profiler"
    assert (o.ignore_kernel_list, o.normalize_against) == (["memset"], "fake")
    assert (o.output_prefix, o.output_csv, o.tool) == (prefix, True, "cupti")


def test_replay_and_duration_defaults(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        pass

    f()
    o = fake_engine.calls[0]["options"]
    assert (o.metric_replay, o.duration_source) == ("checkpoint", "activity")


def test_range_replay_refuses_cupti_kernel_replay_at_decoration():
    with pytest.raises(kscope.exceptions.InvalidArgumentError,
                       match=r"^Invalid metric_replay 'kernel' with replay_mode 'range': CUPTI's "
                             r"kernel replay replays single kernels, not ranges\."):  # fmt: skip
        kscope.analyze.kernel(replay_mode="range", metric_replay="kernel")(lambda: None)


def test_output_prefix_directory_created_at_the_first_call(fake_engine, tmp_path):
    prefix = tmp_path / "a" / "b" / "pre_"

    @kscope.analyze.kernel(output_prefix=str(prefix), verbosity=SILENT)
    def f():
        pass

    assert not (tmp_path / "a").exists()
    f()
    assert prefix.parent.is_dir()


def test_an_output_prefix_that_cannot_be_created_names_the_option(fake_engine, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    prefix = str(blocker / "sub" / "pre_")  # below a regular file

    @kscope.analyze.kernel(output_prefix=prefix, verbosity=SILENT)
    def f():
        pass

    with pytest.raises(kscope.exceptions.InvalidArgumentError,
                       match=rf"^Invalid output_prefix '{prefix}': cannot create its directory "
                             rf"'{blocker / 'sub'}' \(Not a directory\)\. Choose a prefix in a "
                             r"directory kscope can write to\.$"):  # fmt: skip
        f()
    assert fake_engine.calls == []


def test_output_prefix_with_a_tilde_is_below_the_home_directory(fake_engine, tmp_path, monkeypatch):
    # "~/x/" made a directory literally named "~" in the working directory (issue 38).
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)

    @kscope.analyze.kernel(output_prefix="~/x/", verbosity=SILENT)
    def f():
        pass

    f()
    assert (tmp_path / "home" / "x").is_dir()
    assert not (tmp_path / "~").exists()
    assert fake_engine.calls[0]["options"].output_prefix == f"{tmp_path}/home/x/"


def test_output_prefix_with_a_nul_is_refused_at_decoration(fake_engine):
    # It raised os.makedirs' bare "ValueError: embedded null byte" at the first call (issue 38).
    with pytest.raises(kscope.exceptions.InvalidArgumentError) as info:
        kscope.analyze.kernel(output_prefix="out\0dir/")(lambda: None)
    assert str(info.value) == (
        "Invalid output_prefix 'out\\x00dir/': it contains a NUL character, which no path can "
        "hold. Choose a prefix without it."
    )


@pytest.mark.parametrize("name", ["resume", "shard_balance"])
def test_path_options_of_another_type_are_a_type_error_naming_them(fake_engine, name):
    # resume=5 raised os.fspath's bare "expected str, bytes or os.PathLike object" (issue 38).
    with pytest.raises(TypeError) as info:
        kscope.analyze.kernel(**{name: 5})(lambda: None)
    assert str(info.value) == f"{name} must be a str, an os.PathLike or None, got 5"


def test_path_options_take_a_path_like(fake_engine, tmp_path):
    journal = tmp_path / "j.jsonl"
    f = kscope.analyze.kernel(resume=journal)(lambda: None)
    assert f.__kscope_profiler__.settings.engine["resume"] == str(journal)


def test_decorating_creates_no_temporary_directory(monkeypatch, tmp_path):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    @kscope.analyze.kernel
    def f():
        pass

    @kscope.analyze.kernel(configs=[(1,)], output_csv=True)
    def g(n):
        pass

    assert list(tmp_path.iterdir()) == []


def test_default_output_prefix_is_one_temporary_directory(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        pass

    f()
    f()
    first, second = (c["options"].output_prefix for c in fake_engine.calls)
    assert first == second and first.endswith(os.sep)
    assert os.path.basename(first.rstrip(os.sep)).startswith("kscope_") and os.path.isdir(first)


def test_the_literal_types_list_the_engines_allowed_values():
    from typing import get_args

    from kscope import thermovision
    from kscope.collection import core

    for option, alias in (("clock_control", core.ClockControl),
                          ("cache_control", core.CacheControl),
                          ("replay_mode", core.ReplayMode),
                          ("metric_replay", core.MetricReplay),
                          ("duration_source", core.DurationSource),
                          ("thermal_mode", thermovision.ThermalMode)):  # fmt: skip
        assert sorted(get_args(alias)) == sorted(native.allowed_values(option)), option


def test_device_available_is_the_engines_check():
    available, reason = native.device_available()
    assert kscope.device_available() is bool(available)
    assert kscope.device_unavailable_reason() == ("" if available else reason)


def test_return_value_warning(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        return 42

    with pytest.warns(RuntimeWarning, match="^Function 'f' returns a value, but the return value "
                      "for a function which is decorated with kscope.analyze.kernel is ignored "
                      "and instead the ProfileResults object is returned.$") as record:
        result = f()
    assert isinstance(result, kscope.ProfileResults)
    assert record[0].filename == __file__


def test_no_warning_for_none(fake_engine, recwarn):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        return None

    f()
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_run_ids_count_per_function(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def g():
        pass

    assert [g().id, g().id, g().id] == [0, 1, 2]
    assert fake_engine.calls[0]["name"] == "g"


def test_repeated_calls_return_their_own_rows(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f(n):
        pass

    assert len(f(1).to_dataframe()) == 1
    assert len(f(configs=[(1,), (2,)]).to_dataframe()) == 2


def test_python_exception_propagates_unchanged(fake_engine):
    error = KeyError("mine")

    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        raise error

    with pytest.raises(KeyError) as info:
        f()
    assert info.value is error


def test_keyboard_interrupt_propagates(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        f()


def test_engine_output_goes_to_sys_stdout(fake_engine, capsys):
    @kscope.analyze.kernel()
    def f():
        pass

    f()
    assert "[kscope] driven by _test_drive_callbacks\n" in capsys.readouterr().out


def test_engine_warnings_become_python_warnings(fake_engine):
    fake_engine.warning = "GPU throttled during 2 of 3 runs"

    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        pass

    with pytest.warns(RuntimeWarning, match="^GPU throttled during 2 of 3 runs$"):
        f()


def test_configs_keep_python_objects(fake_engine):
    tensor = np.arange(6).reshape(2, 3)

    @kscope.analyze.kernel(verbosity=SILENT)
    def f(n, shape, opts, data):
        pass

    r = f(configs=[(1, (2, 3), {"dtype": "f16"}, tensor), (2, [4, 5], {"dtype": "f32"}, tensor)])
    df = r.to_dataframe()
    assert df["n"].dtype == "int64" and df["n"].tolist() == [1, 2]
    assert df["shape"].tolist() == [(2, 3), [4, 5]]
    assert df["opts"][1] == {"dtype": "f32"}
    assert df["data"][0] is tensor
    labels = [c.label for c in fake_engine.calls[0]["configs"]]
    assert labels[0] == "n=1, shape=(2, 3), opts={'dtype': 'f16'}, data=ndarray(shape=(2, 3), dtype=int64)"


def test_config_labels_are_python_style(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f(n, causal, dtype, scale):
        pass

    f(1024, True, "fp16", 0.5)
    assert fake_engine.calls[0]["configs"][0].label == "n=1024, causal=True, dtype=fp16, scale=0.5"


def test_info_collectors_validated_at_decoration():
    def driver_version():
        return "13.0"

    with pytest.raises(ValueError, match="missing @nsight.experimental.collect"):
        kscope.analyze.kernel(info_collectors=[driver_version])(lambda: None)
    with pytest.raises(ValueError, match=r"Tuple-format info collector must be \(name, callback, "
                       r"scope\)"):  # fmt: skip
        kscope.analyze.kernel(info_collectors=[("a", driver_version)])(lambda: None)
    with pytest.raises(ProfilerException, match="collides with a reserved profiler column"):
        kscope.analyze.kernel(info_collectors=[("GPU", driver_version, "once")])(lambda: None)
    collector = kscope.experimental.collect(driver_version, scope="once")
    kscope.analyze.kernel(info_collectors=[collector])(lambda: None)  # accepted (see
    # test_info_collectors.py)


@pytest.mark.parametrize("collectors", [None, []])
def test_no_info_collectors_is_fine(fake_engine, collectors):
    @kscope.analyze.kernel(info_collectors=collectors, verbosity=SILENT)
    def f():
        pass

    f()


def test_invalid_collection_scope():
    with pytest.raises(ValueError, match="Invalid collection scope 'sometimes'"):
        kscope.experimental.collect(lambda: 1, scope="sometimes")


@pytest.mark.skipif(DEVICE_OK, reason="checks the behaviour on a machine without a GPU")
def test_no_cuda_device_before_anything_else(capfd, tmp_path):
    ran = []

    @kscope.analyze.kernel(configs=[(1,), (2,)], output_prefix=str(tmp_path / "p_"))
    def f(n):
        ran.append(n)
        with kscope.annotate("a"):
            pass

    with pytest.raises(NoDeviceError, match="^no CUDA device: ") as info:
        f()
    assert isinstance(info.value, RuntimeError)
    assert ran == []
    assert capfd.readouterr().out == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(DEVICE_OK, reason="checks the behaviour on a machine without a GPU")
def test_tools_without_capability_fail_clearly_before_the_device(capfd):
    @kscope.analyze.kernel(tool="sanitizer")
    def f():
        pass

    with pytest.raises((NotSupportedError, ToolError), match="sanitizer"):
        f()
    assert capfd.readouterr().out == ""


def test_tool_argument_validated():
    with pytest.raises(ValueError, match=r"Invalid tool 'nsys'\. Expected a kscope\.Tool member"):
        kscope.analyze.kernel(tool="nsys")


def test_warning_points_at_user_code_also_from_nested_frames(fake_engine):
    @kscope.analyze.kernel(verbosity=SILENT)
    def f():
        return 1

    def helper():
        return f()

    with pytest.warns(RuntimeWarning) as record:
        helper()
    assert record[0].filename == __file__
    assert sys.modules["kscope"].__file__ not in record[0].filename


@pytest.mark.parametrize("option", ["runs", "warmup_runs", "thermal_wait", "thermal_timeout"])
def test_an_int_beyond_the_engine_range_names_the_option(option):
    with pytest.raises(kscope.exceptions.InvalidArgumentError,
                       match=rf"^Invalid {option} 1099511627776\. Expected an integer <= "
                             r"2147483647\.$"):  # fmt: skip
        kscope.analyze.kernel(**{option: 2**40})(lambda: None)


def test_a_choice_of_the_wrong_type_is_an_invalid_argument():
    with pytest.raises(kscope.exceptions.InvalidArgumentError,
                       match=r"^Invalid clock_control None\. Expected 'base' or 'none'\.$"):  # fmt: skip
        kscope.analyze.kernel(clock_control=None)(lambda: None)


def test_thermal_wait_above_the_default_cont_is_refused():
    with pytest.raises(kscope.exceptions.InvalidArgumentError,
                       match=r"thermal_cont \(20°C, the default\) must be greater than "
                             r"thermal_wait \(25°C\)"):  # fmt: skip
        kscope.analyze.kernel(thermal_wait=25)(lambda: None)
