"""@kscope.analyze.plot stacked on @kscope.analyze.kernel: on the fake engine (CPU) and on a
real sweep (GPU). The GPU test writes its PNGs (and the sweep's JSON) to ``$KSCOPE_PLOT_OUT``
when set, else to a temporary directory."""

from __future__ import annotations

import os
import re

import pytest
from plot_helpers import (
    PNG_MAGIC,
    TIME,
    bar_groups,
    error_bars,
    legend_labels,
    run_cli,
    series_lines,
    suptitle,
)

import kscope
from kscope.exceptions import ProfilerException

SILENT = kscope.VerbosityLevel.SILENT


def test_stack_returns_results_and_writes_the_plot(fake_engine, tmp_path):
    figures = []
    path = tmp_path / "f.png"

    @kscope.analyze.plot(str(path), plot_callback=figures.append)
    @kscope.analyze.kernel(configs=[(1,), (2,), (3,)], runs=3, verbosity=SILENT)
    def f(n):
        pass

    results = f()
    assert isinstance(results, kscope.ProfileResults) and f.__name__ == "f"
    assert path.read_bytes()[:8] == PNG_MAGIC
    (fig,) = figures
    ax = fig.axes[0]
    assert legend_labels(ax) == ["fake"]
    assert list(series_lines(ax)[0].get_ydata()) == [101.0, 201.0, 301.0]
    assert ax.get_ylabel() == f"{TIME} (ns) (avg: 3 runs)"
    assert suptitle(fig) == "f\nFake GPU, fakehost"
    assert set(error_bars(ax)) == {"fake"}


