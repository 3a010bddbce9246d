"""``kscope.compare``: is NEW faster than BASE? (docs/compare.md)

:func:`compare` joins two results (or two directories of them, by session name) on
(annotation, metric, config) in the engine (``kscope::compare``) and returns a
:class:`Comparison`: per row both means, the ratio NEW / BASE with its 95 % confidence interval,
a p-value adjusted over the rows (Holm) and a verdict (``FASTER``, ``SLOWER``, ``SAME``,
``UNSURE``, ``BASE_ONLY``, ``NEW_ONLY``), as a DataFrame, a table, markdown, CSV, JSON or a plot
of the ratios.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from ._native import native
from .collection.core import ProfileResults, load
from .utils import notebook_max_rows

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The colour of each verdict (``"#rrggbb"``), the engine's (``kscope::verdict_color``): the
#: ratio plot's markers and the verdict cells of the notebook table.
VERDICT_COLORS: dict[str, str] = dict(native.verdict_colors())


class Comparison:
    """What :func:`compare` found: one row per (annotation, metric, config) of either result."""

    def __init__(self, engine: Any) -> None:
        """``engine`` is a ``kscope._kscope.Comparison``."""
        self._c = engine

    @property
    def warnings(self) -> list[str]:
        """Why the comparison may mislead (different GPUs, clocks, drivers, kscope versions,
        tools, cache or clock control) and metrics whose direction was assumed."""
        return [str(w) for w in self._c.warnings]

    @property
    def regressed(self) -> bool:
        """True when a row is SLOWER by more than the threshold (``kscope compare`` then exits
        with status 3)."""
        return bool(self._c.regressed())

    @property
    def engine_comparison(self) -> Any:
        """The engine's ``kscope._kscope.Comparison`` (its ``rows``: ``annotation``, ``metric``,
        ``config``, ``ratio``, ``verdict``, ``verdict_text``, ...)."""
        return self._c

    @property
    def verdicts(self) -> list[str]:
        """The rows' verdicts, in row order."""
        return [str(r.verdict) for r in self._c.rows]

    def to_dataframe(self) -> pd.DataFrame:
        """One row per compared (annotation, metric, config) with the columns of
        docs/compare.md (``Session, Annotation, Metric, Config, Unit, Direction, ..., Ratio,
        RatioCI95_Lower, RatioCI95_Upper, Test, PValue, PValueHolm, Verdict, WithinNoise,
        BeyondThreshold``); missing numbers are NaN."""
        rows = json.loads(self._c.to_json())["rows"]
        # The CSV header is the engine's one list of the columns, in order.
        columns = str(self._c.to_csv()).split("\n", 1)[0].split(",")
        frame = pd.DataFrame(rows, columns=columns)
        for column in frame.columns:
            if column in ("Session", "Unit", "Test"):
                continue
            if frame[column].dtype == object and all(
                v is None or isinstance(v, (int, float)) for v in frame[column]
            ):
                frame[column] = frame[column].astype(float)
        return frame

    def markdown(self) -> str:
        """GitHub-flavoured markdown (for a pull-request comment): a summary line, the
        warnings, the table."""
        return str(self._c.to_markdown())

    def to_csv(self, path: str | os.PathLike[str]) -> None:
        """Writes the rows as CSV (the columns of :meth:`to_dataframe`)."""
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(str(self._c.to_csv()))

    def to_json(self, path: str | os.PathLike[str]) -> None:
        """Writes ``{"kind": "kscope.comparison", ..., "rows": [...]}`` (docs/compare.md)."""
        with open(os.fspath(path), "w", encoding="utf-8") as f:
            f.write(str(self._c.to_json()) + "\n")

    def plot(self, filename: str | os.PathLike[str] | None = "compare.png") -> Figure:
        """A plot of the ratios NEW / BASE with their 95 % intervals, one line per row, coloured
        by verdict, a line at 1 and, with a threshold, at 1 ± threshold. Returns the
        ``matplotlib.figure.Figure``; ``filename`` None: not saved. Needs matplotlib."""
        from .visualization import _matplotlib, use_agg_without_display

        use_agg_without_display()
        matplotlib = _matplotlib()
        frame = self.to_dataframe()
        frame = frame[frame["Ratio"].notna()] if len(frame) else frame
        height = max(2.0, 0.35 * len(frame) + 1.2)
        fig: Figure = matplotlib.figure.Figure(figsize=(8.0, height), layout="constrained")
        ax = fig.add_subplot()
        for i, (_, row) in enumerate(frame.iloc[::-1].iterrows()):
            low, high = row["RatioCI95_Lower"], row["RatioCI95_Upper"]
            color = VERDICT_COLORS.get(str(row["Verdict"]), "black")
            if pd.notna(low) and pd.notna(high):
                ax.plot([low, high], [i, i], color=color, linewidth=2)
            ax.plot([row["Ratio"]], [i], "o", color=color, label=str(row["Verdict"]))
        labels = [f"{r.Annotation} {r.Config} {r.Metric}" for r in frame.iloc[::-1].itertuples()]
        ax.set_yticks(range(len(labels)), labels)
        ax.axvline(1.0, color="black", linewidth=0.8)
        threshold = self._c.threshold
        if threshold is not None:
            for x in (1 - threshold, 1 + threshold):
                ax.axvline(x, color="tab:red", linewidth=0.8, linestyle="--")
        handles, names = ax.get_legend_handles_labels()
        unique = dict(zip(names, handles))
        if unique:
            ax.legend(unique.values(), unique.keys(), loc="best")
        ax.set_xlabel("NEW / BASE (95 % CI)")
        ax.set_title(f"kscope compare: {self._c.base_name} vs {self._c.new_name}")
        if filename is not None:
            fig.savefig(os.fspath(filename), bbox_inches="tight")
        return fig

    def __str__(self) -> str:
        return str(self._c.table())

    def _repr_html_(self) -> str:
        """The comparison as HTML, what a notebook shows: the summary line, the warnings and the
        table of ``str()`` with every verdict cell coloured (:data:`VERDICT_COLORS`, class
        ``kscope-verdict-<verdict>``; the verdict's text stays), the first
        ``pandas.options.display.max_rows`` rows and a line saying how many were left out."""
        return str(self._c.to_html_table(notebook_max_rows()))

    def __repr__(self) -> str:
        return f"<Comparison {len(self._c.rows)} rows: {', '.join(sorted(set(self.verdicts)))}>"


