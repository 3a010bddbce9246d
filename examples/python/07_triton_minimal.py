"""07 - a Triton kernel against PyTorch, normalised to PyTorch.

``normalize_against="torch"`` divides every AvgValue by the torch annotation's for the same
config and metric. The derived metric ``speedup = 1 / time`` is computed per run from the raw
time and then normalised too, so its AvgValue for "triton" is the speedup over torch. The plot
draws one line per Triton block size (``variant_fields``) against the torch baseline.
"""

import pandas as pd
import torch
import triton
import triton.language as tl

import kscope


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def triton_add(x, y, out, block_size):
    n = out.numel()
    add_kernel[(triton.cdiv(n, block_size),)](x, y, out, n, BLOCK_SIZE=block_size)


def speedup(time_ns, n, block_size):
    return 1.0 / time_ns, "x"


CONFIGS = [(n, bs) for n in (1 << 20, 1 << 24) for bs in (256, 1024)]


@kscope.analyze.plot(
    "07_triton_minimal.png",
    "speedup",
    title="Vector addition: Triton speedup by block size",
    ylabel="Speedup vs PyTorch",
    variant_fields=["block_size"],
    variant_annotations=["triton"],
)
@kscope.analyze.kernel(configs=CONFIGS, runs=10, normalize_against="torch", derive_metric=speedup)
def vector_add(n, block_size):
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    triton_add(x, y, out, block_size)  # compile outside the measured region
    with kscope.annotate("torch"):
        torch.add(x, y, out=out)
    with kscope.annotate("triton"):
        triton_add(x, y, out, block_size)


def main() -> pd.DataFrame:
    df = vector_add().to_dataframe()
    speedups = df[df["Metric"] == "speedup"]
    print(speedups[["Annotation", "n", "block_size", "AvgValue", "Normalized"]])
    return df


if __name__ == "__main__":
    main()
