"""``kscope.collection.core``: one profiling session per call of a decorated function
(nsight-python's ``nsight.collection.core``), in the order a call goes through it:

1. **Configs**: nsight-python's sanitisation rules (reference §2.4.1), binding of values to the
   function's parameters, and the engine's view of them. The engine never sees the Python
   objects of a config: it gets, per config, its index and a printable value per parameter
   (ints, floats, strings and bools as they are; anything else as a short label). The original
   objects stay here and fill the DataFrame's parameter columns.
2. **Settings**: the options of ``@kernel``, type-checked at decoration, and the engine's
   ``Options`` for one call. Value rules (allowed strings, thermal thresholds, runs >= 1, ...)
   live in the engine (``Options::validate``), so C++ and Python report them with the same
   texts; this part checks the Python types the engine cannot see and resolves the output
   prefix.
3. **Results**: :class:`ProfileResults`, what a call returns, with the configs' Python values
   in the engine's JSON documents (lists, tuples and dicts as JSON arrays and objects, objects
   JSON cannot hold as the engine's short label), and :func:`load` / :func:`load_ncu` for saved
   results (kscope's).
4. **The profiler**: :class:`KernelProfiler`, the callable that replaces a decorated function
   and runs the engine's session.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import math
import numbers
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import pandas as pd

from .. import extraction
from .._cupti_handoff import hand_over_to_torch_profiler
from .._native import native
from ..cuda_graphs import TorchRegionCapture
from ..exceptions import (
    ConfigError,
    FileFormatWarning,
    InvalidArgumentError,
    ProfilerException,
)
from ..info_collector import engine_collectors, normalize_collectors, validate_collectors
from ..thermovision import ThermalController
from ..tools_manager import Tool, parse_tool, resolve_tool
from ..transformation import (
    engine_findings,
    findings_frame,
    processed_frame,
    raw_frame,
    stops_frame,
)
from ..utils import (
    VerbosityLevel,
    is_bool,
    label,
    notebook_max_rows,
    notebook_progress,
    user_package_name,
    warn,
)
from .reexec import flushing_in_child, reexec_command



# ---------------------------------------------------------------------------------------------
# 1. Configs.

_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


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


def check_configs_type(configs: Any) -> None:
    """``TypeError`` unless ``configs`` is a collection or iterable of configs: a scalar, a
    string and a mapping (whose iteration gives only its keys) are refused."""
    if isinstance(configs, Mapping):
        raise TypeError(
            f"configs must be a sequence or iterable of configs, got a {type(configs).__name__} "
            f"({configs!r}), whose iteration gives only its keys; give a list of configs, "
            f"e.g. {list(configs.items())!r}"
        )
    if isinstance(configs, (str, bytes)) or not isinstance(configs, Iterable):
        raise TypeError(
            f"configs must be a sequence or iterable of configs (each a tuple of argument values, "
            f"or a scalar for a one-parameter function), e.g. [{configs!r}]; got {configs!r}"
        )


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
    check_configs_type(configs)
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


def engine_value(value: Any) -> bool | int | float | str:
    """The value as the engine stores it: bool, int (64-bit), float and str as they are
    (numpy scalars included), anything else as :func:`label`."""
    kind = type(value)
    if kind is int:  # the common cases first: a sweep may have a million configs
        return value if _INT64_MIN <= value <= _INT64_MAX else str(value)
    if kind is float or kind is str:
        return value  # type: ignore[no-any-return]
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


# ---------------------------------------------------------------------------------------------
# 2. Settings.

# The allowed values of the enumerated options, for type checkers; the engine checks them at
# run time (Options::validate), and a test keeps the two lists equal.
ClockControl = Literal["none", "base"]
CacheControl = Literal["all", "region", "none"]
ReplayMode = Literal["kernel", "range"]
MetricReplay = Literal["checkpoint", "application", "kernel"]
DurationSource = Literal["activity", "profiler", "events"]
OnConfigError = Literal["raise", "skip"]

_ENGINE_VERBOSITY = {
    VerbosityLevel.SILENT: native.Verbosity.SILENT,
    VerbosityLevel.INFO: native.Verbosity.INFO,
    VerbosityLevel.DEBUG: native.Verbosity.DEBUG,
}


@dataclass(frozen=True)
class KernelSettings:
    """Validated options of one ``@kernel`` decorator (see :func:`kscope.analyze.kernel`)."""

    configs: Iterable[Any] | None
    runs: int | Literal["auto"]
    derive_metric: Callable[..., Any] | None
    verbosity: VerbosityLevel
    metrics: tuple[str, ...]
    thermal: ThermalController
    combine_kernel_metrics: Callable[[float, float], float] | None
    output_prefix: str | None
    info_collectors: Sequence[Any] | None
    tool: Tool | None
    cuda_graph: bool = False
    #: Every other keyword: an engine option (its flat name in the engine's option table,
    #: native.option_table()), checked by its type there and passed on as it is.
    engine: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    #: How messages name the decorator: ``<package>.analyze.kernel()``, with the package the
    #: user imported (:func:`kscope.utils.user_package_name`).
    call_name: str = "kscope.analyze.kernel()"


_INT_MAX = 2**31 - 1  # the engine's options are C ints


def _require_int(name: str, value: Any, optional: bool = False) -> None:
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        expected = "an int or None" if optional else "an int"
        raise TypeError(f"{name} must be {expected}, got {value!r}")
    if not -_INT_MAX - 1 <= value <= _INT_MAX:
        raise InvalidArgumentError(f"Invalid {name} {value}. Expected an integer <= {_INT_MAX}.")


def _require_number(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {value!r}")


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
        quoted = [f"'{v}'" for v in native.allowed_values(option)]
        # As the engine lists them: 'a', 'b' or 'c'.
        allowed = " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)
        raise InvalidArgumentError(f"Invalid {option} {value!r}. Expected {allowed}.")
    return value


@functools.cache
def option_table() -> dict[str, dict[str, Any]]:
    """The engine's option table (core/option_table.cpp), flat name -> its entry (``type``,
    ``default``, ``allowed``, ``stored``, ``sweep_identity``, ``doc``)."""
    return {entry["name"]: entry for entry in native.option_table()}


# Keywords of @kernel with checks of their own in make_settings; every other keyword that is an
# engine option is checked by its type in the option table (_checked_option).
_OWN_CHECKS = frozenset({"runs", "metrics", "tool", "verbosity", "shard", "derive_metric",
                         "combine_kernel_metrics", "info_collectors"})  # fmt: skip


# Keywords that name a file: a str or an os.PathLike (given to the engine as its str) or None.
_PATH_OPTIONS = frozenset({"resume", "shard_balance"})


def _path_option(name: str, value: Any) -> str | None:
    path = os.fspath(value) if isinstance(value, os.PathLike) else value
    if path is not None and not isinstance(path, str):
        raise TypeError(f"{name} must be a str, an os.PathLike or None, got {value!r}")
    return path


def _checked_option(entry: Mapping[str, Any], value: Any) -> Any:
    """``value`` of the engine option ``entry`` checked by its type (None where the engine has
    an empty text: the engine's default); raises TypeError or InvalidArgumentError."""
    name, kind = entry["name"], entry["type"]
    if kind in ("int", "int | None"):
        _require_int(name, value, optional=kind == "int | None")
    elif kind == "float":
        _require_number(name, value)
    elif kind == "bool" and not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    elif kind == "str" and entry["allowed"]:
        return _choice(name, value)
    elif kind == "str" and value is not None and not isinstance(value, str):
        raise TypeError(f"{name} must be a str or None, got {value!r}")
    elif kind == "list[str]":
        return _names(name, value, optional=True)
    return value


def _engine_value(entry: Mapping[str, Any], value: Any) -> Any:
    """A checked keyword as the engine's Options field takes it."""
    if entry["type"] == "str":
        return value or ""
    if entry["type"] == "float":
        return float(value)
    if entry["type"] == "list[str]":
        return list(value)
    return value


def _shard(value: Any) -> str | None:
    """``shard=``: None, ``"auto"`` or ``(i, n)`` as the engine's ``"i/n"``."""
    if value is None or isinstance(value, str):
        return value
    if (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):  # fmt: skip
        return f"{value[0]}/{value[1]}"
    raise TypeError(f"shard must be None, 'auto' or a tuple (i, n) of ints, got {value!r}")


def _output_prefix(prefix: str) -> str:
    """A leading ``~`` is the home directory (``os.path.expanduser``); a NUL is refused."""
    if "\0" in prefix:
        raise InvalidArgumentError(
            f"Invalid output_prefix {prefix!r}: it contains a NUL character, which no path can "
            "hold. Choose a prefix without it."
        )
    return os.path.expanduser(prefix)


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
    if o["configs"] is not None:
        check_configs_type(o["configs"])
    if isinstance(o["runs"], str) and o["runs"] != "auto":
        raise TypeError(f"runs must be an int or 'auto', got {o['runs']!r}")
    if o["runs"] != "auto":
        _require_int("runs", o["runs"])
    table = option_table()
    for name in list(o):  # in the signature's order, so that the first bad keyword is reported
        if name in _PATH_OPTIONS:
            o[name] = _path_option(name, o[name])
        elif name in table and name not in _OWN_CHECKS:
            o[name] = _checked_option(table[name], o[name])
    o["metrics"] = tuple(m.strip() for m in _names("metrics", o["metrics"], optional=False))
    o["thermal"] = ThermalController(
        *(o.pop(name) for name in ("thermal_mode", "thermal_wait", "thermal_cont",
                                   "thermal_timeout", "thermal_device"))
    )  # fmt: skip
    if o["derive_metric"] is not None:
        extraction.check_callable(o["derive_metric"])
    _check_combiner(o["combine_kernel_metrics"])
    o["shard"] = _shard(o.get("shard"))
    if o["output_prefix"] is not None:
        o["output_prefix"] = _output_prefix(o["output_prefix"])
    o["verbosity"] = _verbosity(o["verbosity"])
    o["tool"] = parse_tool(o["tool"])
    o["call_name"] = f"{user_package_name()}.analyze.kernel()"
    fields = {f.name for f in dataclasses.fields(KernelSettings)}
    o["engine"] = {name: o.pop(name) for name in list(o) if name not in fields}
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
    table = option_table()
    for name, value in settings.engine.items():
        setattr(o, name, _engine_value(table[name], value))
    o.auto_runs = settings.runs == "auto"
    o.runs = 1 if settings.runs == "auto" else settings.runs
    o.metrics = list(settings.metrics)
    o.tool = tool.value
    o.cuda_graph = settings.cuda_graph
    if settings.cuda_graph:
        TorchRegionCapture().apply(o)  # a capture of its own per call: its graphs die with it
    combine = settings.combine_kernel_metrics
    o.combine_kernel_metrics = None if combine is None else (lambda a, b: float(combine(a, b)))
    o.derive_metric = derive_metric
    o.verbosity = _ENGINE_VERBOSITY[settings.verbosity]
    o.output_prefix = settings.output_prefix or ""
    o.call_name = settings.call_name
    o.reexec_argv, o.reexec_unavailable = reexec_command()
    settings.thermal.apply(o)
    o.log = _write_stdout
    o.on_warning = _engine_warning
    o.interactive = _stdout_is_terminal()
    return o


# ---------------------------------------------------------------------------------------------
# 3. Results.

JsonValue = Any


def encode_value(value: Any) -> JsonValue:
    """``value`` as a JSON-compatible object (see the module docstring)."""
    if value is None or isinstance(value, str):
        return value
    if is_bool(value):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        as_float = float(value)
        return as_float if math.isfinite(as_float) else None
    if isinstance(value, (list, tuple)):
        return [encode_value(v) for v in value]
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return {k: encode_value(v) for k, v in value.items()}
    return label(value)


def config_values_json(rows: list[tuple[Any, ...]]) -> list[str]:
    """Each config's values as the JSON text the engine writes in the result's ``configs``
    (the engine streams the document; these replace its own encoding of the values)."""
    dumps = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode
    return [dumps([encode_value(v) for v in row]) for row in rows]


def _configs_of_result(f: Any, first: str) -> Any:
    """The "configs" array of the result document in ``f`` (its first line ``first`` read):
    in kscope's layout (the configs before the rows, nlohmann's dump(1) indentation) only the
    text up to the array's end is read and decoded; any other document is decoded whole."""
    head = first
    start = -1
    while True:
        if start < 0:
            at = head.find('\n "configs": [')
            if at >= 0:
                start = at + len('\n "configs": ')
        if start >= 0:
            end = head.find("\n ]", start)
            if end >= 0:
                try:
                    configs, stop = json.JSONDecoder().raw_decode(head, start)
                    if stop == end + len("\n ]"):
                        return configs
                except ValueError:
                    pass
                break
        chunk = f.read(1 << 24)
        if not chunk:
            break
        head += chunk
    document: dict[str, Any] = json.loads(head + f.read())
    return document.get("configs", [])


def _configs(path: str) -> Any:
    """The "configs" of a result or journal file, decoded by Python's json."""
    with open(path, encoding="utf-8") as f:
        first = f.readline()
        # A journal's first line is its header; a result file is one JSON document.
        if '"kscope.journal"' in first:
            header: dict[str, Any] = json.loads(first)
            return header.get("configs", [])
        return _configs_of_result(f, first)


def _is_parquet(path: str) -> bool:
    with open(path, "rb") as f:
        return f.read(4) == b"PAR1"


def read_config_values(path: str, count: int) -> list[tuple[Any, ...]] | None:
    """The configs' values of a result (JSON or Parquet) or journal file as Python objects, or
    None when the file does not hold ``count`` configs with values."""
    try:
        if _is_parquet(path):
            texts = native.parquet_config_values(path)  # one parse of them all: 1e6 configs
            rows = [tuple(values) for values in json.loads("[" + ",".join(texts) + "]")]
        else:
            rows = [tuple(c["values"]) for c in _configs(path)]
    except (OSError, ValueError, KeyError, TypeError, AttributeError, ProfilerException):
        return None
    return rows if len(rows) == count else None


class ProfileResults:
    """The results of one call of a ``@kscope.analyze.kernel`` function (or of a saved file).

    It wraps the engine's results and keeps the configs' original Python objects, which fill
    the parameter columns of the DataFrames.
    """

    def __init__(self, results: Any, configs: list[tuple[Any, ...]] | None = None) -> None:
        """``results`` is a ``kscope._kscope.Results``; ``configs`` the Python values of its
        configs in parameter order (default: the engine's values)."""
        self._results = results
        if configs is None:
            configs = [tuple(c.values) for c in results.configs]
        self._configs = configs

    def to_dataframe(self) -> pd.DataFrame:
        """The processed table: one row per (annotation, metric, config) with statistics over
        the runs, in nsight-python's column order (see docs/python.md). For tool "sanitizer"
        (and :func:`kscope.sanitize`): one row per finding, an empty frame with the same columns
        when nothing was found (docs/tools/sanitizer.md)."""
        if self._results.checked:
            return findings_frame(self.findings, self.parameters, self._configs)
        return processed_frame(self._results, self._configs)

    @property
    def findings(self) -> list[dict[str, Any]]:
        """Tool "sanitizer": what compute-sanitizer found, one dict per finding (the keys of the
        JSON document's "findings"); empty for the measuring tools."""
        return engine_findings(self._results)

    @property
    def ok(self) -> bool:
        """True when compute-sanitizer found nothing (always True for the measuring tools)."""
        return not self.findings

    @property
    def failed_configs(self) -> list[dict[str, Any]]:
        """The configs whose function raised with ``on_config_error="skip"``, in sweep order:
        one dict each with ``config`` (index), ``values`` (the config's values), ``run``,
        ``warmup``, ``type`` (e.g. ``"ValueError"``), ``message`` and ``error`` (the ``Error``
        column's text). Empty when every config was measured."""
        return [
            {
                "config": int(f.config),
                "values": self._configs[f.config],
                "run": int(f.run),
                "warmup": bool(f.warmup),
                "type": str(f.type),
                "message": str(f.message),
                "error": str(f),
            }
            for f in self._results.failed_configs
        ]

    def raw_dataframe(self) -> pd.DataFrame:
        """The raw table: one row per (annotation, metric, config, run)."""
        return raw_frame(self._results, self._configs)

    def stops(self) -> pd.DataFrame:
        """``runs="auto"``: how each config ended, one row per config: its parameters,
        ``Runs`` (measured runs taken), ``StopReason`` (``"target"``, ``"max_runs"``,
        ``"time_budget"``, ``"noise_floor"``, ``"no_values"``), ``RelCI95`` (the widest CI95
        half-width / mean reached) and ``Seconds``. Empty with a fixed run count."""
        return stops_frame(self._results, self._configs)

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Writes the engine's JSON document (readable by :func:`load` and by the C++
        ``kscope::Results::load``) with the configs' Python values."""
        self._results.write_json(os.fspath(path), config_values_json(self._configs))

    def write(
        self,
        format: str,
        path: str | os.PathLike[str],
        compare: ProfileResults | None = None,
        *,
        full_paths: bool = False,
    ) -> None:
        """Writes the result to ``path`` in one of :func:`output_formats` (docs/outputs.md):
        ``"trace"`` (a Perfetto / Chrome trace of the session), ``"html"`` (a self-contained
        report with one plot per metric), ``"md"`` (markdown), ``"json"`` (as :meth:`to_json`),
        ``"parquet"`` (the raw table for ``pandas.read_parquet``, with the whole result inside
        for :func:`load`), ``"csv"``, ``"raw-csv"``, ``"findings-csv"`` or ``"table"``. ``compare``: a second
        result, the baseline of the compare table of ``"html"`` and ``"md"``. ``full_paths``:
        the options table of ``"html"`` and ``"md"`` with absolute paths in full instead of
        ``.../<last part>``.

        Raises:
            InvalidArgumentError: ``format`` is not a registered format (the message lists
                them).
            TypeError: ``format`` is no str, or ``compare`` no :class:`ProfileResults`.
            ProfilerException: ``path`` cannot be written (the message names it).
        """
        other = _write_arguments(format, compare)
        if format == "json":
            self.to_json(path)  # with the configs' Python values
            return
        if format == "parquet":  # the same
            if other is not None:  # the engine refuses it, naming the formats that compare
                self._results.write(format, os.fspath(path), other, full_paths)
            self._results.write_parquet(os.fspath(path), config_values_json(self._configs))
            return
        self._results.write(format, os.fspath(path), other, full_paths)

    def render(
        self, format: str, compare: ProfileResults | None = None, *, full_paths: bool = False
    ) -> str:
        """The text :meth:`write` would write in ``format`` (e.g. ``"md"`` for an issue).

        Raises:
            InvalidArgumentError: ``format`` is not a registered format, or writes a binary
                file (``"parquet"``: use :meth:`write`).
        """
        other = _write_arguments(format, compare)
        if format == "json":
            return str(self._results.to_json(config_values_json(self._configs))) + "\n"
        return str(self._results.render(format, other, full_paths))

    def plot(
        self,
        filename: str | os.PathLike[str] | None = "plot.png",
        metric: str | None = None,
        **options: Any,
    ) -> Any:
        """Plots one metric, as ``@kscope.analyze.plot`` does, and returns the
        ``matplotlib.figure.Figure``. ``filename`` None: not saved. ``options``: the keyword
        options of :func:`kscope.analyze.plot` (docs/plots.md). Needs matplotlib."""
        from ..visualization import PlotOptions, render

        return render(self.to_dataframe(), self.parameters, filename, metric,
                            PlotOptions(**options), self.name)  # fmt: skip

    @property
    def name(self) -> str:
        """Session name: the decorated function's name."""
        return str(self._results.name)

    @property
    def id(self) -> int:
        """Per-name call counter of the session (0 for the first call)."""
        return int(self._results.id)

    @property
    def parameters(self) -> list[str]:
        """The parameter columns, in the function's order."""
        return list(self._results.parameters)

    @property
    def configs(self) -> list[tuple[Any, ...]]:
        """The configs' values (original Python objects), in sweep order."""
        return list(self._configs)

    @property
    def metadata(self) -> dict[str, Any]:
        """GPU, driver, clocks, host and tool of the measurement."""
        m = self._results.metadata
        return {k: getattr(m, k) for k in dir(m) if not k.startswith("_")}

    @property
    def journal_path(self) -> str:
        """The journal the session wrote while measuring ("" if none)."""
        return str(self._results.journal_path)

    @property
    def complete(self) -> bool:
        """False when loaded from the journal of an unfinished or failed session, or of one
        with malformed lines that were skipped (a warning names them)."""
        return bool(self._results.complete)

    @property
    def engine_results(self) -> Any:
        """The engine's ``kscope._kscope.Results``."""
        return self._results

    def __str__(self) -> str:
        return str(self._results.table())

    def _repr_html_(self) -> str:
        """The processed table (a sanitizer session's findings) as HTML, what a notebook shows:
        a caption (name, id, GPU, host) and the first ``pandas.options.display.max_rows`` rows
        with a line saying how many were left out (:meth:`to_dataframe` has them all)."""
        return str(self._results.to_html_table(notebook_max_rows()))

    def __repr__(self) -> str:
        return (
            f"<ProfileResults {self.name}-{self.id}: {len(self._configs)} configs, "
            f"{len(self._results.processed)} rows>"
        )


