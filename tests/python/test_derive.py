"""derive_metric on the engine's DeriveFn: the adapter is called directly, as
the engine calls it, and through a fake session."""

from __future__ import annotations

import math
import warnings

import pytest

import kscope
from kscope.extraction import DeriveAdapter, check_arity
from kscope._native import native

CONFIGS = [(100, 100), (200, 300)]


def call(fn, values=(2.0,), index=1, configs=CONFIGS):
    config = native.Config(list(configs[index]))
    config.index = index
    return DeriveAdapter(fn, configs)(list(values), config)


def as_tuples(derived):
    return [(d.name, d.value, d.unit) for d in derived]


def test_scalar_result_named_after_the_function():
    def flops(t, m, n):
        return 2 * m * n / t

    with pytest.warns(UserWarning, match=r"^Derived metric 'flops' does not have a unit "
                      r"specified\. Return a tuple \(value, unit\) instead of just the value\. "
                      r"np\.nan will be added to the 'Unit' column in the dataframe\.$"):  # fmt: skip
        out = call(flops)
    assert as_tuples(out) == [("flops", 60000.0, None)]


def test_config_values_come_from_the_original_configs_by_index():
    seen = []
    call(lambda t, m, n: seen.append((t, m, n)) or (0, "x"), values=(5.0,), index=0)
    assert seen == [(5.0, 100, 100)]


def test_tuple_result_has_a_unit():
    def throughput(t, m, n):
        return m * n / t, "ops/s"

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert as_tuples(call(throughput)) == [("throughput", 30000.0, "ops/s")]


def test_lambda_name():
    with pytest.warns(UserWarning, match="Derived metric '<lambda>'"):
        assert call(lambda t, m, n: t)[0].name == "<lambda>"


def test_dict_of_scalars():
    with pytest.warns(UserWarning) as record:
        out = call(lambda t, m, n: {"a": 1, "b": 2.5})
    assert as_tuples(out) == [("a", 1.0, None), ("b", 2.5, None)]
    assert {str(w.message).split("'")[1] for w in record} == {"a", "b"}


def test_dict_of_tuples():
    out = call(lambda t, m, n: {"Custom Metric": (1.0, "ops/s"), "other": (2.0, "Mops/s")})
    assert as_tuples(out) == [("Custom Metric", 1.0, "ops/s"), ("other", 2.0, "Mops/s")]


def test_none_is_nan():
    with pytest.warns(UserWarning):
        value = call(lambda t, m, n: None)[0].value
    assert math.isnan(value)


def test_non_number_is_a_type_error():
    with pytest.raises(TypeError, match="derive_metric returned 'fast' for metric 'speed'"):
        call(lambda t, m, n: {"speed": ("fast", "x")})


@pytest.mark.parametrize("result", [(1.0, "ops/s", 3), {"speed": (1.0, "ops/s", "x")}])
def test_tuple_of_three_is_a_type_error_naming_it(result):
    # It kept the first two elements and dropped the third without a word (issue 38).
    name = "speed" if isinstance(result, dict) else "<lambda>"
    shown = result["speed"] if isinstance(result, dict) else result
    with pytest.raises(TypeError) as info:
        call(lambda t, m, n: result)
    assert str(info.value) == (
        f"derive_metric returned {shown!r} for metric '{name}', a tuple of 3 elements; return "
        "a value, a (value, unit) tuple or a dict of them"
    )


def test_arity_check_text():
    with pytest.raises(ValueError, match=r"^derive_metric expects 3 parameters \(1 metric values "
                       r"\+ 2 configs\), but has 2 parameters$"):  # fmt: skip
        check_arity(lambda t, m: t, num_metrics=1, num_config=2)


def test_arity_check_skipped_with_varargs():
    check_arity(lambda *values: 0, num_metrics=1, num_config=2)
    check_arity(lambda t, *rest: 0, num_metrics=3, num_config=2)


def test_arity_checked_before_the_engine_runs(fake_engine):
    @kscope.analyze.kernel(configs=[(1, 2)], derive_metric=lambda t: t)
    def f(a, b):
        pass

    with pytest.raises(ValueError, match=r"expects 3 parameters \(1 metric values \+ 2 configs\)"):
        f()
    assert fake_engine.calls == []


def test_arity_uses_padded_configs(fake_engine):
    @kscope.analyze.kernel(configs=[(1,)], derive_metric=lambda t, a, b: (t * a * b, "u"),
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def f(a, b=10):
        pass

    f()
    derived = fake_engine.calls[0]["derived"]
    assert as_tuples(derived[0]) == [("<lambda>", 10.0, "u")]


def test_derived_rows_in_the_dataframe(fake_engine):
    def tflops(t, n):
        return 2 * n**3 / t / 1e3, "TFLOPS"

    @kscope.analyze.kernel(configs=[(4,), (8,)], derive_metric=tflops,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def f(n):
        pass

    df = f().to_dataframe()
    derived = df[df["Metric"] == "tflops"]
    assert derived["Unit"].tolist() == ["TFLOPS", "TFLOPS"]
    assert derived["AvgValue"].tolist() == pytest.approx([2 * 4**3 / 1e3, 2 * 8**3 / 1e3])
    assert derived["n"].tolist() == [4, 8]


def test_exception_in_derive_metric_propagates(fake_engine):
    def broken(t, n):
        raise ZeroDivisionError("mine")

    @kscope.analyze.kernel(configs=[(1,)], derive_metric=broken,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def f(n):
        pass

    with pytest.raises(ZeroDivisionError, match="mine"):
        f()
