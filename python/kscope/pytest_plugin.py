"""A pytest plugin for kernel benchmarks in a test suite, like pytest-benchmark (docs/pytest.md).

Enable it with ``pytest -p kscope.pytest_plugin`` (or ``pytest_plugins = ["kscope.pytest_plugin"]``
in a ``conftest.py``). It adds the fixture ``kscope_benchmark`` and the options:

``--kscope-dir=DIR``
    where results are saved (default ``.kscope``): each benchmark's as
    ``<DIR>/<test id>[-<name>].json``, or, with ``--kscope-autosave`` / ``--kscope-save``, in a
    numbered run directory ``<DIR>/NNNN_<name>/``;
``--kscope-autosave``, ``--kscope-save=NAME``
    keep this session's results as the next numbered run, named after the git commit and the
    time (autosave) or ``NAME``;
``--kscope-compare[=RUN]``
    compare each benchmark with the same benchmark of a saved run: the latest one (no value),
    a run's number (``3``, ``0003``), a run's name (or its start), or a directory of results;
``--kscope-fail=5%``
    with ``--kscope-compare``: a benchmark fails when a row is SLOWER than the baseline by more
    than this (a percentage or a fraction);
``--kscope-noise=1%``
    with ``--kscope-compare``: the comparison's noise threshold (default 1 %);
``--kscope-disable``
    run every benchmark function once per config, unmeasured (the fixture returns None).

Without a usable CUDA device a benchmark is skipped with the reason; a device that measured
earlier benchmarks of the session and is gone later fails the test. At the end of the session a
table lists every benchmark's rows (and their comparison).

::

    def test_vadd(kscope_benchmark):
        def vadd(n):
            a = torch.ones(n, device="cuda")
            with kscope.annotate("add"):
                a + a
        results = kscope_benchmark(vadd, configs=[(1 << 20,)], runs="auto")
        if results is not None:  # None under --kscope-disable
            assert results.to_dataframe()["AvgValue"].iloc[0] > 0
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn

import pytest

if TYPE_CHECKING:
    from .collection.core import KernelProfiler, ProfileResults
    from .comparison import Comparison

#: ``--kscope-compare`` without a value: the latest saved run.
LATEST = "latest"
_NAME = re.compile(r"[A-Za-z0-9._-]+")
_RUN = re.compile(r"(\d{4,})_(.+)")


# ---------------------------------------------------------------------------------------------
# The saved runs: <storage>/NNNN_<name>/<test id>[-<name>].json


def result_file(directory: str, nodeid: str, name: str | None) -> str:
    """``<directory>/<test id>[-<name>].json``, the test id with every character but letters,
    digits, ``.``, ``-`` and ``_`` replaced by ``_``."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", nodeid)
    if name:
        stem += "-" + re.sub(r"[^A-Za-z0-9._-]", "_", name)
    return os.path.join(directory, stem + ".json")


class SavedRun(NamedTuple):
    """One run kept in the storage directory: ``<storage>/NNNN_<name>/``."""

    number: int
    name: str
    path: str


def saved_runs(storage: str) -> list[SavedRun]:
    """The runs saved in ``storage`` (directories ``NNNN_<name>``), oldest first; empty when
    there is none or no such directory."""
    try:
        entries = os.listdir(storage)
    except OSError:
        return []
    runs = []
    for entry in entries:
        match = _RUN.fullmatch(entry)
        path = os.path.join(storage, entry)
        if match and os.path.isdir(path):
            runs.append(SavedRun(int(match.group(1)), match.group(2), path))
    return sorted(runs)


def _listed(runs: Sequence[SavedRun]) -> str:
    names = [os.path.basename(r.path) for r in runs]
    if not names:
        return "none"
    if len(names) <= 5:
        return ", ".join(names)
    return f"{', '.join(names[-5:])} (the latest 5 of {len(names)})"


