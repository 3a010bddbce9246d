"""``kscope.info_collector``: custom columns (nsight-python's experimental info collectors;
docs/info-collectors.md).

The engine owns the mechanism: it calls each collector at its scope (ONCE once per call of the
decorated function, CONFIG once per config, RUN before each measured run, ANNOTATION at each
entry of an annotation), turns failures into missing values with one warning per collector and
call, and builds the columns. This module accepts nsight-python's three collector forms,
validates them at decoration with nsight-python's texts, and adapts each callback for the
engine: it binds the call's original Python config values to the callback's signature
(:func:`bind_args_to_signature`) and turns what it returns into a number, a string or None.
"""

from __future__ import annotations

import inspect
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar, overload

from .utils import is_bool
from ._native import native

F = TypeVar("F", bound=Callable[..., Any])

#: Column names a collector may not take (nsight-python's set plus kscope's telemetry columns).
RESERVED_COLUMN_NAMES = frozenset(native.reserved_column_names())


class CollectionScope(Enum):
    """When a collector runs.

    Attributes:
        ONCE: once per call of the decorated function (static facts: driver, versions).
        CONFIG: once per configuration, before its runs (values derived from the config).
        RUN: before each measured run (clocks, temperature, memory in use, timestamps).
        ANNOTATION: at each entry of an annotation, before it opens (per-region state).
    """

    ONCE = "once"
    CONFIG = "config"
    RUN = "run"
    ANNOTATION = "annotation"


_ENGINE_SCOPES = {
    "once": native.CollectionScope.ONCE,
    "config": native.CollectionScope.CONFIG,
    "run": native.CollectionScope.RUN,
    "annotation": native.CollectionScope.ANNOTATION,
}


def _scope_values() -> str:
    return ", ".join(f"'{s.value}'" for s in CollectionScope)


@dataclass
class InfoCollector:
    """A named callback that adds a column, run at ``scope``.

    The column is named ``name``. ONCE collectors and collectors returning strings give one
    column (the first value of each group in ``to_dataframe()``); numeric CONFIG, RUN and
    ANNOTATION collectors give ``<name>_Avg``, ``<name>_Std``, ``<name>_Min`` and ``<name>_Max``.

    >>> kscope.InfoCollector("Version", lambda: "1.0.0", kscope.CollectionScope.ONCE)
    >>> kscope.InfoCollector("Elements", lambda n: n * n, kscope.CollectionScope.CONFIG)
    >>> kscope.InfoCollector("Region", lambda name, n: f"{name}_{n}",
    ...                      kscope.CollectionScope.ANNOTATION)
    """

    name: str
    callback: Callable[..., Any]
    scope: CollectionScope

    def collect(self, *args: Any) -> Any:
        """``callback()`` for ONCE, ``callback(*args)`` otherwise."""
        return self.callback() if self.scope is CollectionScope.ONCE else self.callback(*args)


@overload
def collect(_func: F, *, scope: CollectionScope | str) -> F: ...
@overload
def collect(_func: None = None, *, scope: CollectionScope | str) -> Callable[[F], F]: ...
def collect(_func: Any = None, *, scope: CollectionScope | str) -> Any:
    """Marks a function as an info collector of ``scope`` (a :class:`CollectionScope` or its
    value), as decorator ``@collect(scope=...)`` or call ``collect(fn, scope=...)``; the column
    is named after the function. Returns the function itself.

    Raises:
        ValueError: ``scope`` is not a scope (checked at once).
        TypeError: what is marked is not callable.
    """
    scope_value = _parse_scope(scope)
    if scope_value is None:
        raise ValueError(
            f"Invalid collection scope '{scope}'. Expected one of {_scope_values()} or a "
            "CollectionScope."
        )

    def mark(fn: F) -> F:
        if not callable(fn):
            raise TypeError("collect can only decorate a callable")
        fn._nsight_collector_scope = scope_value  # type: ignore[attr-defined]
        fn._nsight_collector_name = fn.__name__  # type: ignore[attr-defined]
        return fn

    return mark(_func) if _func is not None else mark


def _parse_scope(scope: Any) -> str | None:
    if isinstance(scope, CollectionScope):
        return scope.value
    if isinstance(scope, str) and scope in {s.value for s in CollectionScope}:
        return scope
    return None


#: A collector in normalised form: (name, callback, scope value).
Collector = tuple[str, Callable[..., Any], str]


