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


def test_cli_errors_exit_1_with_the_message(tmp_path):
    done = run_cli("plot", golden_path("vadd_sweep.json"), "-o", str(tmp_path / "x.png"))
    assert done.returncode == 1
    assert done.stderr.startswith("kscope: error: Cannot visualize multiple metrics (2 > 1)")
    assert not (tmp_path / "x.png").exists()


def test_cli_usage_errors_exit_2():
    assert run_cli().returncode == 2
    done = run_cli("plot", "x.json", "--show-aggregate", "max")
    assert done.returncode == 2 and "invalid choice: 'max'" in done.stderr


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
    assert cli.main(["plot", "/nonexistent/x.json"]) == 1
    assert "kscope: error: " in capsys.readouterr().err