def resolve_baseline(value: str, storage: str) -> str:
    """The directory ``--kscope-compare=value`` names, in this order: ``"latest"`` (the option
    without a value) the latest run saved in ``storage``; an existing directory itself (results
    saved with ``--kscope-dir``, or a run's directory); digits the run of that number; else the
    latest run whose name starts with ``value``. Raises ``pytest.UsageError`` naming the saved
    runs when there is none."""
    runs = saved_runs(storage)
    if value == LATEST:
        if not runs:
            raise pytest.UsageError(
                f"--kscope-compare: no saved run in '{storage}' to compare with; save one first "
                "with --kscope-autosave or --kscope-save=NAME")  # fmt: skip
        return runs[-1].path
    if not value:
        raise pytest.UsageError(
            "--kscope-compare=: no run given; give a run number, a run name or a directory, or "
            "no value for the latest run")  # fmt: skip
    if os.path.isdir(value):
        return value
    if value.isdigit():
        numbered = [r for r in runs if r.number == int(value)]
        if not numbered:
            raise pytest.UsageError(
                f"--kscope-compare={value}: no run numbered {int(value):04d} in '{storage}' "
                f"(saved runs: {_listed(runs)})")  # fmt: skip
        return numbered[-1].path
    named = [r for r in runs if r.name.startswith(value) or os.path.basename(r.path) == value]
    if not named:
        raise pytest.UsageError(
            f"--kscope-compare={value}: neither a directory nor the name of a run saved in "
            f"'{storage}' (saved runs: {_listed(runs)})")  # fmt: skip
    return named[-1].path


def _git(directory: str, *args: str) -> str | None:
    git = shutil.which("git")
    if git is None:
        return None
    try:
        done = subprocess.run([git, *args], cwd=directory, capture_output=True, text=True,
                              timeout=10, check=False)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def autosave_name(directory: str) -> str:
    """The name ``--kscope-autosave`` gives a run: ``<commit>_<UTC time>`` in a git checkout
    (``3f2a9c1d0b7e_20261203_141502``, with ``_uncommitted-changes`` when tracked files differ
    from the commit), else ``<UTC time>``."""
    stamp = time.strftime("%Y%m%d_%H%M%S", time.gmtime())
    commit = _git(directory, "rev-parse", "--short=12", "HEAD")
    if not commit:
        return stamp
    dirty = _git(directory, "status", "--porcelain", "--untracked-files=no")
    return f"{commit}_{stamp}" + ("_uncommitted-changes" if dirty else "")


def _new_run(storage: str, name: str) -> str:
    """Creates ``<storage>/NNNN_<name>/``, numbered after the latest saved run."""
    os.makedirs(storage, exist_ok=True)
    while True:
        runs = saved_runs(storage)
        path = os.path.join(storage, f"{(runs[-1].number if runs else 0) + 1:04d}_{name}")
        try:
            os.mkdir(path)
            return path
        except FileExistsError:  # another session took the number: take the next
            continue


# ---------------------------------------------------------------------------------------------
# The session: options, what was measured, the summary.


@dataclass
class Measured:
    """One benchmark of the session: its test, name, results and comparison (if any)."""

    nodeid: str
    name: str | None
    results: ProfileResults
    comparison: Comparison | None = None


@dataclass
class _Session:
    storage: str
    disabled: bool
    save_name: str | None  # the run's name with --kscope-autosave / --kscope-save
    baseline: str | None  # the directory --kscope-compare resolved to
    threshold: str | None
    noise: str | None
    run_dir: str | None = None  # created at the first save
    measured: list[Measured] = field(default_factory=list)
    unmeasured: int = 0  # benchmarks run under --kscope-disable

    def save_directory(self) -> str:
        """Where this session's results go: its run directory, created at the first save, or
        the storage directory itself."""
        if self.save_name is None:
            return self.storage
        if self.run_dir is None:
            self.run_dir = _new_run(self.storage, self.save_name)
        return self.run_dir


