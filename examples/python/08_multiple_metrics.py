"""08 - several metrics in one sweep.

Every metric of ``metrics`` is collected in the same runs (the cupti tool replays a run when the
set needs several counter passes; ``kscope check-metrics --chip GH100 <names>`` prints how many).
The DataFrame has one row per (annotation, metric, config), the ``Metric`` column telling them
apart. A plot shows one metric: ``results.plot(metric=...)`` draws each one in its own file.
"""

import pandas as pd
import torch

import kscope

METRICS = [
    "dram__bytes_read.sum",
    "lts__t_bytes.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
]


@kscope.analyze.kernel(configs=[(1024,), (2048,)], runs=3, metrics=METRICS)
def matmul(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("@-operator"):
        _ = a @ b
    with kscope.annotate("torch.matmul"):
        _ = torch.matmul(a, b)


def main() -> pd.DataFrame:
    results = matmul()
    df = results.to_dataframe()
    print(df.pivot_table(index=["Annotation", "n"], columns="Metric", values="AvgValue"))
    for metric in METRICS:
        results.plot(f"08_{metric.split('.')[0]}.png", metric=metric)
    return df


if __name__ == "__main__":
    main()
