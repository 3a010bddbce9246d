"""The options of ``@kernel``: type checks and value validation at decoration time, and the
engine's ``Options`` for one call.

Value rules (allowed strings, thermal thresholds, runs >= 1, ...) live in the engine
(``Options::validate``), so C++ and Python report them with the same texts; this module checks
the Python types the engine cannot see and resolves the output prefix.
"""

from __future__ import annotations

import inspect
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from . import _derive
from ._callsite import warn
from ._native import native
from ._reexec import reexec_command
from .exceptions import InvalidArgumentError
from .tools import Tool, parse_tool, resolve_tool
from .verbosity import VerbosityLevel

# The allowed values of the enumerated options, for type checkers; the engine checks them at
# run time (Options::validate), and a test keeps the two lists equal.
ClockControl = Literal["none", "base"]
CacheControl = Literal["all", "none"]
ReplayMode = Literal["kernel", "range"]
MetricReplay = Literal["checkpoint", "application", "kernel"]
DurationSource = Literal["activity", "profiler"]
ThermalMode = Literal["auto", "manual", "off"]

_ENGINE_VERBOSITY = {
    VerbosityLevel.SILENT: native.Verbosity.SILENT,
    VerbosityLevel.INFO: native.Verbosity.INFO,
    VerbosityLevel.DEBUG: native.Verbosity.DEBUG,
}


@dataclass(frozen=True)
class KernelSettings:
    """Validated options of one ``@kernel`` decorator (see :func:`kscope.analyze.kernel`)."""

    configs: Iterable[Any] | None
    runs: int
    warmup_runs: int
    derive_metric: Callable[..., Any] | None
    normalize_against: str | None
    verbosity: VerbosityLevel
    metrics: tuple[str, ...]
    ignore_kernel_list: tuple[str, ...]
    clock_control: str
    cache_control: str
    replay_mode: str
    metric_replay: str
    duration_source: str
    thermal_mode: str
    thermal_wait: int | None
    thermal_cont: int | None
    thermal_timeout: int | None
    thermal_device: int | None
    combine_kernel_metrics: Callable[[float, float], float] | None
    output_prefix: str | None
    output_csv: bool
    info_collectors: Sequence[Any] | None
    tool: Tool | None


_INT_MAX = 2**31 - 1  # the engine's options are C ints


def _require_int(name: str, value: Any, optional: bool = False) -> None:
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        expected = "an int or None" if optional else "an int"
        raise TypeError(f"{name} must be {expected}, got {value!r}")
    if not -_INT_MAX - 1 <= value <= _INT_MAX:
        raise InvalidArgumentError(f"Invalid {name} {value}. Expected an integer <= {_INT_MAX}.")


def _names(name: str, value: Any, optional: bool) -> tuple[str, ...]:
    if value is None and optional:
        return ()
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a sequence of str (e.g. [{value!r}]), got {value!r}")
    items = tuple(value)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"{name} must contain only str, got {item!r}")
    return items


def _choice(option: str, value: Any) -> str:
    if not isinstance(value, str):
        allowed = " or ".join(f"'{v}'" for v in native.allowed_values(option))
        raise InvalidArgumentError(f"Invalid {option} {value!r}. Expected {allowed}.")
    return value


def _verbosity(value: Any) -> VerbosityLevel:
    try:
        return VerbosityLevel(value)
    except ValueError:
        levels = ", ".join(f"VerbosityLevel.{v.name}" for v in VerbosityLevel)
        raise ValueError(f"Invalid verbosity {value!r}. Expected one of {levels}.") from None


def _check_combiner(combine: Any) -> None:
    if combine is None:
        return
    if not callable(combine):
        raise TypeError("combine_kernel_metrics must be a callable taking two values (lhs, rhs)")
    try:
        inspect.signature(combine).bind(0.0, 0.0)
    except TypeError:
        raise ValueError(
            "combine_kernel_metrics must accept exactly two positional arguments (lhs, rhs), "
            "e.g. lambda x, y: x + y"
        ) from None
    except ValueError:  # no introspectable signature (a builtin): trust it
        pass


