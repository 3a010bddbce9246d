"""02 - a sweep over matrix sizes with repeated runs.

Configs given at decoration: each tuple is one call's arguments. Every config runs ``runs``
times; the DataFrame has one row per (annotation, metric, config) with mean, spread, CI and
stability over the runs. ``@kscope.analyze.plot`` on top draws the sweep as a line plot with
CI95 error bars (``02_parameter_sweep.png``).
"""

import pandas as pd
import torch

import kscope

SIZES = [(2048,), (4096,), (8192,)]


@kscope.analyze.plot("02_parameter_sweep.png")
@kscope.analyze.kernel(configs=SIZES, runs=10)
def benchmark_matmul_sizes(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("matmul"):
        _ = a @ b


def main() -> pd.DataFrame:
    df = benchmark_matmul_sizes().to_dataframe()
    print(df[["Annotation", "n", "AvgValue", "StdDev", "CI95_Lower", "CI95_Upper",
              "RelativeStdDevPct", "StableMeasurement", "NumRuns"]])  # fmt: skip
    return df


if __name__ == "__main__":
    main()
