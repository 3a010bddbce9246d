"""Every error a plot raises, with its text: metric selection (nsight-python's texts), fields,
and kscope's validation of the options."""

from __future__ import annotations

import re

import pytest
from plot_helpers import TIME, golden

import kscope
from kscope import visualization
from kscope.exceptions import InvalidArgumentError, ProfilerException

FOUND = "['gpu__time_duration.sum', 'dram__bytes.sum']"


@pytest.fixture
def sweep():
    return golden("vadd_sweep.json")


def test_several_metrics_and_none_chosen(sweep):
    text = ("Cannot visualize multiple metrics (2 > 1) with the @kscope.analyze.plot decorator. "
            f"Please specify a metric to plot. The metrics found are: {FOUND}")  # fmt: skip
    with pytest.raises(ValueError, match=f"^{re.escape(text)}$"):
        sweep.plot(None)


def test_unknown_metric(sweep):
    text = ("Metric 'invalid_metric' not found in the profile results. Please check the metric "
            f"name and try again. The metrics found are: {FOUND}.")  # fmt: skip
    with pytest.raises(ValueError, match=f"^{re.escape(text)}$"):
        sweep.plot(None, "invalid_metric")


def test_no_metrics(sweep):
    empty = sweep.to_dataframe().iloc[0:0]
    text = ("No metrics found in the profile results. Please ensure that the profiler is "
            "configured correctly.")  # fmt: skip
    with pytest.raises(ValueError, match=f"^{re.escape(text)}$"):
        visualization.plot_dataframe(empty, None)


def test_metric_errors_are_kscope_exceptions_too(sweep):
    with pytest.raises(InvalidArgumentError):
        sweep.plot(None, "invalid_metric")


def test_x_key_that_is_not_a_parameter(sweep):
    text = "Field 'm' is not present in the DataFrame. Available fields: ['n', 'dtype']"
    with pytest.raises(ProfilerException, match=f"^{re.escape(text)}$"):
        sweep.plot(None, TIME, x_keys=["m"])


def test_x_key_used_by_a_panel_is_not_available(sweep):
    text = "Field 'm' is not present in the DataFrame. Available fields: ['n']"
    with pytest.raises(ProfilerException, match=f"^{re.escape(text)}$"):
        sweep.plot(None, TIME, x_keys=["m"], col_panels=["dtype"])


@pytest.mark.parametrize("where", ["row_panels", "col_panels", "variant_fields"])
def test_x_keys_overlapping_panels_or_variants(sweep, where):
    text = ("x_keys cannot contain fields used in row_panels, col_panels, or variant_fields: "
            "{'dtype'}")  # fmt: skip
    with pytest.raises(ValueError, match=f"^{re.escape(text)}$"):
        sweep.plot(None, TIME, x_keys=["n", "dtype"], **{where: ["dtype"]})


@pytest.mark.parametrize("where", ["row_panels", "col_panels", "variant_fields"])
def test_panel_or_variant_field_that_is_not_a_parameter(sweep, where):
    text = "Field 'size' is not present in the DataFrame. Available fields: ['n', 'dtype']"
    with pytest.raises(ProfilerException, match=f"^{re.escape(text)}$"):
        sweep.plot(None, TIME, **{where: ["size"]})


@pytest.mark.parametrize(
    ("options", "error", "text"),
    [
        ({"plot_type": "pie"}, ValueError,
         "Invalid plot_type 'pie'. Expected one of: 'line', 'bar'."),
        ({"plot_type": None}, ValueError,
         "Invalid plot_type None. Expected one of: 'line', 'bar'."),
        ({"show_aggregate": "max"}, ValueError,
         "Invalid show_aggregate 'max'. Expected one of: 'avg', 'geomean' or None."),
        ({"plot_width": 0}, ValueError, "plot_width must be a positive number of inches, got 0"),
        ({"plot_height": "4"}, ValueError,
         "plot_height must be a positive number of inches, got '4'"),
        ({"variant_annotations": ["triton"]}, ValueError,
         "variant_annotations needs variant_fields: the parameters whose values split those "
         "annotations into one line each"),
        ({"row_panels": 3}, TypeError, "row_panels must be a list of parameter names, got 3"),
        ({"x_keys": ["n", 2]}, TypeError,
         "x_keys must be a list of parameter names, got ['n', 2]"),
        ({"error_bars": "yes"}, TypeError,
         "error_bars must be True, False or None (automatic), got 'yes'"),
        ({"log_y": 1}, TypeError, "log_y must be True, False or None (automatic), got 1"),
        ({"plot_callback": "f"}, TypeError, "plot_callback must be callable, got 'f'"),
    ],
)  # fmt: skip
def test_invalid_options(sweep, options, error, text):
    with pytest.raises(error, match=f"^{re.escape(text)}$"):
        sweep.plot(None, TIME, **options)
    with pytest.raises(error, match=f"^{re.escape(text)}$"):
        kscope.analyze.plot("x.png", **options)  # at decoration


def test_unknown_option_is_a_type_error(sweep):
    with pytest.raises(TypeError, match="plot_typ"):
        sweep.plot(None, TIME, plot_typ="bar")