def normalize_collectors(collectors: Sequence[Any] | None) -> list[Collector]:
    """``(name, callback, scope)`` for every collector form nsight-python accepts:
    :class:`InfoCollector` instances, ``(name, callback, scope)`` tuples and functions marked
    with :func:`collect`. Raises ``ValueError`` / ``TypeError`` with nsight-python's texts."""
    out: list[Collector] = []
    for item in collectors or ():
        if isinstance(item, InfoCollector):
            name, callback, scope = item.name, item.callback, item.scope
        elif isinstance(item, tuple):
            if len(item) != 3:
                raise ValueError(
                    f"Tuple-format info collector must be (name, callback, scope); got {item!r}"
                )
            name, callback, scope = item
            if not isinstance(name, str):
                raise TypeError(f"Info collector name must be a str; got {name!r}")
            if not callable(callback):
                raise TypeError(f"Info collector callback for '{name}' must be callable")
        elif callable(item):
            if not hasattr(item, "_nsight_collector_scope"):
                raise ValueError(
                    f"Collector function {getattr(item, '__name__', item)} is missing "
                    "@nsight.experimental.collect(scope=...) decorator"
                )
            name, callback, scope = item._nsight_collector_name, item, item._nsight_collector_scope
        else:
            raise TypeError(f"Invalid collector type: {type(item).__name__}")
        scope_value = _parse_scope(scope)
        if scope_value is None:
            raise ValueError(
                f"Invalid scope {scope!r} for collector '{name}'. Expected one of "
                f"[{_scope_values()}] or a CollectionScope."
            )
        out.append((name, callback, scope_value))
    return out


def _unused(annotation: str, config: Any) -> None:
    return None


def validate_collectors(
    collectors: Sequence[Collector], func: Callable[..., Any] | None = None
) -> None:
    """The engine's checks of the collector names, with nsight-python's texts and signature:
    duplicates, reserved column names and, when ``func`` (the decorated function) is given,
    names of its parameters. Raises :class:`kscope.exceptions.InvalidArgumentError` (a
    ``ProfilerException``) before any profiling work."""
    params: list[str] = []
    if func is not None:
        params = [p.name for p in inspect.signature(func).parameters.values()
                  if p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    name = getattr(func, "__name__", "") if func is not None else ""
    engine = [native.InfoCollector(n, _ENGINE_SCOPES[s], _unused) for n, _, s in collectors]
    native.validate_info_collectors(engine, params, name)


def bind_args_to_signature(
    callback: Callable[..., Any], leading: Sequence[Any], config: Sequence[Any]
) -> list[Any]:
    """The positional arguments of a collector call: ``leading`` (the annotation name for
    ANNOTATION collectors) then the config values. A callback with ``*args`` (or without an
    introspectable signature) gets all config values; any other gets only as many leading
    config values as it has positional parameters left, so default-padded configs never cause a
    ``TypeError``."""
    try:
        params = list(inspect.signature(callback).parameters.values())
    except (TypeError, ValueError):
        return list(leading) + list(config)
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return list(leading) + list(config)
    positional = [
        p
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    remaining = max(0, len(positional) - len(leading))
    return list(leading) + list(config[:remaining])


def column_value(value: Any) -> float | str | None:
    """What the engine stores of a collector's return value: None and NaN stay missing, numbers
    (bool, int, float, numpy scalars) become floats, strings stay, anything else becomes its
    ``str``."""
    if value is None or isinstance(value, str):
        return value
    if is_bool(value):
        return float(bool(value))
    if isinstance(value, numbers.Real):
        number = float(value)
        return None if math.isnan(number) else number
    return str(value)


class EngineCallback:
    """The engine's callback for one collector over one call's configs: the engine calls it as
    ``(annotation, config)``; it calls the user's function with the config's original values."""

    def __init__(
        self, callback: Callable[..., Any], scope: str, configs: Sequence[tuple[Any, ...]]
    ) -> None:
        self._callback = callback
        self._scope = scope
        self._configs = configs

    def __call__(self, annotation: str, config: Any) -> float | str | None:
        if self._scope == "once":
            return column_value(self._callback())
        leading = (annotation,) if self._scope == "annotation" else ()
        args = bind_args_to_signature(self._callback, leading, self._configs[config.index])
        return column_value(self._callback(*args))


def engine_collectors(
    collectors: Sequence[Collector], configs: Sequence[tuple[Any, ...]]
) -> list[Any]:
    """The engine's ``InfoCollector`` objects for one call with ``configs`` (the call's original
    config values, default-padded, in sweep order)."""
    return [
        native.InfoCollector(name, _ENGINE_SCOPES[scope], EngineCallback(callback, scope, configs))
        for name, callback, scope in collectors
    ]


__all__ = [
    "CollectionScope",
    "EngineCallback",
    "InfoCollector",
    "bind_args_to_signature",
    "collect",
    "column_value",
    "engine_collectors",
    "normalize_collectors",
    "validate_collectors",
]
