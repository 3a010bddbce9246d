"""Configurations of a decorated function: nsight-python's sanitisation rules (reference
§2.4.1), binding of values to the function's parameters, and the engine's view of them.

The engine never sees the Python objects of a config: it gets, per config, its index and a
printable value per parameter (ints, floats, strings and bools as they are; anything else as a
short label). The original objects stay here and fill the DataFrame's parameter columns.
"""

from __future__ import annotations

import inspect
import numbers
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._native import native
from .exceptions import ConfigError

_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_LABEL_WIDTH = 48


@dataclass(frozen=True)
class FunctionSignature:
    """The "regular" parameters of a decorated function: all but ``*args``/``**kwargs``."""

    name: str
    params: tuple[inspect.Parameter, ...]

    @classmethod
    def of(cls, func: Callable[..., Any]) -> FunctionSignature:
        params = inspect.signature(func).parameters.values()
        return cls(func.__name__, tuple(p for p in params if p.kind not in _VARIADIC))

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.params]

    @property
    def total(self) -> int:
        return len(self.params)

    @property
    def required(self) -> int:
        return sum(1 for p in self.params if p.default is inspect.Parameter.empty)


@dataclass(frozen=True)
class BoundConfig:
    """How one config calls the function: positional and keyword-only arguments."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def _as_values(config: Any) -> tuple[Any, ...]:
    # Strings are scalars even though they are sequences. nsight-python wraps scalars only for
    # one-parameter functions; wrapping them always lets a scalar for a two-parameter function
    # fail with the argument-count message instead of a TypeError from len().
    if isinstance(config, str) or not isinstance(config, Sequence):
        return (config,)
    return tuple(config)


def _count_error(count: int, sig: FunctionSignature) -> ConfigError:
    if sig.required == sig.total:
        expected = f"{sig.total}"
    else:
        expected = f"between {sig.required} and {sig.total}"
    return ConfigError(f"Configs have {count} arguments, but function expects {expected}")


def _lengths_error(lengths: list[int]) -> ConfigError:
    return ConfigError(
        f"All configs must have the same number of arguments. Found lengths: {lengths}"
    )


def _pad(values: tuple[Any, ...], sig: FunctionSignature) -> tuple[Any, ...]:
    return values + tuple(p.default for p in sig.params[len(values) :])


def _from_collection(configs: Collection[Any], sig: FunctionSignature) -> list[tuple[Any, ...]]:
    if len(configs) == 0:
        raise ConfigError("configs cannot be empty")
    rows = [_as_values(c) for c in configs]
    lengths = [len(r) for r in rows]
    if len(set(lengths)) > 1:
        raise _lengths_error(lengths)
    if not sig.required <= lengths[0] <= sig.total:
        raise _count_error(lengths[0], sig)
    return [_pad(r, sig) for r in rows]


def _from_iterable(configs: Iterable[Any], sig: FunctionSignature) -> list[tuple[Any, ...]]:
    # nsight-python materialises generators inside its run loop and checks them one by one;
    # kscope does the same checks, with the same texts, before any GPU work.
    rows: list[tuple[Any, ...]] = []
    for config in configs:
        row = _as_values(config)
        if not sig.required <= len(row) <= sig.total:
            raise ConfigError(
                f"Function '{sig.name}' does not support the input configuration"
            )
        if rows and len(row) != len(rows[0]):
            raise _lengths_error([len(r) for r in rows] + [len(row)])
        rows.append(row)
    if not rows:
        raise ConfigError("configs cannot be empty")
    return [_pad(r, sig) for r in rows]


def sanitize_configs(
    sig: FunctionSignature,
    call_args: tuple[Any, ...],
    call_kwargs: dict[str, Any],
    call_configs: Iterable[Any] | None,
    decorator_configs: Iterable[Any] | None,
) -> list[tuple[Any, ...]]:
    """The configs of one call, each padded with the defaults of the trailing parameters.

    Raises :class:`ConfigError` (a :class:`ProfilerException`) with nsight-python's texts for
    every misuse, and ``TypeError`` when ``configs`` is no collection or iterable of configs.
    """
    if call_kwargs:
        raise ConfigError(f"Keyword arguments are not supported yet: {list(call_kwargs)}")
    if call_args:
        if call_configs is not None or decorator_configs is not None:
            raise ConfigError(
                "You have provided configs at decoration time and at runtime. Provide configs "
                "at decoration time or at runtime."
            )
        call_configs = [tuple(call_args)]
    if call_configs is None:
        if decorator_configs is None:
            if sig.required == 0:
                return [_pad((), sig)]
            raise ConfigError(
                "You have provided no configs. Provide configs at decoration time or at runtime."
            )
        configs = decorator_configs
    elif decorator_configs is not None:
        raise ConfigError(
            "You have provided configs at decoration time and at runtime. Provide configs at "
            "decoration time or at runtime."
        )
    else:
        configs = call_configs
    if isinstance(configs, (str, bytes)) or not isinstance(configs, Iterable):
        raise TypeError(
            f"configs must be a sequence or iterable of configs (each a tuple of argument values, "
            f"or a scalar for a one-parameter function), e.g. [{configs!r}]; got {configs!r}"
        )
    if isinstance(configs, Collection):
        return _from_collection(configs, sig)
    return _from_iterable(configs, sig)


def bind(sig: FunctionSignature, values: tuple[Any, ...]) -> BoundConfig:
    """Maps a padded config onto the parameters: keyword-only ones by name, the others by
    position (``*args``/``**kwargs`` stay empty)."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for param, value in zip(sig.params, values):
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[param.name] = value
        else:
            args.append(value)
    return BoundConfig(tuple(args), kwargs)


def label(value: Any) -> str:
    """A short one-line text for a value the engine cannot hold (tensor, tuple, dict, ...)."""
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None and not isinstance(value, numbers.Number):
        text = f"{type(value).__name__}(shape={tuple(shape)}, dtype={dtype})"
    else:
        text = " ".join(repr(value).split())
    return text if len(text) <= _LABEL_WIDTH else text[: _LABEL_WIDTH - 3] + "..."


def is_bool(value: Any) -> bool:
    """Python or numpy bool (numpy's is not an int subclass, and not a ``bool``)."""
    return isinstance(value, (bool, np.bool_))


def engine_value(value: Any) -> bool | int | float | str:
    """The value as the engine stores it: bool, int (64-bit), float and str as they are
    (numpy scalars included), anything else as :func:`label`."""
    if is_bool(value):
        return bool(value)
    if isinstance(value, numbers.Integral):
        as_int = int(value)
        return as_int if _INT64_MIN <= as_int <= _INT64_MAX else str(as_int)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, str):
        return value
    return label(value)


def engine_configs(sig: FunctionSignature, rows: list[tuple[Any, ...]]) -> list[Any]:
    """``kscope._kscope.Config`` objects for ``rows`` (values in parameter order), labelled the
    Python way (``n=1024, causal=True, dtype=torch.float16``) for the progress line."""
    names = sig.names
    configs = []
    for row in rows:
        config = native.Config([engine_value(v) for v in row], names)
        texts = (v if isinstance(v, str) else label(v) for v in row)
        config.label = ", ".join(f"{n}={t}" for n, t in zip(names, texts))
        configs.append(config)
    return configs


__all__ = [
    "BoundConfig",
    "FunctionSignature",
    "bind",
    "engine_configs",
    "engine_value",
    "label",
    "sanitize_configs",
]
