#!/usr/bin/env python3
"""Draws a kscope trace (``kscope show --format trace``) as one offline HTML page of SVG tracks.

    scripts/trace_view.py trace.json trace.html

ui.perfetto.dev is the viewer to use; this page exists for machines that cannot reach it (and
for the picture in docs/outputs.md, taken in headless Chromium): one lane per track (the host's
session phases, nested slices stacked; each GPU stream's kernels; each telemetry counter as a
line), on one time axis. Slices are coloured by category; hover shows name and duration.
"""

from __future__ import annotations

import html
import json
import sys
from typing import Any

COLORS = {"config": "#c6dbef", "run": "#9ecae1", "pass": "#6baed6", "phase": "#fdae6b",
          "region": "#e6550d", "thermal": "#d62728", "kernel": "#31a354"}  # fmt: skip
WIDTH, LEFT, ROW = 1500, 190, 18


def render(trace: dict[str, Any]) -> str:
    events = trace["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    procs = {e["pid"]: e["args"]["name"] for e in events if e["name"] == "process_name"}
    slices = [e for e in events if e["ph"] == "X"]
    counters = [e for e in events if e["ph"] == "C"]
    t1 = max([e["ts"] + e["dur"] for e in slices] + [e["ts"] for e in counters] + [1.0])
    x = lambda ts: LEFT + (WIDTH - LEFT - 10) * ts / t1  # noqa: E731
    out: list[str] = []
    y = 30
    tracks: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for e in slices:
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    for key, items in sorted(tracks.items()):
        label = f"{procs.get(key[0], key[0])} / {names.get(key, key[1])}"
        ends: list[float] = []
        rows: list[tuple[int, dict[str, Any]]] = []
        for e in items:  # the trace lists an enclosing slice before what it contains
            while ends and ends[-1] <= e["ts"] + 1e-6:
                ends.pop()
            rows.append((len(ends), e))
            ends.append(e["ts"] + e["dur"])
        depth = max(d for d, _ in rows) + 1
        out.append(f'<text x="4" y="{y + 13}" font-weight="bold">{html.escape(label)}</text>')
        for d, e in rows:
            w = max(x(e["ts"] + e["dur"]) - x(e["ts"]), 0.5)
            tip = html.escape(f'{e["name"]}: {e["dur"]:.3f} us')
            out.append(f'<rect x="{x(e["ts"]):.2f}" y="{y + d * ROW}" width="{w:.2f}" '
                       f'height="{ROW - 2}" fill="{COLORS.get(e.get("cat", ""), "#bbb")}">'
                       f'<title>{tip}</title></rect>')  # fmt: skip
            if w > 7 * len(e["name"]):
                out.append(f'<text x="{x(e["ts"]) + 2:.2f}" y="{y + d * ROW + 12}">'
                           f'{html.escape(e["name"])}</text>')  # fmt: skip
        y += depth * ROW + 16
    by_name: dict[str, list[dict[str, Any]]] = {}
    for e in counters:
        by_name.setdefault(e["name"], []).append(e)
    for name, items in by_name.items():
        unit, _ = next(iter(items[0]["args"].items()))
        values = [float(e["args"][unit]) for e in items]
        lo, hi = min(values), max(values)
        span = (hi - lo) or 1.0
        pts = " ".join(f'{x(e["ts"]):.2f},{y + 40 - 36 * (v - lo) / span:.2f}'
                       for e, v in zip(items, values))  # fmt: skip
        out.append(f'<text x="4" y="{y + 13}" font-weight="bold">{html.escape(name)} '
                   f'({html.escape(unit)}, {lo:g}..{hi:g})</text>')  # fmt: skip
        out.append(f'<polyline fill="none" stroke="#756bb1" stroke-width="1.5" points="{pts}"/>')
        y += 56
    axis = [f'<line x1="{LEFT}" x2="{WIDTH - 10}" y1="16" y2="16" stroke="black"/>']
    for i in range(11):
        ts = t1 * i / 10
        axis.append(f'<text x="{x(ts):.2f}" y="12" text-anchor="middle">{ts:,.1f} us</text>')
    other = html.escape(str(trace.get("otherData", {}).get("timeline", "")))
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>kscope trace</title></head>"
            "<body style='margin:8px;font-family:sans-serif'>"
            f"<div style='font-size:13px'>kscope trace, timeline {other}</div>"
            f"<svg width='{WIDTH}' height='{y + 10}' font-family='sans-serif' font-size='11'>"
            + "".join(axis + out) + "</svg></body></html>\n")  # fmt: skip


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: trace_view.py TRACE.json OUT.html", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        trace = json.load(f)
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(render(trace))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