_STATE = pytest.StashKey[_Session]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Adds the ``--kscope-*`` options (docs/pytest.md)."""
    group = parser.getgroup("kscope", "kscope kernel benchmarks")
    group.addoption("--kscope-dir", default=".kscope", metavar="DIR",
                    help="where kscope_benchmark saves results and runs "
                         "(default .kscope)")  # fmt: skip
    group.addoption("--kscope-autosave", action="store_true", default=False,
                    help="save this session's results as the next numbered run in DIR, "
                         "named after the git commit and the time")  # fmt: skip
    group.addoption("--kscope-save", default=None, metavar="NAME",
                    help="save this session's results as the next numbered run, "
                         "named NAME")  # fmt: skip
    group.addoption("--kscope-compare", nargs="?", const=LATEST, default=None, metavar="RUN",
                    help="compare every benchmark with a saved run: the latest (no value), a "
                         "run number, a run name or a directory of results")  # fmt: skip
    group.addoption("--kscope-fail", default=None, metavar="THRESHOLD",
                    help="with --kscope-compare: fail a benchmark SLOWER by more than this "
                         "(5%% or 0.05)")  # fmt: skip
    group.addoption("--kscope-noise", default=None, metavar="NOISE",
                    help="with --kscope-compare: a change within this is SAME (default 1%%)")
    group.addoption("--kscope-disable", action="store_true", default=False,
                    help="run each benchmark function once per config without measuring; "
                         "nothing is saved or compared")  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    """Checks the options and resolves ``--kscope-compare`` to a directory, before any test
    runs (so that the latest run is the one saved before this session)."""
    storage = str(config.getoption("--kscope-dir"))
    disabled = bool(config.getoption("--kscope-disable"))
    save = config.getoption("--kscope-save")
    if save is not None and not _NAME.fullmatch(save):
        raise pytest.UsageError(f"--kscope-save={save}: a run's name holds only letters, digits, "
                                "'.', '-' and '_'")  # fmt: skip
    compare_with = config.getoption("--kscope-compare")
    threshold = config.getoption("--kscope-fail")
    noise = config.getoption("--kscope-noise")
    if threshold is not None and compare_with is None:
        raise pytest.UsageError("--kscope-fail needs --kscope-compare[=RUN] (the results "
                                "to compare with)")  # fmt: skip
    from .comparison import fraction_options

    # The comparisons' options, checked before any test: the noise, then the threshold with it.
    for option, threshold_given in (("--kscope-noise", None), ("--kscope-fail", threshold)):
        try:
            fraction_options(threshold_given, noise).validate()
        except ValueError as e:
            raise pytest.UsageError(f"{option}: {e}") from None
    if save is None and config.getoption("--kscope-autosave"):
        save = autosave_name(str(config.rootpath))
    baseline = None
    if compare_with is not None and not disabled:
        baseline = resolve_baseline(str(compare_with), storage)
    config.stash[_STATE] = _Session(storage=storage, disabled=disabled,
                                    save_name=None if disabled else save, baseline=baseline,
                                    threshold=threshold, noise=noise)  # fmt: skip


class Benchmark:
    """What the ``kscope_benchmark`` fixture gives a test: call it with a function that
    launches kernels inside ``kscope.annotate`` regions."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        """``request``: the test's fixture request (its node id names the files)."""
        self._request = request
        self._names: set[str | None] = set()
        #: The results of this test's benchmarks, in call order.
        self.results: list[ProfileResults] = []

    @property
    def disabled(self) -> bool:
        """True under ``--kscope-disable``: the functions run unmeasured and calls return None."""
        return self._request.config.stash[_STATE].disabled

    def __call__(self, func: Callable[..., Any], *args: Any, name: str | None = None,
                 **options: Any) -> ProfileResults | None:  # fmt: skip
        """Profiles ``func`` as ``@kscope.analyze.kernel(**options)`` would, called with
        ``args`` (one config) or with ``options["configs"]``; saves the results; with
        ``--kscope-compare`` compares them with the baseline's benchmark of the same test and
        name and, with ``--kscope-fail``, fails the test on a regression (the message is the
        comparison's markdown). ``name``: tells apart several benchmarks of one test. Returns
        the :class:`kscope.ProfileResults`, or None under ``--kscope-disable`` (``func`` then
        runs once per config, unmeasured).

        Without a usable CUDA device the test is skipped with the engine's reason
        (``kscope: no CUDA device: ...``); when an earlier benchmark of the session measured,
        the device went away and the test fails. Other errors propagate."""
        from .analyze import kernel
        from .comparison import compare
        from .exceptions import NoDeviceError

        state = self._request.config.stash[_STATE]
        nodeid = self._request.node.nodeid
        if name in self._names:
            raise ValueError(f"kscope_benchmark: this test already ran a benchmark named "
                             f"{name!r}; give each benchmark of a test its own name=")  # fmt: skip
        self._names.add(name)
        options.setdefault("verbosity", 0)
        configs = options.pop("configs", None)
        profiled = kernel(**options)(func)
        if state.disabled:
            profiler: KernelProfiler = getattr(profiled, "__kscope_profiler__")
            profiler.run_unmeasured(*args, configs=configs)
            state.unmeasured += 1
            return None
        try:
            results = profiled(*args) if configs is None else profiled(configs=configs)
        except NoDeviceError as e:
            if not state.measured:
                _skip_at_the_test(f"kscope: {e}")
            pytest.fail(f"kscope: the CUDA device that measured {len(state.measured)} earlier "
                        f"benchmark(s) of this session is gone: {e}", pytrace=False)  # fmt: skip
        self.results.append(results)
        measured = Measured(nodeid, name, results)
        state.measured.append(measured)
        directory = state.save_directory()
        os.makedirs(directory, exist_ok=True)
        path = result_file(directory, nodeid, name)
        results.to_json(path)
        if state.baseline is None:
            return results
        base = result_file(state.baseline, nodeid, name)
        if not os.path.exists(base):
            self._request.node.warn(pytest.PytestWarning(
                f"kscope: no result to compare with: '{base}' does not exist"))  # fmt: skip
            return results
        measured.comparison = compare(base, path, threshold=state.threshold, noise=state.noise)
        if measured.comparison.regressed:
            pytest.fail(f"kscope: slower than {base} beyond {state.threshold}:\n"
                        f"{measured.comparison.markdown()}", pytrace=False)  # fmt: skip
        return results