def _write_arguments(format: Any, compare: Any) -> Any:
    """The engine's results of ``compare`` (None for none), once ``format`` is a str and
    ``compare`` a :class:`ProfileResults` or None; else a ``TypeError`` naming the value."""
    if not isinstance(format, str):
        names = ", ".join(f.name for f in output_formats())
        raise TypeError(f"format must be a str (one of: {names}), got {format!r}")
    if compare is not None and not isinstance(compare, ProfileResults):
        raise TypeError(
            f"compare must be a ProfileResults (the baseline, e.g. kscope.load(path)) or None, "
            f"got {compare!r}"
        )
    return compare._results if compare is not None else None


class OutputFormat(NamedTuple):
    """One output format of :meth:`ProfileResults.write` (``kscope show --format``)."""

    name: str
    extension: str
    description: str


def output_formats() -> list[OutputFormat]:
    """Every registered output format, in the order ``kscope show --help`` lists them."""
    return [OutputFormat(str(f.name), str(f.extension), str(f.description))
            for f in native.output_formats()]  # fmt: skip


def load(
    path: str | os.PathLike[str],
    *more: str | os.PathLike[str],
    allow_overlap: bool = False,
    allow_missing: bool = False,
) -> ProfileResults:
    """Reads a saved result back: a JSON file written by :meth:`ProfileResults.to_json` or by
    a C++ program (``Results::write_json``), a Parquet file (``write("parquet", path)``; told by
    its first bytes, whatever its name), or a session journal (``.jsonl``), finished or not. Lists and dicts in configs come back as lists and dicts; tuples as lists.

    With several paths, they are the shards of one sweep (``shard=``, docs/scale-out.md) and
    are merged into the result of the whole sweep (``kscope::merge``): a config measured by two
    shards or by none is refused unless ``allow_overlap`` (the first shard's values are kept) or
    ``allow_missing`` is set.

    Raises:
        FileFormatError: a file is malformed (the message names the file, the JSON path or
            line, what was expected and what was found).
        InvalidArgumentError: the files are not the shards of one sweep, or overlap, or leave
            configs out.

    Warns:
        FileFormatWarning: once per malformed journal line that was skipped (the lines after
            it still load; ``complete`` is then False), and when shards were measured on
            different GPU models.
    """
    paths = [os.fspath(p) for p in (path, *more)]
    parts = []
    for p in paths:
        results = native.Results.load(p)
        for text in results.load_warnings:
            warnings.warn(str(text), FileFormatWarning, stacklevel=2)
        parts.append(results)
    if len(parts) == 1:
        return ProfileResults(parts[0], read_config_values(paths[0], len(parts[0].configs)))
    merged = native.merge(parts, allow_overlap, allow_missing, paths)
    for text in merged.load_warnings:
        warnings.warn(str(text), FileFormatWarning, stacklevel=2)
    return ProfileResults(merged, read_config_values(paths[0], len(merged.configs)))


