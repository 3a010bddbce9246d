"""10 - several kernels in one annotation, combined into one value per run.

By default an annotation must launch exactly one kernel. ``combine_kernel_metrics`` reduces the
kernels of one annotation in one run pairwise (here: the sum of three matmul times). The
nsight-python example combines ``sm__cycles_elapsed.avg``, a hardware counter; this one
combines the kernel time, which the cupti tool measures.
"""

import pandas as pd
import torch

import kscope


@kscope.analyze.kernel(configs=[(1024,), (2048,)], runs=5,
                       combine_kernel_metrics=lambda x, y: x + y)  # fmt: skip
def three_matmuls(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("three_matmuls"):
        _ = a @ b
        _ = a @ b
        _ = a @ b


def main() -> pd.DataFrame:
    df = three_matmuls().to_dataframe()
    print(df[["Annotation", "n", "AvgValue", "Kernel", "NumRuns"]])
    return df


if __name__ == "__main__":
    main()
