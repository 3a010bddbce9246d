"""Info collectors on real kernels (marker gpu): nsight-python's integration scenarios
(info_scenarios.py, from tests/test_info_collector_integration.py of the reference) with PyTorch
elementwise kernels, one kernel per annotation, plus what only a real tool can show: work a
collector launches is not attributed to the annotation, and values coming back from the child
of the ncu tool."""

from __future__ import annotations

import math
import textwrap

import info_scenarios
import pytest
from script_runner import run_script, skip_without_ncu

import kscope

torch = pytest.importorskip("torch")

pytestmark = [pytest.mark.gpu, pytest.mark.usefixtures("gpu_warmup")]
SILENT = kscope.VerbosityLevel.SILENT
ONCE, CONFIG, RUN, ANNOTATION = kscope.CollectionScope

_TENSORS: dict[int, tuple] = {}


def _tensors(n: int) -> tuple:
    # Allocated once, outside the annotations: only the elementwise kernel runs inside.
    if n not in _TENSORS:
        _TENSORS[n] = (torch.randn(n, device="cuda"), torch.randn(n, device="cuda"))
    return _TENSORS[n]


def launch(annotation: str, n: int) -> None:
    """One elementwise kernel: a multiplication in "mul" and "second", an addition elsewhere."""
    a, b = _tensors(n)
    if annotation in ("mul", "second"):
        torch.mul(a, b)
    else:
        torch.add(a, b)


@pytest.mark.parametrize("scenario", info_scenarios.SCENARIOS, ids=lambda f: f.__name__)
def test_reference_scenario(scenario):
    # Create the scenarios' tensors now: torch.randn inside an annotation would add kernels to
    # the first run only (seen on the H200: 3 kernels in run 0 of "add", 1 afterwards).
    for n in (512, 1024):
        _tensors(n)
    torch.cuda.synchronize()
    scenario(launch)


def test_kernels_of_an_annotation_collector_are_not_attributed():
    # The collector runs before the annotation opens: its kernel would otherwise make two
    # kernels in "add" ("More than one kernel ...").
    @kscope.experimental.collect(scope=ANNOTATION)
    def gpu_sum(annotation_name, n):
        a, _ = _tensors(n)
        return float(a.sum().item())

    @kscope.experimental.collect(scope=RUN)
    def gpu_max(n):
        a, _ = _tensors(n)
        return float(a.max().item())

    @kscope.analyze.kernel(configs=[(1 << 16,)], runs=3, verbosity=SILENT,
                           info_collectors=[gpu_sum, gpu_max])
    def bench(n):
        with kscope.annotate("add"):
            launch("add", n)

    df = bench().to_dataframe()
    assert len(df) == 1 and df["NumRuns"].iloc[0] == 3 and (df["AvgValue"] > 0).all()
    assert df["gpu_sum_Std"].iloc[0] == 0 and not math.isnan(df["gpu_max_Avg"].iloc[0])


NCU_SCRIPT = textwrap.dedent(
    """
    import os
    import torch
    import kscope

    @kscope.experimental.collect(scope="run")
    def pid(n):
        return os.getpid()

    @kscope.analyze.kernel(configs=[(1 << 20,)], runs=2, tool="ncu",
                           verbosity=kscope.VerbosityLevel.SILENT,
                           info_collectors=[pid, ("region", lambda a, n: a, "annotation")])
    def vadd(n):
        a = torch.randn(n, device="cuda")
        b = torch.randn(n, device="cuda")
        with kscope.annotate("add"):
            torch.add(a, b)

    df = vadd().to_dataframe()
    print("PARENT", os.getpid(), "CHILD", int(df["pid_Avg"].iloc[0]),
          "REGION", df["region"].iloc[0])
    """
)


def test_values_come_back_from_the_ncu_child(tmp_path):
    skip_without_ncu()
    done = run_script(tmp_path, "ncu_collectors.py", NCU_SCRIPT)
    words = done.stdout.split()
    parent, child = int(words[words.index("PARENT") + 1]), int(words[words.index("CHILD") + 1])
    assert child != parent  # collected in the re-executed program, carried back
    assert words[words.index("REGION") + 1] == "add"
