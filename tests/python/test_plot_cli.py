"""``python3 -m kscope plot``: PNGs from saved results (subprocesses for the real command line,
``main()`` in-process for the option mapping)."""

from __future__ import annotations

import os
import shutil

import pytest
from plot_helpers import (
    PNG_MAGIC,
    TIME,
    golden,
    golden_path,
    legend_labels,
    run_cli,
    suptitle,
)

import kscope
from kscope import __main__ as cli
from kscope import visualization
from kscope.visualization import PlotOptions


def test_cli_writes_a_png_from_cpp_json(tmp_path):
    out = tmp_path / "sweep.png"
    done = run_cli("plot", golden_path("vadd_sweep.json"), "-o", str(out), "--metric", TIME,
                   "--bar", "--title", "Vector add", "--col-panels", "dtype")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"kscope: wrote {out}\n"
    assert out.read_bytes()[:8] == PNG_MAGIC


def test_cli_default_output_next_to_the_input(tmp_path):
    shutil.copy(golden_path("triton_normalized.json"), tmp_path / "t.json")
    done = run_cli("plot", "t.json", cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "t.png").read_bytes()[:8] == PNG_MAGIC


def test_several_metrics_plot_the_first_and_name_the_others(tmp_path, monkeypatch, capsys):
    seen = {}
    monkeypatch.setattr(kscope.ProfileResults, "plot",
                        lambda self, filename, metric=None, **o: seen.update(metric=metric))  # fmt: skip
    assert cli.main(["plot", golden_path("vadd_sweep.json"), "-o", str(tmp_path / "x.png")]) == 0
    assert seen["metric"] == TIME
    assert capsys.readouterr().out.splitlines()[0] == (
        "kscope: the result has 2 metrics (gpu__time_duration.sum, dram__bytes.sum): plotting "
        "the first, gpu__time_duration.sum; --metric picks another")


def test_a_processed_csv_with_several_metrics_plots_the_first_too(tmp_path, capsys):
    _, processed = golden("vadd_sweep.json").engine_results.write_csv(str(tmp_path / "v_"))
    assert cli.main(["plot", processed, "-o", str(tmp_path / "v.png")]) == 0
    assert "plotting the first, gpu__time_duration.sum" in capsys.readouterr().out
    assert (tmp_path / "v.png").read_bytes()[:8] == PNG_MAGIC


def test_cli_errors_exit_1_with_the_message(tmp_path):
    done = run_cli("plot", golden_path("vadd_sweep.json"), "-o", str(tmp_path / "x.png"),
                   "--metric", "bandwidth")  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == (
        "kscope: error: Metric 'bandwidth' not found in the profile results. Please check the "
        "metric name and try again. The metrics found are: ['gpu__time_duration.sum', "
        "'dram__bytes.sum'].\n")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--show-aggregate", "max"],
         "argument --show-aggregate: invalid choice: 'max' (choose from 'avg', 'geomean')"),
        (["--width", "0"], "argument --width: expected a positive number of inches, got '0'"),
        (["--height", "tall"], "argument --height: expected a positive number of inches, got 'tall'"),
        (["--variant-annotations", "vadd"],
         "variant_annotations needs variant_fields: the parameters whose values split those "
         "annotations into one line each"),
        (["--frob"], "unrecognized arguments: --frob"),
    ],
)  # fmt: skip
def test_cli_usage_errors_exit_2_naming_the_value(args, message, tmp_path):
    done = run_cli("plot", golden_path("vadd_sweep.json"), "-o", str(tmp_path / "x.png"), *args)
    assert done.returncode == 2
    assert done.stderr == f"kscope: error: {message}\nRun 'kscope plot --help' for usage.\n"
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    ("path", "what"), [("/nonexistent.json", "File does not exist"),
                       ("/", "File is actually a directory")])  # fmt: skip
def test_a_path_that_is_not_a_file_is_a_usage_error(path, what):
    done = run_cli("plot", path)
    assert done.returncode == 2
    assert done.stderr == (f"kscope: error: argument input: {what}: {path}\n"
                           "Run 'kscope plot --help' for usage.\n")  # fmt: skip


