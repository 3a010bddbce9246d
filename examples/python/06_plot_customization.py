"""06 - plot customisation: a bar chart with values, and a ``plot_callback`` that restyles the
figure before it is saved.

``plot_callback`` receives the ``matplotlib.figure.Figure``; anything set on it (titles, sizes,
line widths) is in the saved file.
"""

import pandas as pd
import torch

import kscope

SIZES = [(2**i,) for i in range(11, 14)]


def compute_tflops(time_ns, n):
    return {"TFLOPS": (2 * n**3 / (time_ns * 1e-9) / 1e12, "TFLOPS")}


def matmul(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("matmul"):
        _ = a @ b


def custom_style(fig):
    """Restyles the figure: a bigger title and size, thicker lines with larger markers."""
    fig.suptitle("Custom styled plot", fontsize=16, fontweight="bold")
    fig.set_size_inches(10, 6)
    ax = fig.get_axes()[0]
    ax.set_ylabel("Performance (TFLOP/s)", fontsize=12)
    ax.grid(True, alpha=0.3)
    for line in ax.get_lines():
        line.set_linewidth(2)
        line.set_markersize(8)


kernel = kscope.analyze.kernel(configs=SIZES, runs=10, derive_metric=compute_tflops)

benchmark_bar_chart = kscope.analyze.plot(
    "06_bar_chart.png", "TFLOPS", title="Matrix multiplication performance", ylabel="TFLOP/s",
    plot_type="bar", annotate_points=True,
)(kernel(matmul))  # fmt: skip

benchmark_custom_plot = kscope.analyze.plot(
    "06_custom_plot.png", "TFLOPS", plot_callback=custom_style
)(kernel(matmul))


def main() -> pd.DataFrame:
    bar = benchmark_bar_chart().to_dataframe()
    print("Bar chart written to 06_bar_chart.png")
    custom = benchmark_custom_plot().to_dataframe()
    print("Custom plot written to 06_custom_plot.png")
    return pd.concat([bar, custom], ignore_index=True)


if __name__ == "__main__":
    main()
