"""Info collectors (nsight-python's experimental custom columns, reference §2.9 and §3.5).

kscope accepts and validates them with nsight-python's rules and texts, but its engine cannot
run them yet: a decorator given collectors raises :class:`NotSupportedError` after validation,
so a script never loses its columns silently.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar, overload

F = TypeVar("F", bound=Callable[..., Any])

#: Column names of the processed frame that a collector may not take.
RESERVED_COLUMNS = frozenset(
    {
        "Annotation", "Value", "Metric", "Kernel", "GPU", "Host", "ComputeClock",
        "MemoryClock", "Unit", "AvgValue", "StdDev", "MinValue", "MaxValue", "NumRuns",
        "CI95_Lower", "CI95_Upper", "RelativeStdDevPct", "StableMeasurement", "Geomean",
        "Normalized", "NormalizationValue",
    }
)  # fmt: skip


class CollectionScope(Enum):
    """When a collector runs: once per session, per config, per run, or per annotation."""

    ONCE = "once"
    CONFIG = "config"
    RUN = "run"
    ANNOTATION = "annotation"


def _scope_values() -> str:
    return ", ".join(f"'{s.value}'" for s in CollectionScope)


@dataclass
class InfoCollector:
    """A named callback that adds a column, run at ``scope``."""

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
    """Marks a function as an info collector of ``scope`` (decorator or direct call)."""
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


Collector = tuple[str, Callable[..., Any], str]


def normalize_collectors(collectors: Sequence[Any] | None) -> list[Collector]:
    """``(name, callback, scope)`` for every collector form nsight-python accepts."""
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


def validate_collectors(
    collectors: Sequence[Collector], func_name: str, params: Sequence[str]
) -> None:
    """Rejects duplicate names, reserved column names and names of the function's parameters
    (:class:`kscope.exceptions.ProfilerException`)."""
    from .exceptions import ProfilerException

    seen: set[str] = set()
    for name, _, scope in collectors:
        if name in seen:
            raise ProfilerException(
                f"Duplicate info collector name '{name}' ({scope} scope): names must be unique."
            )
        seen.add(name)
        if name in RESERVED_COLUMNS:
            raise ProfilerException(
                f"Info collector name '{name}' collides with a reserved profiler column; "
                "choose another name."
            )
        if name in params:
            raise ProfilerException(
                f"Info collector name '{name}' collides with a parameter of '{func_name}'; "
                "choose another name."
            )


__all__ = [
    "CollectionScope",
    "InfoCollector",
    "collect",
    "normalize_collectors",
    "validate_collectors",
]
