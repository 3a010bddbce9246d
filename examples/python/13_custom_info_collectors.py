"""13 - custom info collectors: extra columns collected once, per config, per run and per annotation.

``@kscope.experimental.collect(scope=...)`` marks a function as a collector; its name becomes the
column. The scopes:

- ONCE: once per call of the decorated function (driver, library versions).
- CONFIG: once per configuration, before its runs (values derived from the config).
- RUN: before each measured run (memory in use, timestamps, clocks).
- ANNOTATION: at each entry of an annotation, before it opens (per-region state); it also gets
  the annotation's name.

In ``to_dataframe()`` ONCE collectors and collectors returning strings are one column (the first
value of the group); numeric CONFIG, RUN and ANNOTATION collectors become
``<name>_Avg/_Std/_Min/_Max``. A collector that raises leaves its value missing for that run,
with one warning. Unlike nsight-python's example this one calls no ``nvidia-smi``: kscope already
records clocks, temperature and power of every run (the ClockMHz_Min, TempC_Max, PowerW_Avg and
Throttled columns).
"""

import time
from typing import Any

import pandas as pd
import torch

import kscope


@kscope.experimental.collect(scope=kscope.CollectionScope.ONCE)
def torch_cuda_version() -> str:
    """The CUDA version PyTorch was built with."""
    return str(torch.version.cuda)


@kscope.experimental.collect(scope=kscope.CollectionScope.ONCE)
def device_name() -> str:
    return torch.cuda.get_device_name()


@kscope.experimental.collect(scope=kscope.CollectionScope.CONFIG)
def matrix_elements(n: int) -> int:
    """Derived from the config: gets as many config values as it has parameters (here n)."""
    return n * n


@kscope.experimental.collect(scope=kscope.CollectionScope.RUN)
def allocated_mib(*config_args: Any) -> float:
    """Device memory PyTorch holds before the run (numeric: _Avg/_Std/_Min/_Max)."""
    return torch.cuda.memory_allocated() / 2**20


@kscope.experimental.collect(scope=kscope.CollectionScope.RUN)
def run_timestamp(*config_args: Any) -> str:
    """When the run started (a string: the first run's value per row)."""
    return time.strftime("%H:%M:%S")


_entries = {"count": 0}


@kscope.experimental.collect(scope=kscope.CollectionScope.ANNOTATION)
def exec_order(annotation_name: str, *config_args: Any) -> int:
    """The position of this annotation entry in the whole session."""
    _entries["count"] += 1
    return _entries["count"]


@kscope.experimental.collect(scope=kscope.CollectionScope.ANNOTATION)
def ann_info(annotation_name: str, n: int, dtype: torch.dtype) -> str:
    return f"{annotation_name}_n{n}_{str(dtype).removeprefix('torch.')}"


@kscope.analyze.plot("13_custom_info_collectors.png", print_data=True, plot_type="bar")
@kscope.analyze.kernel(
    runs=10,
    output_csv=True,
    info_collectors=[
        torch_cuda_version,  # column torch_cuda_version
        device_name,  # column device_name
        matrix_elements,  # columns matrix_elements_Avg/_Std/_Min/_Max
        allocated_mib,  # columns allocated_mib_Avg/_Std/_Min/_Max
        run_timestamp,  # column run_timestamp
        exec_order,  # columns exec_order_Avg/_Std/_Min/_Max
        ann_info,  # column ann_info
    ],
)
def elementwise(n: int, dtype: torch.dtype) -> None:
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    # One elementwise kernel per annotation.
    with kscope.annotate("multiply"):
        _ = a * b
    with kscope.annotate("add"):
        _ = a + b


def main() -> pd.DataFrame:
    configs = [
        (512, torch.float32),
        (1024, torch.float32),
        (2048, torch.float32),
        (1024, torch.float16),
        (2048, torch.float16),
    ]
    df = elementwise(configs=configs).to_dataframe()  # configs given at call time

    print(f"\nONCE: CUDA {df['torch_cuda_version'].iloc[0]} on {df['device_name'].iloc[0]}")
    columns = ["Annotation", "n", "dtype", "AvgValue", "matrix_elements_Avg", "allocated_mib_Max",
               "run_timestamp", "exec_order_Min", "exec_order_Max", "ann_info"]  # fmt: skip
    print(df[columns].to_string(index=False))
    return df


if __name__ == "__main__":
    main()
