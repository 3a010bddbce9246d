"""Experiment (not a test): where the Python path's host time per run goes.

    PYTHONPATH=python python3 bench/probes/python_run_probe.py

Prints microseconds per run for the pieces of a Python run (the annotation's enter/exit alone, a
torch launch + synchronize, a whole kscope run with and without a kernel) and the engine's DEBUG
lines (host time per run by phase, fixed cost per step) of one 2000-run sweep.
"""

from __future__ import annotations

import sys
import time

import kscope
from kscope import _native as native


def per_call_us(fn, n: int = 2000) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n * 1e6


def main() -> int:
    import torch

    torch.cuda._sleep(100)
    torch.cuda.synchronize()

    def annotate_only() -> None:
        with kscope.annotate("x"):
            pass

    def launch_sync() -> None:
        torch.cuda._sleep(2000)
        torch.cuda.synchronize()

    print(f"annotate enter/exit outside a session: {per_call_us(annotate_only):.2f} us")
    print(f"native begin/end outside a session: "
          f"{per_call_us(lambda: (native.begin_annotation('x'), native.end_annotation())):.2f} us")
    print(f"torch launch + synchronize: {per_call_us(launch_sync):.2f} us")

    for label, body, debug in (("empty body", lambda: None, False),
                               ("annotate only", annotate_only, False),
                               ("annotate + 1 us kernel", lambda: (kscope.annotate("s").__enter__(),
                                                                   torch.cuda._sleep(2000),
                                                                   native.end_annotation()), False),
                               ("annotate + 1 us kernel (DEBUG)", None, True)):
        if body is None:
            def body() -> None:
                with kscope.annotate("s"):
                    torch.cuda._sleep(2000)

        @kscope.analyze.kernel(configs=[0], runs=2000, cache_control="none", thermal_mode="off",
                               verbosity=kscope.VerbosityLevel.DEBUG if debug else
                               kscope.VerbosityLevel.SILENT)
        def sweep(config: int) -> None:
            body()

        for call in (1, 2):
            t0 = time.perf_counter()
            try:
                sweep()
            except Exception as e:  # an empty region has no kernel: the sweep's cost still counts
                print(f"  ({type(e).__name__}: {str(e)[:100]})")
            wall = time.perf_counter() - t0
            print(f"sweep of 2000 runs, {label}, call {call}: {wall * 1e3:.1f} ms = "
                  f"{wall / 2000 * 1e6:.2f} us per run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
