"""01 - three ways to multiply matrices, compared by DRAM throughput instead of time.

``metrics=[...]`` names any Nsight Compute metric; the cupti tool collects hardware counters
in-process with the CUPTI Range Profiler (docs/tools/cupti-metrics.md). Several annotations in
one function are compared side by side; ``@kscope.annotate`` also works as a function decorator.
The plot (``01_compare_throughput.png``) has one line per annotation; ``print_data=True``
prints the plotted values.
"""

import pandas as pd
import torch

import kscope

DRAM_THROUGHPUT = "dram__throughput.avg.pct_of_peak_sustained_elapsed"


@kscope.annotate("einsum")
def einsum_matmul(a, b):
    return torch.einsum("ik,kj->ij", a, b)


@kscope.analyze.plot("01_compare_throughput.png", print_data=True)
@kscope.analyze.kernel(configs=[(2048,), (4096,)], runs=5, metrics=[DRAM_THROUGHPUT])
def throughput(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("@-operator"):
        _ = a @ b
    with kscope.annotate("torch.matmul"):
        _ = torch.matmul(a, b)
    einsum_matmul(a, b)


def main() -> pd.DataFrame:
    df = throughput().to_dataframe()
    print(df[["Annotation", "n", "Metric", "AvgValue", "Unit", "NumRuns"]])
    return df


if __name__ == "__main__":
    main()