def test_the_bare_form_writes_plot_png(fake_engine, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    @kscope.analyze.plot
    @kscope.analyze.kernel(configs=[(1,), (2,)], verbosity=SILENT)
    def f(n):
        pass

    assert isinstance(f(), kscope.ProfileResults) and f.__name__ == "f"
    assert (tmp_path / "plot.png").read_bytes()[:8] == PNG_MAGIC


def test_a_filename_that_is_neither_a_path_nor_a_function_is_a_type_error():
    with pytest.raises(TypeError, match="plot's filename must be a str or os.PathLike, got 5"):
        kscope.analyze.plot(5)


def test_every_call_plots_again(fake_engine, tmp_path):
    figures = []

    @kscope.analyze.plot(str(tmp_path / "g.png"), plot_type="bar", plot_callback=figures.append)
    @kscope.analyze.kernel(verbosity=SILENT)
    def g(n):
        pass

    g(1)
    g(configs=[(1,), (2,)])
    assert [len(bar_groups(fig.axes[0])["fake"]) for fig in figures] == [1, 2]


def test_metric_selection_after_the_sweep(fake_engine, tmp_path):
    def tflops(t, n):
        return 2 * n / t, "TFLOPS"

    def h(n):
        pass

    kernel = kscope.analyze.kernel(configs=[(1,)], derive_metric=tflops, verbosity=SILENT)
    with pytest.raises(ValueError, match=re.escape("Cannot visualize multiple metrics (2 > 1)")):
        kscope.analyze.plot(str(tmp_path / "h.png"))(kernel(h))()
    assert len(fake_engine.calls) == 1  # the sweep ran; the plot could not choose

    figures = []
    chosen = kscope.analyze.plot(str(tmp_path / "h.png"), "tflops", plot_callback=figures.append)
    chosen(kernel(h))()
    assert figures[0].axes[0].get_ylabel() == "tflops (TFLOPS) (avg: 1 runs)"


def test_fields_are_checked_when_decorating(fake_engine):
    kernel = kscope.analyze.kernel(configs=[(1, 2)], verbosity=SILENT)

    def f(n, m):
        pass

    text = "Field 'dtype' is not present in the DataFrame. Available fields: ['n', 'm']"
    with pytest.raises(ProfilerException, match=f"^{re.escape(text)}$"):
        kscope.analyze.plot(row_panels=["dtype"])(kernel(f))
    with pytest.raises(ValueError, match="x_keys cannot contain fields"):
        kscope.analyze.plot(x_keys=["n"], col_panels=["n"])(kernel(f))
    assert fake_engine.calls == []


def test_plot_of_something_that_is_not_a_kernel_function():
    @kscope.analyze.plot()
    def f():
        return 42

    with pytest.raises(TypeError, match=r"@plot expects 'f' to return ProfileResults"):
        f()


def test_print_data_through_the_decorator(fake_engine, tmp_path, capsys):
    @kscope.analyze.plot(str(tmp_path / "p.png"), print_data=True)
    @kscope.analyze.kernel(configs=[(1,), (2,)], verbosity=SILENT)
    def p(n):
        pass

    p()
    out = capsys.readouterr().out
    assert "Aggregated Data (Average value and Number of Runs):" in out
    assert "100.0000" in out and "200.0000" in out


# --- GPU: a real sweep ---------------------------------------------------------------------


def _out_dir(tmp_path) -> str:
    out = os.environ.get("KSCOPE_PLOT_OUT") or str(tmp_path)
    os.makedirs(out, exist_ok=True)
    return out


@pytest.mark.gpu
@pytest.mark.usefixtures("gpu_warmup")
def test_gpu_sweep_plots(tmp_path):
    """Vector add against negation over sizes and two dtypes, 10 runs: the line plot of the docs
    (plot_example.png), a bar plot with values (plot_bar.png), the sweep's JSON and the CLI's
    plot of it (plot_cli.png)."""
    import torch

    out = _out_dir(tmp_path)
    figures = []
    sizes = [1 << k for k in range(16, 28, 2)]
    dtypes = ["float32", "float16"]

    @kscope.analyze.plot(os.path.join(out, "plot_example.png"), col_panels=["dtype"],
                         show_aggregate="geomean", plot_callback=figures.append)  # fmt: skip
    @kscope.analyze.kernel(configs=[(n, d) for n in sizes for d in dtypes], runs=10,
                           warmup_runs=1, verbosity=SILENT)  # fmt: skip
    def vector_ops(n, dtype):
        x = torch.randn(n, device="cuda").to(getattr(torch, dtype))
        y = torch.randn(n, device="cuda").to(getattr(torch, dtype))
        out_ = torch.empty_like(x)
        with kscope.annotate("add"):
            torch.add(x, y, out=out_)
        with kscope.annotate("neg"):  # one elementwise kernel (copy_ may be a memcpy)
            torch.neg(x, out=out_)

    results = vector_ops()
    (fig,) = figures
    assert [ax.get_title() for ax in fig.axes] == ["dtype=float32", "dtype=float16"]
    for ax in fig.axes:
        assert legend_labels(ax) == ["add", "neg"]
        assert [len(line.get_xdata()) for line in series_lines(ax)] == [len(sizes)] * 2
        assert all((line.get_ydata() > 0).all() for line in series_lines(ax))
        assert set(error_bars(ax)) == {"add", "neg"}
    assert fig.axes[0].get_ylabel() == f"{TIME} (ns) (avg: 10 runs)"
    assert torch.cuda.get_device_name() in suptitle(fig)

    bar = results.plot(os.path.join(out, "plot_bar.png"), plot_type="bar", annotate_points=True,
                       row_panels=["dtype"], log_y=True)  # fmt: skip
    assert [ax.get_yscale() for ax in bar.axes] == ["log", "log"]

    saved = os.path.join(out, "gpu_sweep.json")
    results.to_json(saved)
    cli_png = os.path.join(out, "plot_cli.png")
    done = run_cli("plot", saved, "-o", cli_png, "--col-panels", "dtype", "--show-aggregate", "avg")
    assert done.returncode == 0, done.stderr
    for name in ("plot_example.png", "plot_bar.png", "plot_cli.png"):
        with open(os.path.join(out, name), "rb") as f:
            assert f.read(8) == PNG_MAGIC
