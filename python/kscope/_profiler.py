"""The callable that replaces a ``@kernel``-decorated function: one profiling session of the
engine per call, with the call forms of docs/python.md."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Iterable
from typing import Any

from . import _derive
from ._callsite import warn
from ._configs import FunctionSignature, bind, engine_configs, sanitize_configs
from ._native import native
from ._options import KernelSettings, engine_options, resolve_output_prefix
from ._progress import notebook_progress
from ._reexec import flushing_in_child
from .info_collectors import engine_collectors, normalize_collectors, validate_collectors
from .results import ProfileResults
from .tools import resolve_tool


class KernelProfiler:
    """Profiles one decorated function. Every call validates its configs (all before any GPU
    work), then runs the engine's session with the function name as session name, so run ids
    count per function name (``profiled_data-<name>-<id>.csv``)."""

    def __init__(self, func: Callable[..., Any], settings: KernelSettings) -> None:
        self.func = func
        self.signature = FunctionSignature.of(func)
        self.collectors = normalize_collectors(settings.info_collectors)
        validate_collectors(self.collectors, func.__name__, self.signature.names)
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
            _derive.check_arity(settings.derive_metric, len(settings.metrics), len(rows[0]))
            adapter = _derive.DeriveAdapter(settings.derive_metric, rows)
        options = engine_options(settings, resolve_tool(settings.tool), adapter)
        options.info_collectors = engine_collectors(self.collectors, rows)
        options.on_progress = notebook_progress(self.func.__name__)
        calls = [bind(self.signature, row) for row in rows]
        func = self.func
        returned_value = False

        def run(config: Any) -> None:
            nonlocal returned_value
            call = calls[config.index]
            if func(*call.args, **call.kwargs) is not None:
                returned_value = True

        results = native.profile(
            func.__name__, engine_configs(self.signature, rows), flushing_in_child(run), options
        )
        if returned_value:
            warn(
                f"Function '{func.__name__}' returns a value, but the return value for a "
                "function which is decorated with nsight.analyze.kernel is ignored and instead "
                "the ProfileResults object is returned.",
                RuntimeWarning,
            )
        return ProfileResults(results, rows)


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


__all__ = ["KernelProfiler", "make_wrapper"]
