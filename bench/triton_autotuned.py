"""The two autotuned Triton kernels of issue 34, shared by the GPU tests
(tests/python/test_gpu_testing.py) and the benchmark (bench/do_bench_race.py): a vector add over
8 BLOCK_SIZE configs and an fp16 matmul over 16 tile configs, and a reference ranking of their
configs by CUDA-graph replays (no profiler, no kscope).

Importing it needs torch and triton.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable
from typing import Any

import torch
import triton
import triton.language as tl

VADD_BLOCKS = (64, 128, 256, 512, 1024, 2048, 4096, 8192)
# (BLOCK_M, BLOCK_N) x BLOCK_K x (num_warps, num_stages): 16 configs.
MATMUL_TILES = tuple(itertools.product(((64, 64), (64, 128), (128, 64), (128, 128)), (32, 64),
                                       ((4, 3), (8, 4))))  # fmt: skip


@triton.jit
def vadd_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
             mask=mask)  # fmt: skip


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):  # fmt: skip
    # Tiles of C in groups of GROUP_M rows, so that neighbouring programs share tiles of A in L2.
    pid = tl.program_id(0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = (pid // in_group) * GROUP_M
    rows = tl.minimum(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (pid % in_group) % rows
    tile_n = (pid % in_group) // rows
    rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        left = K - k * BLOCK_K
        x = tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < left), other=0.0)
        y = tl.load(b, mask=(rk[:, None] < left) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, y, acc)
        a += BLOCK_K * stride_ak
        b += BLOCK_K * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


def vadd_configs() -> list[Any]:
    return [triton.Config({"BLOCK_SIZE": b}) for b in VADD_BLOCKS]


def matmul_configs() -> list[Any]:
    return [triton.Config({"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k, "GROUP_M": 8},
                          num_warps=w, num_stages=s)
            for (m, n), k, (w, s) in MATMUL_TILES]  # fmt: skip


def autotuned_vadd(**autotune: Any) -> Any:
    """A new autotuner over vadd_kernel (the compiled kernels are the JIT function's, shared)."""
    return triton.autotune(configs=vadd_configs(), key=["n"], **autotune)(vadd_kernel)


def autotuned_matmul(**autotune: Any) -> Any:
    return triton.autotune(configs=matmul_configs(), key=["M", "N", "K"], **autotune)(matmul_kernel)


def vadd_call(kernel: Any, x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> Callable[..., None]:
    """One launch of `kernel` (autotuned or plain JIT with BLOCK_SIZE given by `meta`)."""
    n = x.numel()
    return lambda **meta: kernel[lambda m: (triton.cdiv(n, m["BLOCK_SIZE"]),)](x, y, out, n, **meta)


def matmul_call(kernel: Any, a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> Callable[..., None]:
    m, k = a.shape
    n = b.shape[1]

    def grid(meta: dict[str, Any]) -> tuple[int]:
        return (triton.cdiv(m, meta["BLOCK_M"]) * triton.cdiv(n, meta["BLOCK_N"]),)

    return lambda **meta: kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0),
                                       b.stride(1), c.stride(0), c.stride(1), **meta)  # fmt: skip


def config_meta(config: Any) -> dict[str, Any]:
    """What launching the plain JIT kernel with `config` takes: its kwargs and compile options."""
    return {**config.kwargs, "num_warps": config.num_warps, "num_stages": config.num_stages}


def graph_reference_us(launch: Callable[[], None], replays: int = 1000, per_graph: int = 100) -> float:
    """The reference time of one launch, us: `replays` launches replayed from CUDA graphs of
    `per_graph` launches each, timed with CUDA events around each replay (the median over the
    graphs, divided by `per_graph`). Warm caches: consecutive launches share the L2."""
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        launch()  # compiled and loaded before the capture
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(per_graph):
                launch()
        graph.replay()
        torch.cuda.synchronize()
        times = []
        for _ in range(max(1, replays // per_graph)):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1e3 / per_graph)
    return statistics.median(times)


def reference_ranking(configs: list[Any], call: Callable[..., None]) -> list[tuple[float, Any]]:
    """Every config's graph_reference_us, fastest first."""
    timed = [(graph_reference_us(lambda c=c: call(**config_meta(c))), c) for c in configs]
    return sorted(timed, key=lambda t: t[0])


__all__ = ["MATMUL_TILES", "VADD_BLOCKS", "autotuned_matmul", "autotuned_vadd", "config_meta",
           "graph_reference_us", "matmul_call", "matmul_configs", "matmul_kernel",
           "reference_ranking", "vadd_call", "vadd_configs", "vadd_kernel"]  # fmt: skip
