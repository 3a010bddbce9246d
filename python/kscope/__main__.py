"""The ``kscope`` command (``python3 -m kscope`` is the same command).

    kscope plot results.json -o results.png [--metric M] [--bar] ...
    kscope show results.json
    kscope query-metrics --chip GH100
    kscope check-metrics --chip GH100 gpu__time_duration.sum
    kscope import-ncu report.csv -o results.json

``plot`` is implemented here: it draws a saved result as ``@kscope.analyze.plot`` would (a JSON
file written by a C++ program or by ``ProfileResults.to_json``, a session journal ``.jsonl``, or
a processed CSV); see docs/plots.md. The other subcommands belong to the engine's command-line
tool, which the package carries (``kscope/_bin/kscope``, see :mod:`kscope._engine_cli`); they are
handed to it unchanged with its exit status. docs/cli.md describes every subcommand.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from . import _engine_cli
from .exceptions import ProfilerException

EXIT_CODES = """exit status:
  0  success
  1  the command failed: the reason is printed on stderr as "kscope: ..." (for example
     "kscope: no CUDA device: ..." or an unreadable input file)
  2  usage error: unknown command or option, missing or invalid argument"""


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
        epilog="Example: kscope plot sweep.json -o sweep.png --metric "
        "gpu__time_duration.sum --row-panels dtype --show-aggregate geomean\n\n" + EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    from . import visualization as _plot_module
    from .collection.core import load

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


def _add_engine_parsers(commands: Any) -> None:
    """Lists the engine's subcommands in ``kscope --help``; their arguments are the engine
    tool's own (``kscope COMMAND --help``), so they are never parsed here."""
    for name, summary in _engine_cli.COMMANDS.items():
        commands.add_parser(name, help=summary, add_help=False)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kscope",
        description="kscope: benchmark GPU kernels and collect their profiling metrics.\n"
        "`python3 -m kscope` is the same command; `kscope COMMAND --help` describes a command.",
        epilog="Example: kscope plot out/demo/vadd.json -o vadd.png --bar\n\n" + EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_engine_parsers(commands)
    _add_plot_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``kscope`` command with ``argv`` (default: the process arguments) and returns
    its exit status: 0 done, 1 failed, 2 usage error (argparse's usage errors raise
    ``SystemExit(2)``). The engine's subcommands return the engine tool's status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] in _engine_cli.COMMANDS:
        try:
            return _engine_cli.run(args_list)
        except _engine_cli.EngineToolMissing as error:
            print(f"kscope: error: {error}", file=sys.stderr)
            return 1
    parser = _parser()
    args = parser.parse_args(args_list)
    if args.version:
        from . import __version__

        print(f"kscope {__version__}")
        return 0
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