def make_settings(**options: Any) -> KernelSettings:
    """Checks every option of ``@kernel`` and returns them validated; raises ``TypeError``
    (wrong Python type) or :class:`kscope.exceptions.InvalidArgumentError` /
    :class:`~kscope.exceptions.NotSupportedError` (engine rules) before any GPU work."""
    o = dict(options)
    _require_int("runs", o["runs"])
    _require_int("warmup_runs", o["warmup_runs"])
    for name in ("thermal_wait", "thermal_cont", "thermal_timeout", "thermal_device"):
        _require_int(name, o[name], optional=True)
    o["metrics"] = tuple(m.strip() for m in _names("metrics", o["metrics"], optional=False))
    o["ignore_kernel_list"] = _names("ignore_kernel_list", o["ignore_kernel_list"], optional=True)
    for name in ("clock_control", "cache_control", "replay_mode", "metric_replay",
                 "duration_source", "thermal_mode"):
        o[name] = _choice(name, o[name])
    if o["derive_metric"] is not None:
        _derive.check_callable(o["derive_metric"])
    _check_combiner(o["combine_kernel_metrics"])
    for name in ("normalize_against", "output_prefix"):
        if o[name] is not None and not isinstance(o[name], str):
            raise TypeError(f"{name} must be a str or None, got {o[name]!r}")
    if not isinstance(o["output_csv"], bool):
        raise TypeError(f"output_csv must be a bool, got {o['output_csv']!r}")
    o["verbosity"] = _verbosity(o["verbosity"])
    o["tool"] = parse_tool(o["tool"])
    settings = KernelSettings(**o)
    engine_options(settings, resolve_tool(settings.tool)).validate()
    return settings


def resolve_output_prefix(prefix: str | None) -> str:
    """nsight-python's rule: None gives a fresh temporary directory ``$TMPDIR/kscope_XXXXXX/``
    (created now; the caller does this once per decorated function, at its first call); a
    prefix gets its directory created."""
    if prefix is None:
        return tempfile.mkdtemp(prefix="kscope_") + os.sep
    directory = os.path.dirname(prefix) or "."
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as e:
        # The engine's text for the same failure (src/api/output_prefix.cpp).
        raise InvalidArgumentError(
            f"Invalid output_prefix '{prefix}': cannot create its directory '{directory}' "
            f"({e.strerror}). Choose a prefix in a directory kscope can write to."
        ) from None
    return prefix


def _write_stdout(text: str) -> None:
    # Looked up on every call: pytest and Jupyter replace sys.stdout.
    sys.stdout.write(text)
    sys.stdout.flush()


def _engine_warning(text: str) -> None:
    warn(text, RuntimeWarning)


def _stdout_is_terminal() -> bool:
    try:
        return bool(sys.stdout.isatty())
    except (AttributeError, ValueError):
        return False


def engine_options(
    settings: KernelSettings, tool: Tool, derive_metric: Callable[..., Any] | None = None
) -> Any:
    """The engine's ``Options`` for one call with ``tool``; printing goes to ``sys.stdout``,
    warnings to ``warnings.warn``. ``derive_metric`` is the engine-side adapter, if any."""
    o = native.Options()
    o.runs = settings.runs
    o.warmup_runs = settings.warmup_runs
    o.metrics = list(settings.metrics)
    o.tool = tool.value
    o.cache_control = settings.cache_control
    o.clock_control = settings.clock_control
    o.replay_mode = settings.replay_mode
    o.metric_replay = settings.metric_replay
    o.duration_source = settings.duration_source
    o.ignore_kernel_list = list(settings.ignore_kernel_list)
    combine = settings.combine_kernel_metrics
    o.combine_kernel_metrics = None if combine is None else (lambda a, b: float(combine(a, b)))
    o.derive_metric = derive_metric
    o.normalize_against = settings.normalize_against or ""
    o.verbosity = _ENGINE_VERBOSITY[settings.verbosity]
    o.output_prefix = settings.output_prefix or ""
    o.output_csv = settings.output_csv
    o.call_name = "kscope.analyze.kernel()"
    o.reexec_argv, o.reexec_unavailable = reexec_command()
    o.thermal_mode = settings.thermal_mode
    o.thermal_wait = settings.thermal_wait
    o.thermal_cont = settings.thermal_cont
    o.thermal_timeout = settings.thermal_timeout
    o.thermal_device = settings.thermal_device
    o.log = _write_stdout
    o.on_warning = _engine_warning
    o.interactive = _stdout_is_terminal()
    return o


__all__ = [
    "CacheControl",
    "ClockControl",
    "KernelSettings",
    "MetricReplay",
    "ReplayMode",
    "ThermalMode",
    "engine_options",
    "make_settings",
    "resolve_output_prefix",
]
