"""``python3 -m kscope``: command-line tools of the Python package.

    python3 -m kscope plot results.json -o results.png [--metric M] [--bar] ...

``plot`` draws a saved result as ``@kscope.analyze.plot`` would: a JSON file written by a
C++ program (``Results::write_json``) or by ``ProfileResults.to_json``, a session journal
(``.jsonl``), or a processed CSV (``processed_data-<name>-<id>.csv``). See docs/plots.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from .exceptions import ProfilerException


def _names(text: str) -> list[str]:
    """A comma-separated list of names."""
    return [name.strip() for name in text.split(",") if name.strip()]


def _add_plot_parser(commands: Any) -> None:
    p = commands.add_parser(
        "plot",
        help="plot a saved result (JSON, journal or processed CSV) to an image",
        description="Plots one metric of a saved kscope result, like @kscope.analyze.plot. "
        "List options take comma-separated names and may be repeated. docs/plots.md "
        "describes every option.",
        epilog="Example: python3 -m kscope plot sweep.json -o sweep.png --metric "
        "gpu__time_duration.sum --row-panels dtype --show-aggregate geomean",
    )
    p.add_argument("input", help="result file: .json (C++ write_json or Python to_json), "
                   ".jsonl (session journal) or .csv (processed table)")  # fmt: skip
    p.add_argument("-o", "--output", help="image to write (format by suffix); "
                   "default: the input's name with .png")  # fmt: skip
    p.add_argument("--metric", help="metric to plot (default: the only metric of the result)")
    p.add_argument("--bar", action="store_true", help="grouped bars instead of lines")
    p.add_argument("--title", help="first title line (default: the session name); "
                   "the GPU and host follow")  # fmt: skip
    p.add_argument("--ylabel", help="y-axis label (default: the metric, with 'relative to "
                   "<baseline>' when normalised); ' (avg: N runs)' is appended")  # fmt: skip
    p.add_argument("--annotate-points", action="store_true",
                   help="write each value above its point")  # fmt: skip
    p.add_argument("--show-aggregate", choices=("avg", "geomean"),
                   help="add a group of bars with each series' mean or geometric mean")  # fmt: skip
    p.add_argument("--width", type=float, default=6.0, help="panel width in inches (default 6)")
    p.add_argument("--height", type=float, default=4.0, help="panel height in inches (default 4)")
    for flag, what in (
        ("--row-panels", "parameters whose values make one row of panels each"),
        ("--col-panels", "parameters whose values make one column of panels each"),
        ("--x-keys", "parameters that label the x axis (default: all not used elsewhere)"),
        ("--variant-fields", "parameters that split annotations into one series per value"),
        ("--variant-annotations", "annotations split by --variant-fields (default: all)"),
    ):
        p.add_argument(flag, type=_names, action="extend", metavar="NAMES", help=what)
    p.add_argument("--print-data", action="store_true", help="print the plotted values")
    p.add_argument("--error-bars", action=argparse.BooleanOptionalAction, default=None,
                   help="CI95 error bars where a point has several runs "
                   "(default: on for lines, off for bars)")  # fmt: skip
    p.add_argument("--log-y", action=argparse.BooleanOptionalAction, default=None,
                   help="log-scale y axis (default: when the values span more than three "
                   "decades)")  # fmt: skip
    p.set_defaults(run=_plot)


def _plot(args: argparse.Namespace) -> int:
    from . import plot as _plot_module
    from .results import load

    output = args.output or os.path.splitext(args.input)[0] + ".png"
    options = {
        "title": args.title, "ylabel": args.ylabel, "annotate_points": args.annotate_points,
        "show_aggregate": args.show_aggregate, "plot_type": "bar" if args.bar else "line",
        "plot_width": args.width, "plot_height": args.height, "row_panels": args.row_panels,
        "col_panels": args.col_panels, "x_keys": args.x_keys, "print_data": args.print_data,
        "variant_fields": args.variant_fields, "variant_annotations": args.variant_annotations,
        "error_bars": args.error_bars, "log_y": args.log_y,
    }  # fmt: skip
    if args.input.endswith(".csv"):
        _plot_module.plot_dataframe(args.input, output, args.metric, **options)
    else:
        load(args.input).plot(output, args.metric, **options)
    print(f"kscope: wrote {output}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs ``python3 -m kscope`` with ``argv`` (default: the process arguments); returns
    the exit status (0 done, 1 failed, 2 usage)."""
    parser = argparse.ArgumentParser(
        prog="python3 -m kscope",
        description="Command-line tools of kscope's Python package.",
        epilog="Example: python3 -m kscope plot out/demo/vadd.json -o vadd.png --bar",
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_plot_parser(commands)
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except (ProfilerException, ValueError, TypeError, OSError, ImportError) as error:
        print(f"kscope: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
