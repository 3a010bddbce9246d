"""09 - a derived metric from hardware counters and the device: global-memory instructions per SM
of a reduction.

``derive_metric`` receives the measured metrics in ``metrics`` order, then the config's values,
and returns a dict of ``(value, unit)``: four metrics per run, aggregated like measured ones.
``launch__sm_count`` (the GPU's SM count, as Nsight Compute reports it) comes with the counters:
the cupti tool serves Nsight Compute's launch and device metrics too
(docs/tools/cupti-metrics.md, "Launch and device metrics"). The plot shows one derived metric.
"""

import pandas as pd
import torch

import kscope

METRICS = [
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "launch__sm_count",
]


def per_sm(loads, stores, sm_count, n):
    return {
        "loads_per_sm": (loads / sm_count, "inst/SM"),
        "stores_per_sm": (stores / sm_count, "inst/SM"),
        "global_insts": (loads + stores, "inst"),
        "global_insts_per_sm": ((loads + stores) / sm_count, "inst/SM"),
    }


@kscope.analyze.plot("09_advanced_metric_custom.png", metric="global_insts_per_sm",
                     ylabel="global-memory instructions per SM", annotate_points=True)  # fmt: skip
@kscope.analyze.kernel(configs=[(1024,), (2048,)], runs=5, metrics=METRICS, derive_metric=per_sm)
def global_memory_traffic(n):
    a = torch.randn(n, n, device="cuda")
    with kscope.annotate("row_sum"):  # each row read from global memory, its sum written back
        _ = a.sum(dim=1)


def main() -> pd.DataFrame:
    df = global_memory_traffic().to_dataframe()
    print(df[["Annotation", "n", "Metric", "AvgValue", "Unit"]])
    return df


if __name__ == "__main__":
    main()