def test_help_exits_0_in_the_engines_layout():
    done = run_cli("plot", "--help")
    assert done.returncode == 0
    assert "\nUsage: kscope plot [OPTIONS] input\n" in done.stdout
    assert "\nPositionals:\n  input TEXT:FILE REQUIRED    " in done.stdout
    assert "\nOptions:\n  -h,--help                   Print this help message and exit\n" in done.stdout
    assert "\n  -o,--output TEXT            image to write" in done.stdout


def test_help_documents_every_option():
    text = run_cli("plot", "--help").stdout
    flags = {"plot_type": "--bar", "plot_width": "--width", "plot_height": "--height",
             "error_bars": "--[no-]error-bars", "log_y": "--[no-]log-y"}  # fmt: skip
    for name in PlotOptions.names():
        if name == "plot_callback":  # a Python function: not on the command line
            continue
        flag = flags.get(name, "--" + name.replace("_", "-"))
        for variant in (flag.replace("[no-]", ""), flag.replace("[no-]", "no-")):
            assert variant in text, variant
    for word in ("--metric", "--output", ".jsonl", ".csv"):
        assert word in text


def test_options_reach_the_plot(monkeypatch, tmp_path):
    seen = {}

    def fake_plot(self, filename, metric=None, **options):
        seen.update(filename=filename, metric=metric, options=options)

    monkeypatch.setattr(kscope.ProfileResults, "plot", fake_plot)
    status = cli.main(["plot", golden_path("vadd_sweep.json"), "-o", "o.svg", "--metric", TIME,
                       "--bar", "--title", "T", "--ylabel", "Y", "--annotate-points",
                       "--show-aggregate", "geomean", "--width", "5", "--height", "3.5",
                       "--row-panels", "dtype", "--x-keys", "n", "--variant-fields", "a,b",
                       "--variant-fields", "c", "--variant-annotations", "vadd",
                       "--print-data", "--no-error-bars", "--log-y"])  # fmt: skip
    assert status == 0
    assert (seen["filename"], seen["metric"]) == ("o.svg", TIME)
    assert seen["options"] == {
        "title": "T", "ylabel": "Y", "annotate_points": True, "show_aggregate": "geomean",
        "plot_type": "bar", "plot_width": 5.0, "plot_height": 3.5, "row_panels": ["dtype"],
        "col_panels": None, "x_keys": ["n"], "print_data": True,
        "variant_fields": ["a", "b", "c"], "variant_annotations": ["vadd"], "error_bars": False,
        "log_y": True,
    }  # fmt: skip


def test_cli_defaults_are_the_decorator_defaults(monkeypatch):
    seen = {}
    monkeypatch.setattr(kscope.ProfileResults, "plot",
                        lambda self, filename, metric=None, **o: seen.update(o))  # fmt: skip
    cli.main(["plot", golden_path("triton_normalized.json")])
    assert PlotOptions(**seen) == PlotOptions()


def test_cli_reads_a_processed_csv(tmp_path, capsys, monkeypatch):
    _, processed = golden("vadd_sweep.json").engine_results.write_csv(str(tmp_path / "v_"))
    figures = []
    original = visualization.plot_dataframe

    def spy(frame, filename, metric, **options):
        return original(frame, filename, metric, plot_callback=figures.append, **options)

    monkeypatch.setattr(visualization, "plot_dataframe", spy)
    assert cli.main(["plot", processed, "--metric", TIME, "--col-panels", "dtype"]) == 0
    assert os.path.exists(os.path.splitext(processed)[0] + ".png")
    assert len(figures[0].axes) == 2 and legend_labels(figures[0].axes[0]) == ["vadd", "vadd_vec4"]
    assert suptitle(figures[0]).startswith("kscope results\n")
    assert "kscope: wrote" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["python/journal_unfinished.jsonl", "python/python_objects.json"])
def test_cli_on_journals_and_python_results(tmp_path, name):
    out = tmp_path / "j.png"
    assert cli.main(["plot", golden_path(name), "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == PNG_MAGIC


def test_cli_missing_file(capsys):
    assert cli.main(["plot", "/nonexistent/x.json"]) == 2
    assert capsys.readouterr().err.startswith("kscope: error: argument input: File does not exist")
