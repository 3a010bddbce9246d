"""04 - several parameters: sizes x dtypes with itertools.product.

Config values can be any Python object (here torch dtypes): kscope keeps them as they are in the
DataFrame's parameter columns. ``derive_metric`` receives the config values after the metric
values, so ``*conf`` collects them.
"""

import itertools

import pandas as pd
import torch

import kscope

SIZES = [1024, 2048, 4096]
DTYPES = [torch.float16, torch.bfloat16, torch.float32]


def tflops(time_ns, *conf):
    n, _dtype = conf
    return 2 * n**3 / (time_ns * 1e-9) / 1e12, "TFLOPS"


@kscope.analyze.kernel(configs=list(itertools.product(SIZES, DTYPES)), runs=5, derive_metric=tflops)
def matmul_dtypes(n, dtype):
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    with kscope.annotate("matmul"):
        _ = a @ b


def main() -> pd.DataFrame:
    df = matmul_dtypes().to_dataframe()
    print(df[df["Metric"] == "tflops"][["n", "dtype", "AvgValue", "Unit", "NumRuns"]])
    return df


if __name__ == "__main__":
    main()
