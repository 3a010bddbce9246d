"""``kscope.sanitize``: check a benchmark with compute-sanitizer before trusting its numbers.

Every config runs once under compute-sanitizer (the program is re-executed, as with the ncu
tool), and each finding comes back with the annotation, config and run of the kernel launch
that caused it (docs/tools/sanitizer.md)::

    @kscope.analyze.kernel(configs=[(1024,), (3001,)], runs=20)
    def bench(n):
        ...
        with kscope.annotate("scale"):
            scale_kernel(x, n)

    checked = kscope.sanitize(bench, checks=["memcheck", "racecheck"])
    if not checked.ok:
        print(checked.to_dataframe())   # one row per finding
        raise SystemExit(1)
    timings = bench()                   # measured with the decorator's tool
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ._native import native
from .analyze import kernel
from .collection.core import (
    ProfileResults,
    _names,
    bind,
    engine_configs,
    engine_options,
    resolve_output_prefix,
    sanitize_configs,
)
from .collection.reexec import flushing_in_child
from .tools_manager import Tool
from .utils import VerbosityLevel


def sanitize(
    func: Callable[..., Any],
    configs: Iterable[Any] | None = None,
    *,
    checks: Sequence[str] = ("memcheck",),
    leak_check: bool = False,
    print_limit: int = 1000,
    verbosity: VerbosityLevel | None = None,
    output_prefix: str | None = None,
) -> ProfileResults:
    """Runs ``func`` once per config under compute-sanitizer and returns what it found.

    Args:
        func: a function decorated with ``@kscope.analyze.kernel`` (its configs, verbosity and
            output prefix are used) or a plain function that launches kernels inside
            ``kscope.annotate`` regions.
        configs: the configs to check; default: the decorator's.
        checks: any of ``"memcheck"`` (out-of-bounds and misaligned accesses), ``"racecheck"``
            (shared-memory races), ``"initcheck"`` (uninitialised reads), ``"synccheck"``
            (invalid barrier use); each runs the program again.
        leak_check: memcheck also reports device memory allocated during a run and never freed.
        print_limit: most records compute-sanitizer reports per run of a check (0: no limit).
        verbosity: how much is printed (a :class:`VerbosityLevel`); default: the decorator's,
            else INFO.
        output_prefix: where compute-sanitizer's reports go; default: the decorator's, else a
            fresh temporary directory.

    Returns:
        A :class:`ProfileResults` whose ``ok`` is True when nothing was found and whose
        ``to_dataframe()`` has one row per finding (an empty frame when clean).

    Raises:
        :class:`kscope.exceptions.ToolError` when compute-sanitizer is missing, does not support
        the GPU, or the program crashed under it; the usual config and option errors.
    """
    if not isinstance(leak_check, bool):
        raise TypeError(f"leak_check must be a bool, got {leak_check!r}")
    if isinstance(print_limit, bool) or not isinstance(print_limit, int):
        raise TypeError(f"print_limit must be an int, got {print_limit!r}")
    profiler = getattr(func, "__kscope_profiler__", None)
    if profiler is None:
        profiler = kernel(func).__kscope_profiler__  # type: ignore[attr-defined]
    settings = profiler.settings
    if verbosity is not None:
        settings = dataclasses.replace(settings, verbosity=VerbosityLevel(verbosity))
    if output_prefix is not None:
        if not isinstance(output_prefix, str):
            raise TypeError(f"output_prefix must be a str or None, got {output_prefix!r}")
        settings = dataclasses.replace(settings, output_prefix=resolve_output_prefix(output_prefix))
    decorator_configs = profiler._decorator_configs() if configs is None else None
    rows = sanitize_configs(profiler.signature, (), {}, configs, decorator_configs)
    options = engine_options(settings, Tool.SANITIZER)
    options.runs = 1
    options.warmup_runs = 0
    options.sanitizer_checks = list(_names("checks", checks, optional=False))
    options.sanitizer_leak_check = leak_check
    options.sanitizer_print_limit = print_limit
    options.validate()
    calls = [bind(profiler.signature, row) for row in rows]
    target = profiler.func

    def run(config: Any) -> None:
        call = calls[config.index]
        target(*call.args, **call.kwargs)

    name = target.__name__
    results = native.profile(
        name, engine_configs(profiler.signature, rows), flushing_in_child(run), options
    )
    return ProfileResults(results, rows)


__all__ = ["sanitize"]
