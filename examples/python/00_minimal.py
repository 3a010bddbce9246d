"""00 - the smallest kscope benchmark: one matmul, one size, the default options.

A bare ``@kscope.analyze.kernel`` measures the kernel launched inside ``kscope.annotate`` once
(runs=1) with the default tool (cupti, in-process). The call's argument is the config.
"""

import pandas as pd
import torch

import kscope


@kscope.analyze.kernel
def benchmark_matmul(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("@-operator"):
        _ = a @ b


def main() -> pd.DataFrame:
    results = benchmark_matmul(1024)
    df = results.to_dataframe()
    print(df[["Annotation", "n", "Metric", "Unit", "AvgValue", "NumRuns", "GPU"]])
    return df


if __name__ == "__main__":
    main()