def _results(value: ProfileResults | str | os.PathLike[str]) -> tuple[Any, str]:
    if isinstance(value, ProfileResults):
        return value.engine_results, value.name
    if isinstance(value, (str, os.PathLike)):
        path = os.fspath(value)
        return load(path).engine_results, path
    raise TypeError(f"compare() takes ProfileResults or paths of saved results, got {value!r}")


def fraction_options(threshold: float | str | None = None, noise: float | str | None = None) -> Any:
    """The engine's ``CompareOptions`` with a threshold and a noise threshold as given: a text
    through the engine's parser, a number as it is (``validate()`` refuses one of 1 or more,
    ``threshold=5``, as the parser refuses ``"5"``). The pytest plugin checks its options
    with it before any test."""
    options = native.CompareOptions()
    if noise is not None:
        options.noise = native.parse_noise(noise) if isinstance(noise, str) else float(noise)
    if threshold is not None:
        options.threshold = (native.parse_threshold(threshold) if isinstance(threshold, str)
                             else float(threshold))  # fmt: skip
    return options


def compare(
    base: ProfileResults | str | os.PathLike[str],
    new: ProfileResults | str | os.PathLike[str],
    *,
    threshold: float | str | None = None,
    noise: float | str | None = None,
    alpha: float = 0.05,
    higher_is_better: Sequence[str] = (),
    lower_is_better: Sequence[str] = (),
    annotations: Sequence[str] = (),
    metrics: Sequence[str] = (),
    configs: Sequence[str] = (),
) -> Comparison:
    """Compares NEW against BASE row by row (docs/compare.md).

    Args:
        base, new: :class:`ProfileResults`, or paths of saved results (JSON or journal), or
            two directories of them, joined by session name.
        threshold: a SLOWER row worse than this makes :attr:`Comparison.regressed` true: a
            fraction below 1 (0.05) or a percentage text (``"5%"``); at least the noise
            threshold. None: never.
        noise: a change within this is SAME, significant or not: a fraction (0.01) or a
            percentage text (``"1%"``). None: the default, 1 %.
        alpha: family-wise significance level of the rows' two-sided tests (Holm).
        higher_is_better, lower_is_better: metrics (derived ones, say) declared to improve
            upwards / downwards; they override the rules by name and unit.
        annotations, metrics: only the rows of these annotations / metrics (``*`` matches any
            characters); configs: only the configs with these values (``"n=1024"`` each; the
            values of one parameter are alternatives).

    Raises:
        ValueError (:class:`kscope.exceptions.InvalidArgumentError`): a bad threshold, noise or
            alpha, a metric declared both ways, a declared metric or a filter that matches
            nothing in either result, a file and a directory, or a directory with two results
            of one session.
        TypeError: ``base`` or ``new`` is neither results nor a path.
    """
    options = fraction_options(threshold, noise)
    options.alpha = float(alpha)
    for name, value in (("higher_is_better", higher_is_better),
                        ("lower_is_better", lower_is_better), ("annotations", annotations),
                        ("metrics", metrics), ("configs", configs)):  # fmt: skip
        if isinstance(value, str):
            raise TypeError(f"compare(): {name} takes a list of names, got the string {value!r}")
        setattr(options, name, list(value))
    options.validate()
    paths = [os.fspath(v) if isinstance(v, (str, os.PathLike)) else None for v in (base, new)]
    if any(p is not None and os.path.isdir(p) for p in paths):
        a_name, b_name = paths
        if a_name is None or b_name is None:
            raise TypeError("compare() of a directory takes a second path, not results")
        engine = native.compare_directories(a_name, b_name, options)
    else:
        a, a_name = _results(base)
        b, b_name = _results(new)
        engine = native.compare(a, b, options)
    engine.base_name = a_name
    engine.new_name = b_name
    return Comparison(engine)


__all__ = ["Comparison", "VERDICT_COLORS", "compare", "fraction_options"]
