"""Plots from saved results (golden files in the C++ engine's JSON format): what the Figure
shows — axes, lines, bars, labels, titles, panels, variants, aggregates, error bars, log
scale, colours — read from the returned matplotlib Figure, not from pixels."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from plot_helpers import (
    PNG_MAGIC,
    TIME,
    aggregate_bars,
    bar_groups,
    error_bars,
    golden,
    legend_labels,
    series_lines,
    suptitle,
    tick_labels,
    value_texts,
)

from kscope import visualization

DRAM = "dram__bytes.sum"
SIZES = [1 << k for k in range(12, 26, 2)]


@pytest.fixture
def sweep():
    return golden("vadd_sweep.json")


def draw(results, metric=TIME, **options):
    return results.plot(None, metric, **options)


# --- one panel, line plot ------------------------------------------------------------------


def test_line_plot_axes_lines_labels_title(sweep):
    fig = draw(sweep)
    assert len(fig.axes) == 1
    ax = fig.axes[0]
    assert [line.get_label() for line in series_lines(ax)] == ["vadd", "vadd_vec4"]
    assert all(line.get_marker() == "o" for line in series_lines(ax))
    assert legend_labels(ax) == ["vadd", "vadd_vec4"]
    assert ax.get_legend().get_title().get_text() == "Annotation"
    assert tick_labels(ax)[:3] == ["n=4096, dtype=float32", "n=4096, dtype=float16",
                                   "n=16384, dtype=float32"]  # fmt: skip
    assert len(tick_labels(ax)) == 14
    assert ax.get_ylabel() == f"{TIME} (ns) (avg: 3 runs)"
    assert suptitle(fig) == "vadd_sweep\nNVIDIA H200, gpu-node-1"
    assert tuple(fig.get_size_inches()) == (8.0, 6.0)


def test_line_values_are_avgvalue_in_config_order(sweep):
    df = sweep.to_dataframe()
    expected = df[(df.Annotation == "vadd_vec4") & (df.Metric == TIME)]["AvgValue"].tolist()
    line = series_lines(draw(sweep).axes[0])[1]
    assert list(line.get_xdata()) == list(range(14))
    assert list(line.get_ydata()) == pytest.approx(expected)


def test_title_and_ylabel_options(sweep):
    fig = draw(sweep, title="Vector add", ylabel="time (ns)")
    assert suptitle(fig) == "Vector add\nNVIDIA H200, gpu-node-1"
    assert fig.axes[0].get_ylabel() == "time (ns) (avg: 3 runs)"


def test_linear_scale_from_zero_with_headroom(sweep):
    df = sweep.to_dataframe()
    ax = draw(sweep).axes[0]
    assert ax.get_yscale() == "linear"
    top = df[df.Metric == TIME]["CI95_Upper"].max()
    assert ax.get_ylim() == pytest.approx((0.0, 1.1 * top))


# --- error bars ------------------------------------------------------------------------------


def test_line_plot_has_ci95_error_bars(sweep):
    df = sweep.to_dataframe()
    rows = df[(df.Annotation == "vadd") & (df.Metric == TIME)]
    bars = error_bars(draw(sweep).axes[0])
    assert set(bars) == {"vadd", "vadd_vec4"}
    segments = bars["vadd"].lines[2][0].get_segments()
    assert len(segments) == 14
    low, high = segments[0][:, 1]
    assert (low, high) == pytest.approx((rows["CI95_Lower"].iloc[0], rows["CI95_Upper"].iloc[0]))


def test_error_bars_off(sweep):
    assert error_bars(draw(sweep, error_bars=False).axes[0]) == {}


def test_bar_plot_error_bars_only_when_asked(sweep):
    assert error_bars(draw(sweep, plot_type="bar").axes[0]) == {}
    assert set(error_bars(draw(sweep, plot_type="bar", error_bars=True).axes[0])) == {
        "vadd", "vadd_vec4"}  # fmt: skip


def test_no_error_bars_with_one_run():
    fig = golden("python/python_objects.json").plot(None)  # runs = 1
    assert error_bars(fig.axes[0]) == {}


def test_normalised_error_bars_are_scaled_like_avgvalue():
    results = golden("triton_normalized.json")
    df = results.to_dataframe()
    row = df[(df.Annotation == "triton")].iloc[0]
    segments = error_bars(draw(results).axes[0])["triton"].lines[2][0].get_segments()
    low, high = segments[0][:, 1]
    scale = row["NormalizationValue"]
    assert low == pytest.approx(row["CI95_Lower"] / scale)
    assert high == pytest.approx(row["CI95_Upper"] / scale)
    assert low < row["AvgValue"] < high


# --- normalisation, run counts ---------------------------------------------------------------


def test_normalised_ylabel_says_relative_to_baseline():
    ax = draw(golden("triton_normalized.json")).axes[0]
    assert ax.get_ylabel() == f"{TIME} relative to torch (avg: 5 runs)"
    assert list(series_lines(ax)[0].get_ydata()) == [1.0] * 6


def test_user_ylabel_replaces_relative_to_but_keeps_runs():
    ax = draw(golden("triton_normalized.json"), ylabel="speed-up").axes[0]
    assert ax.get_ylabel() == "speed-up (avg: 5 runs)"


@pytest.mark.parametrize(
    ("name", "label"),
    [("vadd_sweep.json", f"{TIME} (ns) (avg: 3 runs)"),
     ("vadd_sweep.json", f"{DRAM} (byte) (avg: 3 runs)"),
     ("triton_normalized.json", f"{TIME} relative to torch (avg: 5 runs)")],
)  # fmt: skip
def test_the_png_and_the_html_reports_plot_have_the_same_y_label(name, label):
    results = golden(name)
    metric = label.split(" ")[0]
    assert draw(results, metric).axes[0].get_ylabel() == label
    assert f'rotate(-90)" text-anchor="middle">{label}</text>' in results.render("html")


def test_runs_suffix_is_the_largest_run_count():
    # vadd lost one run of one config: NumRuns 2 there, 3 elsewhere
    df = golden("vadd_sweep.json").to_dataframe()
    assert sorted(df["NumRuns"].unique()) == [2, 3]
    assert draw(golden("vadd_sweep.json")).axes[0].get_ylabel().endswith("(avg: 3 runs)")


# --- bars ----------------------------------------------------------------------------------


def test_bar_plot_groups_one_container_per_annotation(sweep):
    ax = draw(sweep, plot_type="bar").axes[0]
    groups = bar_groups(ax)
    assert list(groups) == ["vadd", "vadd_vec4"]
    assert all(len(h) == 14 for h in groups.values())
    assert series_lines(ax) == []
    first = next(c for c in ax.containers if c.get_label() == "vadd")
    widths = {round(p.get_width(), 6) for p in first.patches}
    assert widths == {0.4}
    assert first.patches[0].get_x() + 0.2 == pytest.approx(-0.2)  # centred left of tick 0


# --- panels ----------------------------------------------------------------------------------


def test_col_panels(sweep):
    fig = draw(sweep, col_panels=["dtype"])
    assert len(fig.axes) == 2
    left, right = fig.axes
    assert (left.get_title(), right.get_title()) == ("dtype=float32", "dtype=float16")
    assert tick_labels(left) == [f"n={n}" for n in SIZES]
    assert left.get_ylabel() == f"{TIME} (ns) (avg: 3 runs)" and right.get_ylabel() == ""
    assert left.get_ylim() == right.get_ylim()
    assert tuple(fig.get_size_inches()) == (12.0, 6.0)


def test_row_panels_hide_upper_tick_labels(sweep):
    fig = draw(sweep, row_panels=["dtype"], plot_height=5)
    top, bottom = fig.axes
    assert top.get_title() == "dtype=float32"
    assert not top.xaxis.get_major_ticks()[0].label1.get_visible()
    assert bottom.xaxis.get_major_ticks()[0].label1.get_visible()
    assert top.get_ylabel() == bottom.get_ylabel() == f"{TIME} (ns) (avg: 3 runs)"
    assert tuple(fig.get_size_inches()) == (8.0, 10.0)


def test_row_and_col_panels_grid(sweep):
    fig = draw(sweep, row_panels="dtype", col_panels=["n"], plot_width=2, plot_height=3)
    assert len(fig.axes) == 2 * 7
    assert fig.axes[0].get_title() == "dtype=float32\nn=4096"
    assert fig.axes[7].get_title() == "dtype=float16\nn=4096"
    assert tick_labels(fig.axes[13]) == [""]  # no parameter left for the x axis
    assert tuple(fig.get_size_inches()) == (14.0, 6.0)


def test_x_keys_choose_the_axis_labels(sweep):
    ax = draw(sweep, x_keys=["dtype"]).axes[0]
    assert tick_labels(ax) == ["dtype=float32", "dtype=float16"]
    # several configs share a tick: each series has all 14 points
    assert len(series_lines(ax)[0].get_xdata()) == 14


# --- variants --------------------------------------------------------------------------------


def test_variant_fields_split_the_listed_annotations(sweep):
    ax = draw(sweep, variant_fields=["dtype"], variant_annotations=["vadd"]).axes[0]
    assert legend_labels(ax) == ["vadd dtype=float32", "vadd dtype=float16", "vadd_vec4"]
    assert tick_labels(ax) == [f"n={n}" for n in SIZES]
    assert [len(line.get_xdata()) for line in series_lines(ax)] == [7, 7, 14]


def test_variant_fields_without_annotations_split_all(sweep):
    ax = draw(sweep, variant_fields="dtype").axes[0]
    assert legend_labels(ax) == ["vadd dtype=float32", "vadd dtype=float16",
                                 "vadd_vec4 dtype=float32", "vadd_vec4 dtype=float16"]  # fmt: skip


def test_variants_of_the_triton_example():
    ax = draw(golden("triton_normalized.json"), variant_fields=["block_size"],
              variant_annotations=["triton"]).axes[0]  # fmt: skip
    assert legend_labels(ax) == ["torch", "triton block_size=256", "triton block_size=1024"]
    assert tick_labels(ax) == ["n=1048576", "n=4194304", "n=16777216"]
    ys = {line.get_label(): list(line.get_ydata()) for line in series_lines(ax)}
    assert ys["triton block_size=1024"] == pytest.approx([0.85] * 3, abs=1e-3)


# --- aggregates ----------------------------------------------------------------------------


def test_show_aggregate_avg(sweep):
    df = sweep.to_dataframe()
    fig = draw(sweep, col_panels=["dtype"], show_aggregate="avg")
    left = fig.axes[0]
    assert tick_labels(left)[-1] == "Avg" and len(tick_labels(left)) == 8
    rows = df[(df.Metric == TIME) & (df.dtype == "float32")]
    expected = [rows[rows.Annotation == a]["AvgValue"].mean() for a in ("vadd", "vadd_vec4")]
    assert aggregate_bars(left, "Avg") == pytest.approx(expected)
    separators = [line for line in left.get_lines() if line.get_linestyle() == "--"]
    assert [line.get_xdata()[0] for line in separators] == [6.5]
    assert [t for t in value_texts(left)] == [f"{v:.0f}" for v in expected]


def test_show_aggregate_geomean_matches_the_engine(sweep):
    df = sweep.to_dataframe()
    ax = draw(sweep, show_aggregate="geomean").axes[0]
    assert tick_labels(ax)[-1] == "Geomean"
    expected = [df[(df.Metric == TIME) & (df.Annotation == a)]["Geomean"].iloc[0]
                for a in ("vadd", "vadd_vec4")]  # fmt: skip
    assert aggregate_bars(ax, "Geomean") == pytest.approx(expected)
    assert aggregate_bars(ax, "Avg") == []


def test_no_aggregate_by_default(sweep):
    ax = draw(sweep).axes[0]
    assert "Avg" not in tick_labels(ax) and "Geomean" not in tick_labels(ax)
    assert value_texts(ax) == []


# --- value labels --------------------------------------------------------------------------


def test_annotate_points_writes_each_value(sweep):
    ax = draw(sweep, annotate_points=True).axes[0]
    texts = value_texts(ax)
    assert len(texts) == 28
    assert texts[0] == "2512"  # 2512.27 ns: whole numbers from 100 on


def test_value_label_formats():
    assert [visualization.value_label(v) for v in (0.0, 0.85, 1.0, 99.5, 2512.27, 2.0e8, 1e-4)] == [
        "0.00", "0.85", "1.00", "99.50", "2512", "2e+08", "0.0001"]  # fmt: skip


def test_labels_fit_inside_the_axes(sweep):
    fig = draw(sweep, metric=DRAM, plot_type="bar", annotate_points=True,
               show_aggregate="geomean")  # fmt: skip
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    box = ax.get_window_extent(renderer)
    assert all(t.get_window_extent(renderer).y1 <= box.y1 + 0.5 for t in ax.texts)


# --- y scale ---------------------------------------------------------------------------------


def test_log_scale_when_values_span_more_than_three_decades(sweep):
    df = sweep.to_dataframe()
    values = df[df.Metric == DRAM]["AvgValue"]
    assert values.max() / values.min() > 1e3
    assert draw(sweep, metric=DRAM).axes[0].get_yscale() == "log"
    assert draw(sweep, metric=TIME).axes[0].get_yscale() == "linear"


def test_log_y_forced_either_way(sweep):
    assert draw(sweep, metric=DRAM, log_y=False).axes[0].get_yscale() == "linear"
    ax = draw(sweep, metric=TIME, log_y=True, col_panels=["dtype"]).axes[1]
    assert ax.get_yscale() == "log"
    low, high = ax.get_ylim()
    assert 0 < low < 2198 and high > 52479


def test_no_automatic_log_scale_for_normalised_values():
    assert draw(golden("triton_normalized.json")).axes[0].get_yscale() == "linear"


# --- colours: no silent limit --------------------------------------------------------------


def test_more_annotations_than_colours_are_all_drawn():
    results = golden("many_annotations.json")
    ax = draw(results).axes[0]
    lines = series_lines(ax)
    assert len(lines) == 16 and len(legend_labels(ax)) == 16
    assert lines[14].get_color() == lines[0].get_color() == visualization.PALETTE[0]
    assert (lines[0].get_linestyle(), lines[14].get_linestyle()) == ("-", "--")
    assert lines[14].get_marker() != lines[0].get_marker()
    colours = [(line.get_color(), line.get_linestyle()) for line in lines]
    assert len(set(colours)) == 16


def test_more_annotations_than_colours_in_bars():
    ax = draw(golden("many_annotations.json"), plot_type="bar").axes[0]
    groups = [c for c in ax.containers if not c.get_label().startswith("_")]
    assert len(groups) == 16
    assert groups[0].patches[0].get_hatch() is None
    assert groups[14].patches[0].get_hatch() == "//"
    # a legend this long sits outside the axes, to the right
    assert ax.get_legend().get_bbox_to_anchor().x0 > ax.get_window_extent().x1 - 1


def test_series_keep_their_colour_in_every_panel(sweep):
    fig = draw(sweep, col_panels=["dtype"])
    for ax in fig.axes:
        assert [line.get_color() for line in series_lines(ax)] == list(visualization.PALETTE[:2])


# --- parameters found by name: lists and dicts -----------------------------------------------


def test_list_and_dict_parameters():
    fig = golden("python/python_objects.json").plot(None)
    assert tick_labels(fig.axes[0]) == [
        "shape=[1024, 512], opts={'dtype': 'f16'}, scale=nan, flag=True",
        "shape=[2048, 512], opts={'dtype': 'f32'}, scale=0.5, flag=False"]  # fmt: skip


def test_panels_and_variants_on_dict_and_list_parameters():
    results = golden("python/python_objects.json")
    fig = results.plot(None, col_panels=["opts"], variant_fields=["shape"])
    assert [ax.get_title() for ax in fig.axes] == ["opts={'dtype': 'f16'}", "opts={'dtype': 'f32'}"]
    assert legend_labels(fig.axes[0]) == ["conv shape=[1024, 512]"]
    assert tick_labels(fig.axes[0]) == ["scale=nan, flag=True"]


# --- files and other inputs ------------------------------------------------------------------


def test_filename_writes_a_png_and_none_writes_nothing(sweep, tmp_path):
    path = tmp_path / "sweep.png"
    fig = sweep.plot(path, TIME)
    assert path.read_bytes()[:8] == PNG_MAGIC
    sweep.plot(None, TIME)
    assert os.listdir(tmp_path) == ["sweep.png"]
    assert fig.canvas.__class__.__name__ == "FigureCanvasAgg"


def test_callback_sees_the_figure_before_it_is_saved(sweep, tmp_path):
    path = tmp_path / "cb.png"
    seen = []

    def callback(fig):
        seen.append((fig, path.exists()))
        fig.axes[0].set_title("restyled")

    fig = sweep.plot(path, TIME, plot_callback=callback)
    assert seen == [(fig, False)]
    assert fig.axes[0].get_title() == "restyled"
    assert path.exists()


def test_print_data(sweep, capsys):
    draw(golden("triton_normalized.json"), print_data=True)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Aggregated Data (Average value and Number of Runs):"
    assert out[1].split() == ["Annotation", "Metric", "n", "block_size", "AvgValue", "NumRuns"]
    assert out[2].split() == ["torch", TIME, "1048576", "256", "1.0000", "5"]
    assert len(out) == 2 + 12


def test_processed_csv_written_by_the_engine(sweep, tmp_path):
    raw_csv, processed_csv = sweep.engine_results.write_csv(str(tmp_path / "x_"))
    fig = visualization.plot_dataframe(processed_csv, None, TIME, col_panels=["dtype"])
    assert len(fig.axes) == 2
    assert legend_labels(fig.axes[0]) == ["vadd", "vadd_vec4"]
    assert tick_labels(fig.axes[0]) == [f"n={n}" for n in SIZES]


def test_journal_of_an_unfinished_session():
    results = golden("python/journal_unfinished.jsonl")
    ax = results.plot(None).axes[0]
    assert tick_labels(ax) == ["n=1024"]
    assert ax.get_ylabel() == f"{TIME} (ns) (avg: 2 runs)"


def test_nan_values_leave_gaps_not_errors():
    results = golden("python/cpp_matmul_sweep.json")
    fig = results.plot(None, "tflops", show_aggregate="geomean", annotate_points=True)
    ax = fig.axes[0]
    assert legend_labels(ax) == ["matmul", "add"]
    assert all(math.isfinite(v) for v in aggregate_bars(ax, "Geomean"))
    assert np.isfinite(ax.get_ylim()).all()
