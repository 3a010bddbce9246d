"""Config sanitisation and binding, through the decorator; the engine is
replaced by the fake_engine fixture, so everything here runs without a GPU."""

from __future__ import annotations

import pytest

import kscope
from kscope.exceptions import ProfilerException


def kernel(**options):
    return kscope.analyze.kernel(verbosity=kscope.VerbosityLevel.SILENT, **options)


def test_no_configs_with_required_parameter(fake_engine):
    @kernel()
    def f(n):
        pass

    with pytest.raises(ProfilerException, match=r"^You have provided no configs\. Provide configs"
                       r" at decoration time or at runtime\.$"):  # fmt: skip
        f()
    assert fake_engine.calls == []


def test_zero_parameter_function_runs_once_without_configs(fake_engine):
    ran = []

    @kscope.analyze.kernel
    def f():
        ran.append(1)

    df = f().to_dataframe()
    assert len(ran) == 1
    assert list(df.columns[:2]) == ["Annotation", "Metric"] and "AvgValue" == df.columns[2]


def test_configs_at_decoration_and_runtime(fake_engine):
    @kernel(configs=[(1,)])
    def f(n):
        pass

    with pytest.raises(ProfilerException, match="You have provided configs at decoration time "
                       "and at runtime. Provide configs at decoration time or at runtime."):
        f(configs=[(2,)])
    with pytest.raises(ProfilerException, match="at decoration time and at runtime"):
        f(2)


def test_empty_configs(fake_engine):
    @kernel(configs=[])
    def f(n):
        pass

    with pytest.raises(ProfilerException, match="^configs cannot be empty$"):
        f()


def test_empty_generator(fake_engine):
    @kernel()
    def f(n):
        pass

    with pytest.raises(ProfilerException, match="^configs cannot be empty$"):
        f(configs=(x for x in []))


def test_mismatched_lengths(fake_engine):
    @kernel(configs=[(1,), (1, 2), (1,)])
    def f(a, b=2):
        pass

    with pytest.raises(ProfilerException, match=r"^All configs must have the same number of "
                       r"arguments\. Found lengths: \[1, 2, 1\]$"):  # fmt: skip
        f()


def test_mixed_scalars_and_tuples_for_two_parameters(fake_engine):
    @kernel(configs=[(100, 200), 200, (300, 400)])
    def f(a, b):
        pass

    with pytest.raises(ProfilerException, match=r"Found lengths: \[2, 1, 2\]"):
        f()


def test_wrong_argument_count(fake_engine):
    @kernel(configs=[(1, 2)])
    def f(n):
        pass

    with pytest.raises(ProfilerException, match="^Configs have 2 arguments, but function expects 1$"):
        f()


def test_too_few_positional_arguments_with_defaults(fake_engine):
    @kernel()
    def f(x, y, z=64):
        pass

    with pytest.raises(ProfilerException, match="^Configs have 1 arguments, but function expects "
                       "between 2 and 3$"):  # fmt: skip
        f(1)


def test_too_many_positional_arguments(fake_engine):
    @kernel()
    def f(x, y):
        pass

    with pytest.raises(ProfilerException, match="but function expects 2$"):
        f(1, 2, 3)


def test_keyword_arguments_at_call_time(fake_engine):
    @kernel()
    def f(x, y):
        pass

    with pytest.raises(ProfilerException, match=r"^Keyword arguments are not supported yet: "
                       r"\['y'\]$"):  # fmt: skip
        f(1, y=2)
    with pytest.raises(ProfilerException, match="Keyword arguments are not supported yet"):
        f(x=1, y=2)


def test_positional_call_is_one_config(fake_engine):
    seen = []

    @kscope.analyze.kernel
    def f(a, b):
        seen.append((a, b))

    f(42, 23)
    assert seen == [(42, 23)]


def test_call_time_configs_on_bare_decorator(fake_engine):
    seen = []

    @kscope.analyze.kernel
    def f(a, b):
        seen.append((a, b))

    f(configs=[(42, 23), (12, 13)])
    assert seen == [(42, 23), (12, 13)]


def test_scalar_configs_for_one_parameter(fake_engine):
    seen = []

    @kernel(configs=[(100,), 200, (300,)])
    def f(n):
        seen.append(n)

    df = f().to_dataframe()
    assert seen == [100, 200, 300]
    assert list(df["n"]) == [100, 200, 300]
    assert df["n"].dtype == "int64"


def test_string_config_is_a_scalar(fake_engine):
    seen = []

    @kernel(configs=["float16", "float32"])
    def f(dtype):
        seen.append(dtype)

    f()
    assert seen == ["float16", "float32"]


@pytest.mark.parametrize("at_decoration", [True, False])
def test_generator_configs(fake_engine, at_decoration):
    seen = []
    configs = (i for i in range(1, 6))

    def body(n):
        seen.append(n)

    if at_decoration:
        f = kernel(configs=configs)(body)
        f()
    else:
        f = kernel()(body)
        f(configs=configs)
    assert seen == [1, 2, 3, 4, 5]


