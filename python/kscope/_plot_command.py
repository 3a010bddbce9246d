"""``kscope plot``: draws a saved result as ``@kscope.analyze.plot`` would (a JSON file written by
a C++ program or by ``ProfileResults.to_json``, a session journal ``.jsonl``, or a processed
CSV); docs/plots.md describes the options. The launcher (:mod:`kscope_launcher`) runs it; its
help and its messages look like the engine's subcommands' (CLI11's layout, docs/cli.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from kscope_launcher.colour import BOLD, tinted
from kscope_launcher.exit_status import EXIT_ERROR, EXIT_SUCCESS, EXIT_USAGE
from kscope_launcher.messages import print_error, print_usage_error

from .exceptions import ProfilerException

COMMAND = "plot"


class _Cli11Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help in the layout of CLI11's (the engine's subcommands): ``-o,--output
    TEXT``, help from column 30, ``Usage:``, ``Positionals:`` and ``Options:``."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30, width=100)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings:  # the one positional: the input file
            return f"{action.dest} TEXT:FILE REQUIRED"
        names = ",".join(action.option_strings)
        return names if action.nargs == 0 else f"{names} {action.metavar}"


class _Parser(argparse.ArgumentParser):
    """The plot command's parser: CLI11's order (description, usage, groups, footer) and the
    command's usage errors (exit 2)."""

    def format_help(self) -> str:
        formatter = self._get_formatter()
        formatter.add_text(self.description)
        formatter.add_usage(self.usage, self._actions, [], prefix="Usage: ")
        for group in self._action_groups:
            formatter.start_section(group.title)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        formatter.add_text(self.epilog)
        return formatter.format_help()

    def error(self, message: str) -> NoReturn:
        print_usage_error(message, COMMAND)
        raise SystemExit(EXIT_USAGE)


def _names(text: str) -> list[str]:
    """A comma-separated list of names."""
    return [name.strip() for name in text.split(",") if name.strip()]


def _existing_file(path: str) -> str:
    """``path`` if it is a file; the usage error says what it is otherwise (as CLI11's
    ExistingFile check of the engine's subcommands)."""
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"File is actually a directory: {path}")
    if not os.path.isfile(path):
        raise argparse.ArgumentTypeError(f"File does not exist: {path}")
    return path


