"""05 - subplots: one panel per dtype (rows) and per transpose setting (columns).

``row_panels`` and ``col_panels`` name parameters; every combination of their values gets its
own panel, and the remaining parameters (here ``n``) label the x axis. The derived metric is
the one plotted (``metric="TFLOPS"``).
"""

import itertools

import pandas as pd
import torch

import kscope

SIZES = [2048, 4096, 8192]
DTYPES = [torch.float32, torch.float16]
TRANSPOSE = [False, True]


def compute_tflops(time_ns, *conf):
    n = conf[0]  # dtype and transpose are not needed
    return {"TFLOPS": (2 * n**3 / (time_ns * 1e-9) / 1e12, "TFLOPS")}


@kscope.analyze.plot(
    "05_subplots.png",
    "TFLOPS",
    title="Matrix multiplication performance",
    ylabel="TFLOP/s",
    row_panels=["dtype"],
    col_panels=["transpose"],
    annotate_points=True,
)
@kscope.analyze.kernel(
    configs=list(itertools.product(SIZES, DTYPES, TRANSPOSE)), runs=10, derive_metric=compute_tflops
)
def benchmark_with_subplots(n, dtype, transpose):
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    if transpose:
        b = b.T
    with kscope.annotate("matmul"):
        _ = a @ b


def main() -> pd.DataFrame:
    df = benchmark_with_subplots().to_dataframe()
    print(df[df["Metric"] == "TFLOPS"][["n", "dtype", "transpose", "AvgValue", "Unit"]])
    print("Plot written to 05_subplots.png")
    return df


if __name__ == "__main__":
    main()
