"""``kscope.extraction``: derived metrics (nsight-python's ``nsight.extraction``): the user's
``derive_metric`` (docs/python.md) on the engine's ``DeriveFn``. Extracting the measured
values from the kernels (attribution to annotation, config and run) is the engine's
(src/core/extraction.cpp).

The engine calls the adapter once per measured run with the run's metric values (in
``metrics`` order) and the engine's config; the adapter looks the original Python config up by
``Config.index`` and calls the user's function as ``f(*metric_values, *config_values)``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .utils import warn
from ._native import native


def check_callable(derive_metric: Any) -> None:
    """TypeError unless ``derive_metric`` is callable (nsight-python's text)."""
    if not callable(derive_metric):
        raise TypeError("derive_metric must be a callable function")


def check_arity(derive_metric: Callable[..., Any], num_metrics: int, num_config: int) -> None:
    """ValueError unless ``derive_metric`` takes one parameter per metric plus one per config
    value. Functions with ``*args`` (or without an introspectable signature) pass."""
    try:
        params = inspect.signature(derive_metric).parameters.values()
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return
    actual = sum(1 for p in params if p.kind is not inspect.Parameter.VAR_KEYWORD)
    expected = num_metrics + num_config
    if actual != expected:
        raise ValueError(
            f"derive_metric expects {expected} parameters ({num_metrics} metric values + "
            f"{num_config} configs), but has {actual} parameters"
        )


def metric_name(derive_metric: Callable[..., Any]) -> str:
    """The name of a derived metric returned without a key: the function's ``__name__``
    (``"<lambda>"`` for a lambda)."""
    return getattr(derive_metric, "__name__", type(derive_metric).__name__)


def _number(value: Any, name: str) -> float:
    if value is None:
        return math.nan
    try:
        return float(value)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"derive_metric returned {value!r} for metric '{name}', which is not a number"
        ) from error


def _unit_missing(name: str) -> None:
    warn(
        f"Derived metric '{name}' does not have a unit specified. Return a tuple (value, unit) "
        "instead of just the value. np.nan will be added to the 'Unit' column in the dataframe.",
        UserWarning,
    )


def _derived(name: str, result: Any) -> Any:
    if isinstance(result, tuple) and len(result) > 2:
        raise TypeError(
            f"derive_metric returned {result!r} for metric '{name}', a tuple of {len(result)} "
            "elements; return a value, a (value, unit) tuple or a dict of them"
        )
    if isinstance(result, tuple) and len(result) == 2:
        unit = result[1]
        text = None if unit is None else str(unit)
        return native.DerivedValue(name, _number(result[0], name), text)
    if isinstance(result, tuple) and len(result) == 1:
        result = result[0]
    _unit_missing(name)
    return native.DerivedValue(name, _number(result, name), None)


def convert_result(result: Any, default_name: str) -> list[Any]:
    """The user's return value as ``DerivedValue``s: a mapping gives one metric per key, a
    ``(value, unit)`` tuple or a bare value one metric named ``default_name``."""
    if isinstance(result, Mapping):
        return [_derived(str(key), value) for key, value in result.items()]
    return [_derived(default_name, result)]


class DeriveAdapter:
    """The engine's ``DeriveFn`` for a user ``derive_metric`` over one call's configs."""

    def __init__(self, derive_metric: Callable[..., Any], configs: Sequence[tuple[Any, ...]]):
        self._fn = derive_metric
        self._configs = configs
        self._name = metric_name(derive_metric)

    def __call__(self, metric_values: Sequence[float], config: Any) -> list[Any]:
        result = self._fn(*metric_values, *self._configs[config.index])
        return convert_result(result, self._name)


__all__ = ["DeriveAdapter", "check_arity", "check_callable", "convert_result", "metric_name"]