def load_ncu(
    path: str | os.PathLike[str],
    metrics: list[str] | None = None,
    all_metrics: bool = False,
    ncu: str | None = None,
) -> ProfileResults:
    """Reads a report made by Nsight Compute elsewhere (``.ncu-rep``, or a CSV of its raw page)
    into a :class:`ProfileResults`: one config per profiled kernel (parameters ``ID`` and, when
    present, ``Block Size`` and ``Grid Size``), its metrics as rows, the kernel's NVTX ranges in
    the Annotation column. ``metrics``: the metrics to import (default: every numeric one but
    ncu's descriptive families; ``all_metrics=True`` keeps those too). ``ncu``: the ncu binary
    that exports a ``.ncu-rep`` (default: ``KSCOPE_NCU``, PATH, the CUDA toolkit)."""
    results = native.import_ncu(os.fspath(path), list(metrics or []), all_metrics, ncu or "")
    return ProfileResults(results)


# ---------------------------------------------------------------------------------------------
# 4. The profiler.

class KernelProfiler:
    """Profiles one decorated function. Every call validates its configs (all before any GPU
    work), then runs the engine's session with the function name as session name, so run ids
    count per function name (``profiled_data-<name>-<id>.csv``)."""

    def __init__(self, func: Callable[..., Any], settings: KernelSettings) -> None:
        self.func = func
        self.signature = FunctionSignature.of(func)
        self.collectors = normalize_collectors(settings.info_collectors)
        validate_collectors(self.collectors, func)
        self.settings = settings
        # Nothing is created on disk until the first call (decorating leaves no directory).
        self._prefix_resolved = False

    def _resolve_output_prefix(self) -> KernelSettings:
        """The settings with the output prefix resolved; on the first call this creates the
        prefix's directory (a fresh temporary one when none was given), used by every later
        call."""
        if not self._prefix_resolved:
            prefix = resolve_output_prefix(self.settings.output_prefix)
            self.settings = dataclasses.replace(self.settings, output_prefix=prefix)
            self._prefix_resolved = True
        return self.settings

    def _decorator_configs(self) -> Iterable[Any] | None:
        configs = self.settings.configs
        if configs is not None and not isinstance(configs, Collection):
            # A generator given at decoration can be iterated once: keep its values for the
            # following calls.
            configs = list(configs)
            self.settings = dataclasses.replace(self.settings, configs=configs)
        return configs

    def __call__(
        self, *args: Any, configs: Iterable[Any] | None = None, **kwargs: Any
    ) -> ProfileResults:
        rows = sanitize_configs(self.signature, args, kwargs, configs, self._decorator_configs())
        settings = self._resolve_output_prefix()
        adapter = None
        if settings.derive_metric is not None:
            extraction.check_arity(settings.derive_metric, len(settings.metrics), len(rows[0]))
            adapter = extraction.DeriveAdapter(settings.derive_metric, rows)
        options = engine_options(settings, resolve_tool(settings.tool), adapter)
        options.info_collectors = engine_collectors(self.collectors, rows)
        options.on_progress = notebook_progress(self.func.__name__)
        # Bound when a config first runs: a shard of a million configs binds only its own.
        calls: dict[int, BoundConfig] = {}
        func = self.func
        returned_value = False

        def run(config: Any) -> None:
            nonlocal returned_value
            call = calls.get(config.index)
            if call is None:
                call = calls[config.index] = bind(self.signature, rows[config.index])
            if func(*call.args, **call.kwargs) is not None:
                returned_value = True

        try:
            results = native.profile(
                func.__name__, engine_configs(self.signature, rows), flushing_in_child(run), options
            )
        finally:
            hand_over_to_torch_profiler()  # the cupti tool keeps CUPTI until torch.profiler starts
        if returned_value:
            warn(
                f"Function '{func.__name__}' returns a value, but the return value for a "
                f"function which is decorated with {self.settings.call_name[:-2]} is ignored and instead "
                "the ProfileResults object is returned.",
                RuntimeWarning,
            )
        return ProfileResults(results, rows)

    def run_unmeasured(self, *args: Any, configs: Iterable[Any] | None = None) -> None:
        """Calls the function once per config, bound as a call binds them (same configs, same
        errors), without the engine: nothing is measured, printed or written (the pytest
        plugin's ``--kscope-disable``). Its exceptions propagate."""
        rows = sanitize_configs(self.signature, args, {}, configs, self._decorator_configs())
        for row in rows:
            call = bind(self.signature, row)
            self.func(*call.args, **call.kwargs)


def make_wrapper(
    func: Callable[..., Any], settings: KernelSettings
) -> Callable[..., ProfileResults]:
    """``func`` replaced by a :class:`KernelProfiler` call, keeping its name and docstring."""
    profiler = KernelProfiler(func, settings)

    @functools.wraps(func)
    def wrapper(*args: Any, configs: Iterable[Any] | None = None, **kwargs: Any) -> ProfileResults:
        return profiler(*args, configs=configs, **kwargs)

    wrapper.__kscope_profiler__ = profiler  # type: ignore[attr-defined]
    return wrapper


__all__ = [
    "BoundConfig", "CacheControl", "ClockControl", "DurationSource", "FunctionSignature",
    "KernelProfiler", "KernelSettings", "MetricReplay", "OnConfigError", "OutputFormat",
    "ProfileResults", "ReplayMode", "bind",
    "check_configs_type", "config_values_json", "encode_value", "engine_configs", "engine_options", "engine_value", "load", "load_ncu",
    "make_settings", "make_wrapper", "output_formats", "read_config_values", "resolve_output_prefix",
    "sanitize_configs",
]  # fmt: skip
