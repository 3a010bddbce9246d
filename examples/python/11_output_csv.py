"""11 - raw and processed CSV files next to a chosen prefix.

``output_csv=True`` writes ``<prefix>profiled_data-<function>-<id>.csv`` (one row per run) and
``<prefix>processed_data-<function>-<id>.csv`` (the DataFrame's table); the journal of the
session lands under the same prefix.
"""

import os
import tempfile

import pandas as pd
import torch

import kscope

PREFIX = os.path.join(tempfile.gettempdir(), "kscope_examples", "example11_")


@kscope.analyze.kernel(configs=[(1024,), (2048,)], runs=3, output_prefix=PREFIX, output_csv=True)
def matmul_csv(n):
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    with kscope.annotate("matmul"):
        _ = a @ b


def main() -> pd.DataFrame:
    results = matmul_csv()
    tag = f"{results.name}-{results.id}"
    raw = pd.read_csv(f"{PREFIX}profiled_data-{tag}.csv")
    processed = pd.read_csv(f"{PREFIX}processed_data-{tag}.csv")
    print(f"raw CSV: {len(raw)} rows, columns {list(raw.columns)}")
    print(processed[["Annotation", "n", "AvgValue", "NumRuns"]])
    return processed


if __name__ == "__main__":
    main()
