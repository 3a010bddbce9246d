"""A GPU-free stand-in for the engine's ``profile`` (used by the ``fake_engine`` fixture).

It drives the Python callbacks through ``_kscope._test_drive_callbacks`` (from C++, with the
GIL released, like the real engine), then writes an engine-format JSON result with synthetic
values and loads it with the engine's ``Results.load``. Values: metric ``i`` of config ``c`` in
run ``r`` is ``100 * (c + 1) + r + i``; derived metrics are what ``derive_metric`` returned for
metric values 1.0, 2.0, ...
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from typing import Any

from kscope._native import native


def _num(x: float) -> float | None:
    return x if math.isfinite(x) else None


def _stats(values: list[float]) -> dict[str, Any]:
    n = len(values)
    mean = sum(values) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else math.nan
    rel = 100 * std / abs(mean) if n > 1 and mean != 0 else math.nan
    half = native.student_t_quantile(0.975, n - 1) * std / math.sqrt(n) if n > 1 else math.nan
    return {
        "AvgValue": mean,
        "StdDev": _num(std),
        "MinValue": min(values),
        "MaxValue": max(values),
        "NumRuns": n,
        "CI95_Lower": _num(mean - half),
        "CI95_Upper": _num(mean + half),
        "RelativeStdDevPct": _num(rel),
        "StableMeasurement": None if math.isnan(rel) else rel < 2.0,
    }


class FakeEngine:
    """Records the sessions it was asked to run (``calls``) and returns their Results."""

    annotation = "fake"
    kernel = "fake_kernel"

    def __init__(self, directory: str) -> None:
        self.directory = directory
        #: sent to options.on_warning by the next sessions ("" for none)
        self.warning = ""
        #: multiplies every measured value (a slower "kernel" for compare tests)
        self.scale = 1.0
        self.calls: list[dict[str, Any]] = []
        self._ids: dict[str, int] = defaultdict(int)

    def profile(self, name: str, configs: list[Any], fn: Any, options: Any) -> Any:
        derived, combined = native._test_drive_callbacks(configs, fn, options, self.warning)
        session_id = self._ids[name]
        self._ids[name] += 1
        self.calls.append(
            {"name": name, "configs": configs, "options": options, "derived": derived,
             "combined": combined}
        )  # fmt: skip
        path = os.path.join(self.directory, f"fake-{name}-{session_id}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self._document(name, session_id, configs, options, derived), f)
        return native.Results.load(path)

    def _document(self, name: str, session_id: int, configs: list[Any], options: Any,
                  derived: list[list[Any]]) -> dict[str, Any]:  # fmt: skip
        raw, processed = [], []
        metrics = list(options.metrics)
        for c, config in enumerate(configs):
            for i, metric in enumerate(metrics):
                values = [self.scale * (100.0 * (c + 1) + r + i) for r in range(options.runs)]
                for r, v in enumerate(values):
                    raw.append({"Annotation": self.annotation, "Value": v, "Metric": metric,
                                "Kernel": self.kernel, "Unit": "ns", "config": c, "run": r})
                processed.append(self._row(metric, c, "ns", values))
            for d in derived[c] if derived else []:
                raw.append({"Annotation": self.annotation, "Value": _num(d.value),
                            "Metric": d.name, "Kernel": self.kernel, "Unit": d.unit,
                            "config": c, "run": 0})
                processed.append(self._row(d.name, c, d.unit, [d.value]))
        return {
            "schema_version": native.SCHEMA_VERSION,
            "kind": "kscope.results",
            "name": name,
            "id": session_id,
            "options": {"runs": options.runs, "metrics": metrics, "tool": options.tool},
            "metadata": {"gpu": "Fake GPU", "host": "fakehost", "compute_clock_khz": 1980000,
                         "memory_clock_khz": 2619000, "tool": options.tool},
            "parameters": list(configs[0].names) if configs else [],
            "configs": [{"index": i, "label": c.label, "values": c.values}
                        for i, c in enumerate(configs)],
            "raw": raw,
            "processed": processed,
        }  # fmt: skip

    def _row(self, metric: str, config: int, unit: str | None, values: list[float]) -> dict:
        finite = [v for v in values if math.isfinite(v)]
        stats = _stats(finite) if finite else {}
        return {"Annotation": self.annotation, "Metric": metric, "config": config,
                "Kernel": self.kernel, "Unit": unit, "Normalized": False, "Geomean": None,
                **{k: stats.get(k) for k in ("AvgValue", "StdDev", "MinValue", "MaxValue",
                                             "CI95_Lower", "CI95_Upper", "RelativeStdDevPct",
                                             "StableMeasurement")},
                "NumRuns": stats.get("NumRuns", 0)}  # fmt: skip
