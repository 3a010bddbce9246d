"""The options of a plot (``@kscope.analyze.plot``, ``ProfileResults.plot``, ``python3 -m
kscope plot``): one validated, immutable record, checked when the decorator is applied so that a
typo fails before the sweep runs. docs/plots.md describes every option."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal, get_args

from .exceptions import InvalidArgumentError

PlotType = Literal["line", "bar"]
Aggregate = Literal["avg", "geomean"]
PLOT_TYPES: tuple[str, ...] = get_args(PlotType)
AGGREGATES: tuple[str, ...] = get_args(Aggregate)


def _fields(name: str, value: str | Sequence[str] | None) -> tuple[str, ...]:
    """A list of parameter names; one name alone (a str) is accepted as a list of one."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Sequence) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{name} must be a list of parameter names, got {value!r}")
    return tuple(value)


def _choice(name: str, value: Any, allowed: tuple[str, ...], none_ok: bool) -> None:
    if (value is None and none_ok) or value in allowed:
        return
    choices = ", ".join(repr(a) for a in allowed) + (" or None" if none_ok else "")
    raise InvalidArgumentError(f"Invalid {name} {value!r}. Expected one of: {choices}.")


def _size(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not float(value) > 0:
        raise InvalidArgumentError(f"{name} must be a positive number of inches, got {value!r}")
    return float(value)


def _optional_bool(name: str, value: Any) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{name} must be True, False or None (automatic), got {value!r}")
    return value


@dataclass(frozen=True)
class PlotOptions:
    """Validated plot options (see :func:`kscope.analyze.plot` for their meaning).

    Field lists are tuples; ``error_bars`` and ``log_y`` are None for "automatic".
    """

    title: str | None = None
    ylabel: str | None = None
    annotate_points: bool = False
    show_aggregate: Aggregate | None = None
    plot_type: PlotType = "line"
    plot_width: float = 6.0
    plot_height: float = 4.0
    row_panels: tuple[str, ...] = ()
    col_panels: tuple[str, ...] = ()
    x_keys: tuple[str, ...] | None = None
    print_data: bool = False
    variant_fields: tuple[str, ...] = ()
    variant_annotations: tuple[str, ...] | None = None
    plot_callback: Callable[[Any], None] | None = None
    error_bars: bool | None = None
    log_y: bool | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # frozen: normalise the fields once, here
        _choice("plot_type", self.plot_type, PLOT_TYPES, none_ok=False)
        _choice("show_aggregate", self.show_aggregate, AGGREGATES, none_ok=True)
        set_(self, "plot_width", _size("plot_width", self.plot_width))
        set_(self, "plot_height", _size("plot_height", self.plot_height))
        for name in ("row_panels", "col_panels", "variant_fields"):
            set_(self, name, _fields(name, getattr(self, name)))
        for name in ("x_keys", "variant_annotations"):
            value = getattr(self, name)
            set_(self, name, None if value is None else _fields(name, value))
        if self.x_keys == ():
            set_(self, "x_keys", None)
        if self.variant_annotations and not self.variant_fields:
            raise InvalidArgumentError(
                "variant_annotations needs variant_fields: the parameters whose values split "
                "those annotations into one line each"
            )
        if self.plot_callback is not None and not callable(self.plot_callback):
            raise TypeError(f"plot_callback must be callable, got {self.plot_callback!r}")
        for name in ("error_bars", "log_y"):
            _optional_bool(name, getattr(self, name))

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The option names, in declaration order."""
        return tuple(f.name for f in fields(cls))

    @property
    def show_avg(self) -> bool:
        """An "Avg" group of bars after the configurations."""
        return self.show_aggregate == "avg"

    @property
    def show_geomean(self) -> bool:
        """A "Geomean" group of bars after the configurations."""
        return self.show_aggregate == "geomean"

    @property
    def draws_error_bars(self) -> bool:
        """Error bars from the CI95 columns: on for line plots unless switched off."""
        return self.plot_type == "line" if self.error_bars is None else self.error_bars


__all__ = ["AGGREGATES", "PLOT_TYPES", "Aggregate", "PlotOptions", "PlotType"]
