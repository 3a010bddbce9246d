"""``ProfileResults``: what a decorated function returns, and :func:`load` for saved results."""

from __future__ import annotations

import json
import os
import warnings
from typing import Any

import pandas as pd

from ._dataframe import processed_frame, raw_frame
from ._findings import engine_findings, findings_frame
from ._native import native
from ._serialize import read_config_values, with_config_values
from .exceptions import FileFormatWarning


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
        if str(self._results.metadata.tool) == "sanitizer":
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

    def raw_dataframe(self) -> pd.DataFrame:
        """The raw table: one row per (annotation, metric, config, run)."""
        return raw_frame(self._results, self._configs)

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Writes the engine's JSON document (readable by :func:`load` and by the C++
        ``kscope::Results::load``) with the configs' Python values."""
        doc = with_config_values(self._results.to_json(), self._configs)
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, allow_nan=False)
            f.write("\n")

    def plot(
        self,
        filename: str | os.PathLike[str] | None = "plot.png",
        metric: str | None = None,
        **options: Any,
    ) -> Any:
        """Plots one metric, as ``@kscope.analyze.plot`` does, and returns the
        ``matplotlib.figure.Figure``. ``filename`` None: not saved. ``options``: the keyword
        options of :func:`kscope.analyze.plot` (docs/plots.md). Needs matplotlib."""
        from . import plot as _plot
        from ._plot_options import PlotOptions

        return _plot.render(self.to_dataframe(), self.parameters, filename, metric,
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

    def __repr__(self) -> str:
        return (
            f"<ProfileResults {self.name}-{self.id}: {len(self._configs)} configs, "
            f"{len(self._results.processed)} rows>"
        )


def load(path: str | os.PathLike[str]) -> ProfileResults:
    """Reads a saved result back: a JSON file written by :meth:`ProfileResults.to_json` or by
    a C++ program (``Results::write_json``), or a session journal (``.jsonl``), finished or
    not. Lists and dicts in configs come back as lists and dicts; tuples as lists.

    Raises:
        FileFormatError: the file is malformed (the message names the file, the JSON path or
            line, what was expected and what was found).

    Warns:
        FileFormatWarning: once per malformed journal line that was skipped (the lines after
            it still load; ``complete`` is then False).
    """
    path = os.fspath(path)
    results = native.Results.load(path)
    for text in results.load_warnings:
        warnings.warn(str(text), FileFormatWarning, stacklevel=2)
    return ProfileResults(results, read_config_values(path, len(results.configs)))


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


__all__ = ["ProfileResults", "load", "load_ncu"]