def _inches(text: str) -> float:
    """A positive number of inches."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of inches, got '{text}'")
    return value


def parser() -> argparse.ArgumentParser:
    """The plot command's argument parser."""
    p = _Parser(
        prog=f"kscope {COMMAND}",
        usage=f"kscope {COMMAND} [OPTIONS] input",
        description="Plot one metric of a saved kscope result, like @kscope.analyze.plot. List "
        "options take comma-separated names and may be repeated.",
        epilog="Example:\n  kscope plot sweep.json -o sweep.png --metric gpu__time_duration.sum "
        "--row-panels dtype --show-aggregate geomean\ndocs/plots.md describes every option.",
        formatter_class=_Cli11Formatter,
        add_help=False,
    )
    positionals = p.add_argument_group("Positionals")
    positionals.add_argument("input", type=_existing_file,
                             help="result .json (C++ write_json or Python to_json), .jsonl "
                             "(session journal) or .csv (processed table)")  # fmt: skip
    o = p.add_argument_group("Options")
    o.add_argument("-h", "--help", action="help", help="Print this help message and exit")
    o.add_argument("-o", "--output", metavar="TEXT", help="image to write (format by suffix); "
                   "default: the input's name with .png")  # fmt: skip
    o.add_argument("--metric", metavar="TEXT", help="metric to plot (default: the first of the "
                   "result's metrics, named on the output)")  # fmt: skip
    o.add_argument("--bar", action="store_true", help="grouped bars instead of lines")
    o.add_argument("--title", metavar="TEXT", help="first title line (default: the session "
                   "name); the GPU and host follow")  # fmt: skip
    o.add_argument("--ylabel", metavar="TEXT", help="y-axis label (default: the metric and its "
                   "unit, or 'relative to <baseline>' when normalised); ' (avg: N runs)' is "
                   "appended")  # fmt: skip
    o.add_argument("--annotate-points", action="store_true",
                   help="write each value above its point")  # fmt: skip
    o.add_argument("--show-aggregate", choices=("avg", "geomean"), metavar="TEXT:{avg,geomean}",
                   help="add a group of bars with each series' mean or geometric mean")  # fmt: skip
    o.add_argument("--width", type=_inches, default=6.0, metavar="FLOAT",
                   help="panel width in inches (default 6)")  # fmt: skip
    o.add_argument("--height", type=_inches, default=4.0, metavar="FLOAT",
                   help="panel height in inches (default 4)")  # fmt: skip
    for flag, what in (
        ("--row-panels", "parameters whose values make one row of panels each"),
        ("--col-panels", "parameters whose values make one column of panels each"),
        ("--x-keys", "parameters that label the x axis (default: all not used elsewhere)"),
        ("--variant-fields", "parameters that split annotations into one series per value"),
        ("--variant-annotations", "annotations split by --variant-fields (default: all)"),
    ):
        o.add_argument(flag, type=_names, action="extend", metavar="NAMES", help=what)
    o.add_argument("--print-data", action="store_true", help="print the plotted values")
    o.add_argument("--error-bars", action=argparse.BooleanOptionalAction, default=None,
                   help="CI95 error bars where a point has several runs "
                   "(default: on for lines, off for bars)")  # fmt: skip
    o.add_argument("--log-y", action=argparse.BooleanOptionalAction, default=None,
                   help="log-scale y axis (default: when the values span more than three "
                   "decades)")  # fmt: skip
    return p


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword options of ``kscope.analyze.plot`` the arguments give."""
    return {
        "title": args.title, "ylabel": args.ylabel, "annotate_points": args.annotate_points,
        "show_aggregate": args.show_aggregate, "plot_type": "bar" if args.bar else "line",
        "plot_width": args.width, "plot_height": args.height, "row_panels": args.row_panels,
        "col_panels": args.col_panels, "x_keys": args.x_keys, "print_data": args.print_data,
        "variant_fields": args.variant_fields, "variant_annotations": args.variant_annotations,
        "error_bars": args.error_bars, "log_y": args.log_y,
    }  # fmt: skip


def _chosen_metric(metrics: Sequence[str]) -> str | None:
    """The first of ``metrics``, named on stdout with the others when there are several; None
    when there is none (the plot then says that the result has no metric)."""
    if len(metrics) > 1:
        print(f"kscope: the result has {len(metrics)} metrics ({', '.join(metrics)}): plotting "
              f"the first, {tinted(metrics[0], BOLD, sys.stdout)}; --metric picks another")
    return metrics[0] if metrics else None


def _plot(args: argparse.Namespace, options: dict[str, Any]) -> None:
    from . import visualization
    from .collection.core import load

    output = args.output or os.path.splitext(args.input)[0] + ".png"
    draw: Callable[[str | None], Any]
    if args.input.endswith(".csv"):
        frame = visualization.read_processed_csv(args.input)
        draw = lambda metric: visualization.plot_dataframe(frame, output, metric, **options)  # noqa: E731
    else:
        results = load(args.input)
        frame = results.to_dataframe()
        draw = lambda metric: results.plot(output, metric, **options)  # noqa: E731
    metrics = [str(m) for m in dict.fromkeys(frame["Metric"])]  # in the table's order
    draw(args.metric if args.metric is not None else _chosen_metric(metrics))
    print(f"kscope: wrote {output}")


def run(argv: Sequence[str]) -> int:
    """Runs ``kscope plot`` with ``argv`` (the arguments after ``plot``) and returns its exit
    status: 0 drawn, 1 failed (``kscope: error: ...``), 2 usage error (argument values the plot
    options reject included)."""
    from .visualization import PlotOptions

    p = parser()
    try:
        args = p.parse_args(list(argv))
        options = _options(args)
        try:
            PlotOptions(**options)  # the options' own checks, before any file is read
        except (ValueError, TypeError) as error:
            p.error(str(error))
    except SystemExit as done:  # --help, or a usage error: printed already
        return EXIT_SUCCESS if done.code in (None, EXIT_SUCCESS) else EXIT_USAGE
    try:
        _plot(args, options)
    except (ProfilerException, ValueError, TypeError, OSError, ImportError) as error:
        print_error(str(error))
        return EXIT_ERROR
    return EXIT_SUCCESS


__all__ = ["COMMAND", "parser", "run"]
