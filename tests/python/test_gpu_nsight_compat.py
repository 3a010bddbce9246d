"""GPU checks of nsight-python's behaviours that kscope follows (marker gpu: skipped without a
usable CUDA device): the order of the kernel-count errors, the one-kernel error naming the
config, the run and that run's kernels as soon as that config is measured, and messages that
name the call the user wrote. Scripts written for nsight-python import kscope as ``nsight``."""

from __future__ import annotations

import pytest

import kscope as nsight
from kscope.exceptions import ExtractionError

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
SILENT = nsight.VerbosityLevel.SILENT


def test_kernel_count_varying_between_configs_is_expect_same_first():
    # nsight-python's test_api_params "inconsistent_kernel_counts": one kernel at 1024, two at
    # 2048, one run each.
    @nsight.analyze.kernel(configs=[(1024,), (2048,)], runs=1, verbosity=SILENT)
    def variable_kernels(n):
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        with nsight.annotate("variable_kernels"):
            torch.add(a, b)
            if n >= 2048:
                torch.mul(a, b)

    with pytest.raises(RuntimeError, match=r"^Expect same number of kernels per run\. Got average "
                       r"of 1\.5 per run in annotation 'variable_kernels':\n  1 kernel\(s\) in 1 "
                       r"run\(s\), e\.g\. config 0 \(n=1024\) run 0: .+\n  2 kernel\(s\) in 1 "
                       r"run\(s\), e\.g\. config 1 \(n=2048\) run 0: .+, .+\n") as info:  # fmt: skip
        variable_kernels()
    assert isinstance(info.value, ExtractionError)


def test_more_than_one_kernel_stops_the_sweep_at_that_config():
    calls = []

    @nsight.analyze.kernel(configs=[(1 << 20, "two"), (1 << 20, "one")], runs=2, verbosity=SILENT)
    def matmul(n, kind):
        calls.append(kind)
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        torch.cuda.synchronize()
        with nsight.annotate("matmul"):
            torch.add(a, b)
            torch.mul(a, b)
        torch.cuda._sleep(200_000_000)  # ~0.1 s: each config's records reach the engine alone

    with pytest.raises(RuntimeError, match=r"^More than one \(total=2\) kernel is launched within "
                       r"the matmul annotation, in config 0 \(n=1048576, kind=two\) run 0\.\n") as info:  # fmt: skip
        matmul()
    kernels = str(info.value).split("in launch order, are:\n")[1].splitlines()
    assert len(kernels) == 2 and all(kernels), info.value
    assert "one" not in calls  # stopped when config 0 was measured, not after the sweep


def test_metric_errors_name_the_call_the_user_wrote():
    @nsight.analyze.kernel(configs=[(1024,)], metrics=["invalid_value"], verbosity=SILENT)
    def bad_metric(n):
        a = torch.randn(n, device="cuda")
        with nsight.annotate("add"):
            a + a

    with pytest.raises(ValueError, match=r"^Invalid value \['invalid_value'\] for 'metrics' "
                       r"parameter for nsight\.analyze\.kernel\(\)\."):  # fmt: skip
        bad_metric()
