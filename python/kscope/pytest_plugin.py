"""A pytest plugin for kernel benchmarks in a test suite, like pytest-benchmark (docs/pytest.md).

Enable it with ``pytest -p kscope.pytest_plugin`` (or ``pytest_plugins = ["kscope.pytest_plugin"]``
in a ``conftest.py``). It adds the fixture ``kscope_benchmark`` and the options:

``--kscope-dir=DIR``
    where each benchmark's results are saved as ``<DIR>/<test id>[-<name>].json``
    (default ``.kscope``);
``--kscope-compare=BASE``
    a directory of results saved by an earlier run: each benchmark is compared with the file of
    the same name there (:func:`kscope.compare`), and the comparisons are printed at the end;
``--kscope-fail=5%``
    with ``--kscope-compare``: a benchmark fails when a row is SLOWER than BASE by more than
    this (a percentage or a fraction).

::

    def test_vadd(kscope_benchmark):
        def vadd(n):
            a = torch.ones(n, device="cuda")
            with kscope.annotate("add"):
                a + a
        results = kscope_benchmark(vadd, configs=[(1 << 20,)], runs="auto")
        assert results.to_dataframe()["AvgValue"].iloc[0] > 0
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .collection.core import ProfileResults
    from .comparison import Comparison

_COMPARISONS = pytest.StashKey[list[tuple[str, "Comparison"]]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Adds ``--kscope-dir``, ``--kscope-compare`` and ``--kscope-fail``."""
    group = parser.getgroup("kscope", "kscope kernel benchmarks")
    group.addoption("--kscope-dir", default=".kscope", metavar="DIR",
                    help="where kscope_benchmark saves results (default .kscope)")  # fmt: skip
    group.addoption("--kscope-compare", default=None, metavar="BASE",
                    help="compare every benchmark with the results saved in BASE")  # fmt: skip
    group.addoption("--kscope-fail", default=None, metavar="THRESHOLD",
                    help="with --kscope-compare: fail a benchmark SLOWER by more than this "
                         "(5%% or 0.05)")  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    """Checks the options (``--kscope-fail`` needs ``--kscope-compare`` and a valid
    threshold)."""
    config.stash[_COMPARISONS] = []
    threshold = config.getoption("--kscope-fail")
    if threshold is None:
        return
    if config.getoption("--kscope-compare") is None:
        raise pytest.UsageError("--kscope-fail needs --kscope-compare=BASE (the results to "
                                "compare with)")  # fmt: skip
    from ._native import native

    try:
        native.parse_threshold(threshold)
    except ValueError as e:
        raise pytest.UsageError(f"--kscope-fail: {e}") from None


def result_file(directory: str, nodeid: str, name: str | None) -> str:
    """``<directory>/<test id>[-<name>].json``, the test id with every character but letters,
    digits, ``.``, ``-`` and ``_`` replaced by ``_``."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", nodeid)
    if name:
        stem += "-" + re.sub(r"[^A-Za-z0-9._-]", "_", name)
    return os.path.join(directory, stem + ".json")


class Benchmark:
    """What the ``kscope_benchmark`` fixture gives a test: call it with a function that
    launches kernels inside ``kscope.annotate`` regions."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        """``request``: the test's fixture request (its node id names the files)."""
        self._request = request
        self.results: list[ProfileResults] = []

    def __call__(self, func: Callable[..., Any], *args: Any, name: str | None = None,
                 **options: Any) -> ProfileResults:  # fmt: skip
        """Profiles ``func`` as ``@kscope.analyze.kernel(**options)`` would, called with
        ``args`` (one config) or with ``options["configs"]``; saves the results; with
        ``--kscope-compare`` compares them with BASE's file of the same name and, with
        ``--kscope-fail``, fails the test on a regression (the message is the comparison's
        markdown). ``name``: tells apart several benchmarks of one test. Returns the
        :class:`kscope.ProfileResults`."""
        from .analyze import kernel
        from .comparison import compare

        config = self._request.config
        options.setdefault("verbosity", 0)
        configs = options.pop("configs", None)
        profiled = kernel(**options)(func)
        results = profiled(*args) if configs is None else profiled(configs=configs)
        self.results.append(results)
        directory = config.getoption("--kscope-dir")
        os.makedirs(directory, exist_ok=True)
        path = result_file(directory, self._request.node.nodeid, name)
        results.to_json(path)
        base_dir = config.getoption("--kscope-compare")
        if base_dir is None:
            return results
        base = result_file(base_dir, self._request.node.nodeid, name)
        if not os.path.exists(base):
            self._request.node.warn(pytest.PytestWarning(
                f"kscope: no result to compare with: '{base}' does not exist"))  # fmt: skip
            return results
        threshold = config.getoption("--kscope-fail")
        comparison = compare(base, path, threshold=threshold)
        config.stash[_COMPARISONS].append((self._request.node.nodeid, comparison))
        if comparison.regressed:
            pytest.fail(f"kscope: slower than {base} beyond {threshold}:\n"
                        f"{comparison.markdown()}", pytrace=False)  # fmt: skip
        return results


@pytest.fixture
def kscope_benchmark(request: pytest.FixtureRequest) -> Benchmark:
    """Measures a function that launches kernels in ``kscope.annotate`` regions (see
    :class:`Benchmark`); saves its results under ``--kscope-dir`` and compares them with
    ``--kscope-compare``."""
    return Benchmark(request)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Prints every comparison made with ``--kscope-compare``."""
    comparisons = config.stash.get(_COMPARISONS, [])
    if not comparisons:
        return
    terminalreporter.section("kscope compare")
    for nodeid, comparison in comparisons:
        terminalreporter.write_line(nodeid)
        terminalreporter.write_line(str(comparison))


__all__ = ["Benchmark", "kscope_benchmark", "result_file"]
