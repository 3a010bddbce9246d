"""03 - derived metrics: TFLOP/s and arithmetic intensity from the measured time.

``derive_metric`` is called once per run with the measured values (here the time in ns) and
then the config's values. It returns ``(value, unit)`` (the metric is named after the
function), or a dict of them (one metric per key). With derived metrics the results hold more
than one metric, so ``@kscope.analyze.plot`` is told which one to draw: the function's name or
a key of the dict.
"""

import pandas as pd
import torch

import kscope

CONFIGS = [(1024,), (2048,), (4096,)]


def tflops(time_ns, n):
    """2 n^3 floating-point operations per matmul."""
    return 2 * n**3 / (time_ns * 1e-9) / 1e12, "TFLOPS"


def matmul_metrics(time_ns, n):
    flops = 2 * n**3
    bytes_moved = 3 * n * n * 4  # read A and B, write C, fp32
    return {
        "TFLOPS": (flops / (time_ns * 1e-9) / 1e12, "TFLOPS"),
        "ArithIntensity": (flops / bytes_moved, "FLOP/byte"),
    }


def matmul(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("matmul"):
        _ = a @ b


# One benchmark body, two decorator stacks: each call is its own session of "matmul".
matmul_tflops = kscope.analyze.plot(
    "03_custom_metrics_tflops.png", "tflops", ylabel="Performance (TFLOPS)", annotate_points=True
)(kscope.analyze.kernel(configs=CONFIGS, runs=5, derive_metric=tflops)(matmul))
matmul_two_metrics = kscope.analyze.plot(
    "03_custom_metrics_arith_intensity.png", "ArithIntensity",
    ylabel="Arithmetic intensity (FLOP/byte)", annotate_points=True,
)(kscope.analyze.kernel(configs=CONFIGS, runs=5, derive_metric=matmul_metrics)(matmul))  # fmt: skip


def main() -> pd.DataFrame:
    one = matmul_tflops().to_dataframe()
    print(one[one["Metric"] == "tflops"][["n", "Metric", "AvgValue", "Unit"]])
    two = matmul_two_metrics().to_dataframe()
    print(two[two["Metric"] != "gpu__time_duration.sum"][["n", "Metric", "AvgValue", "Unit"]])
    return pd.concat([one, two], ignore_index=True)


if __name__ == "__main__":
    main()
