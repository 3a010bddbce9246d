"""The engine's C++ error classes arrive as kscope.exceptions classes."""

from __future__ import annotations

import pytest

import kscope
from kscope import exceptions as ex
from kscope._native import native


@pytest.mark.parametrize(
    ("cpp_class", "python_class", "builtin"),
    [
        ("Error", ex.ProfilerException, None),
        ("InvalidArgument", ex.InvalidArgumentError, ValueError),
        ("ConfigError", ex.ConfigError, None),
        ("FileFormatError", ex.FileFormatError, ValueError),
        ("AnnotationError", ex.AnnotationError, ValueError),
        ("ExtractionError", ex.ExtractionError, RuntimeError),
        ("NoDeviceError", ex.NoDeviceError, RuntimeError),
        ("NotSupportedError", ex.NotSupportedError, ValueError),
        ("ToolError", ex.ToolError, RuntimeError),
        ("CuptiError", ex.CuptiError, RuntimeError),
        ("NcuNotAvailableError", ex.NCUNotAvailableError, RuntimeError),
        ("ThermalControlError", ex.ThermalControlError, None),
        ("CoolingTimeoutError", ex.CoolingTimeoutError, None),
    ],
)
def test_engine_error_mapping(cpp_class, python_class, builtin):
    with pytest.raises(python_class, match="^what went wrong$") as info:
        native._test_throw(cpp_class, "what went wrong")
    assert type(info.value) is python_class
    assert isinstance(info.value, ex.ProfilerException)
    if builtin is not None:
        assert isinstance(info.value, builtin)


def test_cupti_error_carries_its_code():
    with pytest.raises(ex.CuptiError) as info:
        native._test_throw("CuptiError", "cuptiX failed")
    assert info.value.code == 17


def test_hierarchy():
    assert issubclass(ex.CoolingTimeoutError, ex.ThermalControlError)
    assert issubclass(ex.NCUNotAvailableError, ex.ProfilerException)
    assert issubclass(ex.ExtractionError, RuntimeError)
    assert kscope.exceptions is ex


def test_unknown_class_in_the_hook():
    with pytest.raises(ValueError, match="unknown kscope error class 'Nope'"):
        native._test_throw("Nope", "x")


def test_metrics_error_message():
    assert ex.get_metrics_error_message(["invalid_value"], ex.MetricErrorType.INVALID) == (
        "Invalid value ['invalid_value'] for 'metrics' parameter for nsight.analyze.kernel()."
        "\nPlease refer ncu --query-metrics for list of supported metrics."
    )