def _skip_at_the_test(reason: str) -> NoReturn:
    """``pytest.skip(reason)``, reported at the test's line rather than at this plugin's (as a
    skip mark is; pytest >= 7 takes the hint)."""
    try:
        skipped = pytest.skip.Exception(reason, _use_item_location=True)
    except TypeError:  # an older pytest: reported here
        pytest.skip(reason)
    raise skipped


@pytest.fixture
def kscope_benchmark(request: pytest.FixtureRequest) -> Benchmark:
    """Measures a function that launches kernels in ``kscope.annotate`` regions (see
    :class:`Benchmark`); saves its results under ``--kscope-dir`` and compares them with
    ``--kscope-compare``."""
    return Benchmark(request)


# ---------------------------------------------------------------------------------------------
# The summary table.


def _number(x: float, unit: str | None = None) -> str:
    if not math.isfinite(x):
        return "-"
    return f"{x:.4g}" + (f" {unit}" if unit else "")


def _percent(x: float, sign: str = "") -> str:
    return f"{sign}{x:.2g}%" if math.isfinite(x) else "-"


def summary_rows(measured: Sequence[Measured]) -> list[tuple[str, list[str]]]:
    """The cells of the summary table: per benchmark (``<test id>`` or ``<test id> [name]``),
    one list per processed row: annotation, config, metric, mean with its unit, the CI95
    half-width and the RSD in percent of the mean, runs, and with a comparison the ratio NEW /
    BASE and the verdict (``-`` for a benchmark or row the baseline lacks)."""
    comparing = any(m.comparison is not None for m in measured)
    out = []
    for m in measured:
        engine = m.results.engine_results
        test = m.nodeid + (f" [{m.name}]" if m.name else "")
        compared = {}
        if m.comparison is not None:
            rows = m.comparison.engine_comparison.rows
            compared = {(r.annotation, r.metric, r.config): r for r in rows}
        for p in engine.processed:
            label = str(engine.configs[p.config].label)
            half = (p.ci95_upper - p.ci95_lower) / 2
            cells = [str(p.annotation), label, str(p.metric), _number(p.avg, p.unit),
                     _percent(100 * half / abs(p.avg) if p.avg else math.nan, "±"),
                     _percent(p.rel_stddev_pct), str(p.num_runs)]  # fmt: skip
            if comparing:
                row = compared.get((p.annotation, p.metric, label))
                cells += ["-", "-"] if row is None else [
                    f"{row.ratio:.3f}" if math.isfinite(row.ratio) else "-", str(row.verdict_text)]
            out.append((test, cells))
    return out