def test_generator_at_decoration_serves_every_call(fake_engine):
    seen = []

    @kernel(configs=((i,) for i in (1, 2)))
    def f(n):
        seen.append(n)

    f()
    f()
    assert seen == [1, 2, 1, 2]


def test_range_configs(fake_engine):
    seen = []

    @kernel(configs=range(1, 4))
    def f(n):
        seen.append(n)

    f()
    assert seen == [1, 2, 3]


def test_generator_with_unsupported_config(fake_engine):
    @kernel()
    def f(a, b):
        pass

    with pytest.raises(ProfilerException, match="^Function 'f' does not support the input "
                       "configuration$"):  # fmt: skip
        f(configs=((1, 2, 3) for _ in range(2)))


def test_generator_with_varying_lengths(fake_engine):
    @kernel()
    def f(a, b=0):
        pass

    with pytest.raises(ProfilerException, match=r"Found lengths: \[2, 1\]"):
        f(configs=(c for c in [(1, 2), (3,)]))


def test_default_padding(fake_engine):
    seen = []

    @kernel(configs=[(1,), (2,)])
    def f(x, y=None):
        seen.append((x, y))

    df = f().to_dataframe()
    assert seen == [(1, None), (2, None)]
    assert df["y"].isna().all()


def test_default_omitted_and_overridden(fake_engine):
    seen = []

    @kernel()
    def f(x, y, z=64):
        seen.append(z)

    f(1, 2)
    f(1, 2, 128)
    assert seen == [64, 128]


def test_keyword_only_parameters(fake_engine):
    seen = []

    @kernel(configs=[(32, 64)])
    def f(x, *, y):
        seen.append((x, y))

    f()
    assert seen == [(32, 64)]


def test_keyword_only_default(fake_engine):
    seen = []

    @kernel(configs=[(1,)])
    def f(x, *, y=32):
        seen.append((x, y))

    f()
    assert seen == [(1, 32)]


def test_variadic_parameters_are_tolerated_and_empty(fake_engine):
    seen = []

    @kernel(configs=[(32, 64)])
    def f(x, *args, y, **kwargs):
        seen.append((x, args, y, kwargs))

    df = f().to_dataframe()
    assert seen == [(32, (), 64, {})]
    assert "args" not in df.columns and "kwargs" not in df.columns


def test_tuple_argument_is_not_exploded(fake_engine):
    seen = []

    @kernel(configs=[((1024, 512),)])
    def f(shape):
        seen.append(shape)

    df = f().to_dataframe()
    assert seen == [(1024, 512)]
    assert len(df) == 1 and df["shape"][0] == (1024, 512)


def test_config_misuse_is_a_config_error(fake_engine):
    # docs/errors.md: ConfigError (a ProfilerException, so nsight-python's handlers still match).
    @kernel(configs=[(1,), (1, 2)])
    def f(n, m=0):
        pass

    with pytest.raises(kscope.exceptions.ConfigError, match="same number of arguments|length"):
        f()

    @kernel(configs=[])
    def g(n):
        pass

    with pytest.raises(kscope.exceptions.ConfigError, match="^configs cannot be empty$"):
        g()


@pytest.mark.parametrize("bad", [5, 3.5, "abc", b"ab"])
def test_configs_that_are_no_collection_of_configs_are_a_type_error(fake_engine, bad):
    @kernel()
    def f(n):
        pass

    with pytest.raises(TypeError, match=r"^configs must be a sequence or iterable of configs "
                       r"\(each a tuple of argument values, or a scalar for a one-parameter "
                       r"function\), e.g\. \["):  # fmt: skip
        f(configs=bad)
    assert fake_engine.calls == []


@pytest.mark.parametrize("bad", [5, "abc"])
def test_configs_that_are_no_collection_are_refused_at_decoration(fake_engine, bad):
    # configs=5 at decoration raised "'int' object is not iterable" at the first call (issue 38).
    with pytest.raises(TypeError) as info:

        @kernel(configs=bad)
        def f(n):
            pass

    assert str(info.value) == (
        "configs must be a sequence or iterable of configs (each a tuple of argument values, or a "
        f"scalar for a one-parameter function), e.g. [{bad!r}]; got {bad!r}"
    )


@pytest.mark.parametrize("where", ["call", "decoration"])
def test_a_dict_of_configs_is_a_type_error(fake_engine, where):
    # {1: 2} was measured as [(1,)], its keys (issue 38).
    with pytest.raises(TypeError) as info:

        @kernel(configs={1: 2} if where == "decoration" else None)
        def f(n):
            pass

        f(configs={1: 2})
    assert str(info.value) == (
        "configs must be a sequence or iterable of configs, got a dict ({1: 2}), whose iteration "
        "gives only its keys; give a list of configs, e.g. [(1, 2)]"
    )
    assert fake_engine.calls == []
