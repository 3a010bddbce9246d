"""GPU (H200): cuda_graph=True with PyTorch kernels. The function runs in warm-up and in the
capturing run only; the replayed regions are timed like launched kernels (the same GPU time
within a few percent, attributed per region, several regions per run, cuBLAS included); a region
that synchronises with the host cannot be captured and fails with torch's error."""

from __future__ import annotations

import pytest

import kscope

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
SILENT = kscope.VerbosityLevel.SILENT


def sweep(cuda_graph, calls, cache_control="none"):
    a, b = (torch.randn(4 << 20, device="cuda") for _ in range(2))
    m = torch.randn(1024, 1024, device="cuda")

    @kscope.analyze.kernel(configs=[(1,), (2,)], runs=30, warmup_runs=1, cuda_graph=cuda_graph,
                           cache_control=cache_control, verbosity=SILENT,
                           combine_kernel_metrics=lambda x, y: x + y)  # fmt: skip
    def regions(k):
        calls.append(k)
        with kscope.annotate("add"):
            a + b
        with kscope.annotate("matmul"):
            for _ in range(k):
                m @ m

    return regions().to_dataframe().set_index(["Annotation", "k"])


@pytest.mark.parametrize("cache_control", ["none", "all"])
def test_replayed_regions_are_timed_like_launched_ones(cache_control):
    graph_calls, eager_calls = [], []
    graphs = sweep(True, graph_calls, cache_control)
    eager = sweep(False, eager_calls, cache_control)
    print(graphs[["AvgValue", "RelativeStdDevPct", "NumRuns"]].to_string())
    print(eager[["AvgValue", "RelativeStdDevPct", "NumRuns"]].to_string())
    assert graph_calls == [1, 1, 2, 2]  # per config: the warm-up run and the capturing run
    assert len(eager_calls) == 62
    assert (graphs["NumRuns"] == 30).all()
    for key in eager.index:
        ratio = graphs.loc[key, "AvgValue"] / eager.loc[key, "AvgValue"]
        assert 0.9 < ratio < 1.1, (key, ratio)
    # the matmul region launched k GEMMs: k = 2 takes about twice k = 1 from the graph too
    twice = graphs.loc[("matmul", 2), "AvgValue"] / graphs.loc[("matmul", 1), "AvgValue"]
    assert 1.6 < twice < 2.4, twice


def test_a_region_that_synchronises_cannot_be_captured():
    x = torch.randn(1024, device="cuda")

    @kscope.analyze.kernel(configs=[(1,)], runs=3, cuda_graph=True, verbosity=SILENT)
    def syncs(k):
        with kscope.annotate("item"):
            (x * 2).sum().item()  # a copy to the host: not allowed while capturing

    with pytest.raises(RuntimeError, match="capturing"):
        syncs()
    # The device and torch stay usable afterwards (random numbers too: the failed capture is
    # over for torch's generators): an eager sweep measures.
    @kscope.analyze.kernel(configs=[(1,)], runs=3, verbosity=SILENT)
    def fine(k):
        y = torch.randn(1024, device="cuda")
        with kscope.annotate("mul"):
            y * 2

    assert (fine().to_dataframe()["NumRuns"] == 3).all()