_HEADER = ["Annotation", "Config", "Metric", "Mean", "CI95", "RSD", "Runs", "Ratio", "Verdict"]
_NUMBERS = range(3, 8)  # Mean .. Ratio: right-aligned


def summary_lines(measured: Sequence[Measured], width: int) -> list[str]:
    """The summary table for a terminal of ``width`` columns: each benchmark's test id on a
    line, then its rows indented under one header; when that is wider than ``width``, each
    row on two lines (annotation, config and metric, then the labelled numbers) and a third
    for the comparison."""
    rows = summary_rows(measured)
    if not rows:
        return []
    columns = len(rows[0][1])
    header = _HEADER[:columns]
    widths = [max(len(c) for c in col) for col in zip(header, *(cells for _, cells in rows))]

    def line(cells: Sequence[str]) -> str:
        parts = [c.rjust(w) if i in _NUMBERS else c.ljust(w)
                 for i, (c, w) in enumerate(zip(cells, widths))]  # fmt: skip
        return ("  " + "  ".join(parts)).rstrip()

    wide = 2 + sum(widths) + 2 * (columns - 1) <= width
    out = [line(header)] if wide else []
    test = None
    for name, cells in rows:
        if name != test:
            out.append(name)
            test = name
        if wide:
            out.append(line(cells))
            continue
        out.append("  " + "  ".join(cells[:3]))
        out.append(f"    mean {cells[3]}  CI95 {cells[4]}  RSD {cells[5]}  runs {cells[6]}")
        if columns > 7:
            out.append(f"    ratio {cells[7]}  {cells[8]}")
    return out


def _terminal_width(terminalreporter: Any) -> int:
    writer = getattr(terminalreporter, "_tw", None)
    width = getattr(writer, "fullwidth", None)
    return int(width) if isinstance(width, int) else shutil.get_terminal_size().columns


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Prints a section ``kscope benchmarks``: where the results were saved and what they were
    compared with, the comparisons' warnings, and the table of :func:`summary_lines`; with
    ``-v`` every comparison in full."""
    state = config.stash.get(_STATE, None)
    if state is None or not (state.measured or state.unmeasured):
        return
    terminalreporter.section("kscope benchmarks")
    write = terminalreporter.write_line
    if state.disabled:
        write(f"--kscope-disable: {state.unmeasured} benchmark(s) ran once per config, "
              "unmeasured; nothing was saved or compared")  # fmt: skip
        return
    write(f"saved in {state.run_dir or state.storage}")
    if state.baseline is not None:
        write(f"compared with {state.baseline}")
    seen: set[str] = set()
    for m in state.measured:
        for w in m.comparison.warnings if m.comparison is not None else []:
            if w not in seen:
                seen.add(w)
                write(f"warning: {w}")
    for text in summary_lines(state.measured, _terminal_width(terminalreporter)):
        write(text)
    if config.getoption("verbose") > 0:
        for m in state.measured:
            if m.comparison is not None:
                write(f"{m.nodeid}{f' [{m.name}]' if m.name else ''}:")
                write(str(m.comparison))


__all__ = [
    "LATEST", "Benchmark", "Measured", "SavedRun", "autosave_name", "kscope_benchmark",
    "resolve_baseline", "result_file", "saved_runs", "summary_lines", "summary_rows",
]  # fmt: skip
