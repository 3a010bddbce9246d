"""The private module's view of the engine types: values, configs, options and callbacks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kscope.collection.core import engine_value
from kscope.utils import label
from kscope._native import native


def test_value_types():
    assert [native.Value(v).type_name() for v in (1, 1.5, "x", True)] == ["int", "float", "str", "bool"]
    assert native.Value(True).value is True and native.Value(2**62).value == 2**62


def test_value_refuses_other_objects():
    with pytest.raises(TypeError, match="must be int, float, str or bool, not tuple"):
        native.Value((1, 2))
    with pytest.raises(ValueError, match="does not fit in a 64-bit integer"):
        native.Value(2**70)


def test_config_round_trip():
    c = native.Config([1024, "f16", 0.5, False], ["n", "dtype", "alpha", "t"])
    assert c.values == [1024, "f16", 0.5, False]
    assert c["dtype"] == "f16" and c[0] == 1024 and len(c) == 4
    assert c.label == "n=1024, dtype=f16, alpha=0.5, t=false"
    c.index = 3
    assert c.index == 3


def test_config_unknown_name():
    c = native.Config([1], ["n"])
    with pytest.raises(ValueError, match="config has no parameter named 'm'"):
        c["m"]


def test_engine_values():
    assert engine_value(np.int32(3)) == 3 and type(engine_value(np.int32(3))) is int
    assert engine_value(np.bool_(True)) is True
    assert engine_value(np.float32(0.5)) == 0.5
    assert engine_value(2**70) == str(2**70)
    assert engine_value(None) == "None"
    assert engine_value((1, 2)) == "(1, 2)"


def test_labels_are_short_and_one_line():
    assert label(np.zeros((4, 5))) == "ndarray(shape=(4, 5), dtype=float64)"
    long = label(list(range(100)))
    assert len(long) == 48 and long.endswith("...") and "\n" not in long


def test_options_defaults_follow_nsight_python():
    o = native.Options()
    assert (o.runs, o.metrics, o.tool, o.cache_control, o.clock_control, o.replay_mode) == (
        1, ["gpu__time_duration.sum"], "cupti", "all", "none", "kernel")  # fmt: skip
    assert (o.thermal_mode, o.thermal_wait, o.derive_metric, o.log) == ("auto", None, None, None)
    assert (o.metric_replay, o.call_name) == ("checkpoint", "kscope::profile()")
    assert o.duration_source == "activity"
    o.validate()


def test_callbacks_are_set_and_cleared():
    o = native.Options()
    o.log = print
    assert o.log is print
    o.log = None
    assert o.log is None


def test_callbacks_run_without_the_gil():
    """The hook calls every callback from C++ after releasing the GIL, as profile() does."""
    o = native.Options()
    o.runs = 2
    lines, seen = [], []
    o.log = lines.append
    o.combine_kernel_metrics = lambda a, b: a * 10 + b
    o.derive_metric = lambda values, config: [native.DerivedValue("d", values[0] + config[0])]
    configs = [native.Config([5]), native.Config([7])]
    derived, combined = native._test_drive_callbacks(configs, lambda c: seen.append(c.index), o)
    assert seen == [0, 0, 1, 1]
    assert lines == ["[kscope] driven by _test_drive_callbacks\n"]
    assert combined == 12.0
    assert [[(d.name, d.value) for d in row] for row in derived] == [[("d", 6.0)], [("d", 8.0)]]


def test_derived_value_defaults():
    d = native.DerivedValue("x", math.nan)
    assert d.unit is None and math.isnan(d.value)
