"""Output formats from Python: ``ProfileResults.write``/``render`` and ``kscope.output_formats``
reach every format the engine registers; the trace of a live session (the engine's real session
without a device: ``_kscope._test_profile_without_device``) and of saved files follows the trace
event format; the HTML report renders in headless Chromium with no console message and no
network request (skipped without Chromium). With ``KSCOPE_UPDATE_SCREENSHOTS=1`` the browser
tests rewrite docs/images/trace_cpu_session.png and docs/images/html_report.png."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from cli_helpers import needs_engine_tool, run_kscope

import kscope
from kscope._native import native
from kscope.exceptions import InvalidArgumentError, ProfilerException

import browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "tests", "fixtures", "golden")
SWEEP = os.path.join(GOLDEN, "plot", "vadd_sweep.json")
TELEMETRY = os.path.join(GOLDEN, "python", "cpp_telemetry.json")
IMAGES = os.path.join(ROOT, "docs", "images")
FORMATS = ["table", "csv", "raw-csv", "findings-csv", "json", "parquet", "trace", "html", "md"]
#: The formats that write text (render gives it); "parquet" writes a binary file.
TEXT_FORMATS = [f for f in FORMATS if f != "parquet"]
needs_chromium = pytest.mark.skipif(browser.chromium() is None, reason=browser.SKIP_REASON)


def trace_problems(doc: dict) -> list[str]:
    """What in `doc` breaks the trace event format: missing fields, time going back on a
    track, slices that leave the slice enclosing them."""
    problems = []
    last: dict = {}
    ends: dict = {}
    for i, e in enumerate(doc["traceEvents"]):
        missing = [k for k in ("name", "ph", "pid", "tid") if k not in e]
        if missing:
            problems.append(f"event {i} lacks {missing}")
            continue
        if e["ph"] == "M":
            continue
        track = (e["pid"], e["tid"]) if e["ph"] == "X" else (e["pid"], e["name"])
        if e["ts"] < last.get(track, float("-inf")):
            problems.append(f"event {i} goes back in time")
        last[track] = e["ts"]
        if e["ph"] == "X":
            assert e["dur"] >= 0
            stack = ends.setdefault(track, [])
            while stack and stack[-1] <= e["ts"] + 1e-6:
                stack.pop()
            if stack and e["ts"] + e["dur"] > stack[-1] + 1e-6:
                problems.append(f"event {i} ({e['name']}) leaves its enclosing slice")
            stack.append(e["ts"] + e["dur"])
        else:
            assert e["ph"] == "C" and all(isinstance(v, (int, float)) for v in e["args"].values())
    return problems


@pytest.fixture
def cpu_session(monkeypatch, tmp_path):
    """A live sweep through the engine's real session without a device: 3 configs, 1 warm-up and
    3 measured runs, cache flush at every region entry, each run some host work in region 'add'."""
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)

    @kscope.analyze.kernel(configs=[1 << 12, 1 << 14, 1 << 16], runs=3, warmup_runs=1,
                           output_prefix=f"{tmp_path}/", verbosity=kscope.VerbosityLevel.SILENT,
                           thermal_mode="off")  # fmt: skip
    def vadd(n):
        with kscope.annotate("add"):
            sum(range(20_000))  # the same host work in every config

    return vadd()


def test_output_formats_lists_every_registered_format():
    assert [f.name for f in kscope.output_formats()] == FORMATS
    assert kscope.output_formats()[6] == kscope.OutputFormat(
        "trace", ".json", "the session as a Perfetto / Chrome trace (ui.perfetto.dev, chrome://tracing)")


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_every_format_from_a_saved_result(fmt, tmp_path):
    results = kscope.load(SWEEP)
    path = tmp_path / f"out-{fmt}"
    results.write(fmt, path)
    text = path.read_text(encoding="utf-8")
    assert text == results.render(fmt)
    start = {"table": "kscope results: vadd_sweep #0", "csv": "Annotation,Metric,", "raw-csv":
             "Annotation,Value,Metric", "findings-csv": "Check,Kind", "json": "{", "trace":
             '{"traceEvents": [', "html": "<!DOCTYPE html>", "md": "## kscope: vadd_sweep #0"}
    assert text.startswith(start[fmt])


def test_json_keeps_the_python_config_values(tmp_path):
    results = kscope.load(os.path.join(GOLDEN, "python", "python_objects.json"))
    results.write("json", tmp_path / "a.json")
    results.to_json(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    assert json.loads(results.render("json")) == json.loads((tmp_path / "b.json").read_text())


def test_unknown_format_is_an_invalid_argument_naming_the_formats(tmp_path):
    with pytest.raises(InvalidArgumentError) as e:
        kscope.load(SWEEP).write("pdf", tmp_path / "x.pdf")
    assert str(e.value) == ("unknown output format 'pdf' (expected one of: table, csv, raw-csv, "
                            "findings-csv, json, parquet, trace, html, md)")  # fmt: skip
    assert not (tmp_path / "x.pdf").exists()


def test_unwritable_path_names_it():
    with pytest.raises(ProfilerException) as e:
        kscope.load(SWEEP).write("md", "/nonexistent-dir/r.md")
    assert str(e.value) == "cannot write '/nonexistent-dir/r.md': No such file or directory"


@pytest.mark.parametrize("fmt", ["json", "md"])
def test_unwritable_path_is_the_engine_error_for_every_format(fmt, tmp_path):
    # "json" raised a builtin FileNotFoundError where the other formats and the CLI say
    # "cannot write" (issue 38).
    with pytest.raises(ProfilerException) as e:
        kscope.load(SWEEP).write(fmt, tmp_path / "nonexistent" / "r")
    assert str(e.value) == f"cannot write '{tmp_path}/nonexistent/r': No such file or directory"


@pytest.mark.parametrize("call", ["write", "render"])
def test_format_that_is_no_str_is_a_type_error_naming_the_formats(call, tmp_path):
    # None gave nanobind's signature dump (issue 38).
    results = kscope.load(SWEEP)
    with pytest.raises(TypeError) as e:
        results.write(None, tmp_path / "x") if call == "write" else results.render(None)
    assert str(e.value) == ("format must be a str (one of: table, csv, raw-csv, findings-csv, "
                            "json, parquet, trace, html, md), got None")  # fmt: skip


@pytest.mark.parametrize("fmt", ["html", "json"])
def test_compare_that_is_no_result_is_a_type_error(fmt, tmp_path):
    # compare="x" raised AttributeError: 'str' object has no attribute '_results' (issue 38).
    with pytest.raises(TypeError) as e:
        kscope.load(SWEEP).write(fmt, tmp_path / "x", compare="x")
    assert str(e.value) == ("compare must be a ProfileResults (the baseline, e.g. "
                            "kscope.load(path)) or None, got 'x'")  # fmt: skip
    assert not (tmp_path / "x").exists()


def test_a_baseline_for_a_format_without_a_compare_table_is_refused(tmp_path):
    # It was ignored without a word (issue 38).
    with pytest.raises(InvalidArgumentError) as e:
        kscope.load(SWEEP).write("csv", tmp_path / "x.csv", compare=kscope.load(SWEEP))
    assert str(e.value) == (
        "format 'csv' has no compare table: a baseline (kscope show --compare, compare=) applies "
        "to html, md only. Leave it out, or choose one of those.")
    assert not (tmp_path / "x.csv").exists()


def test_compare_table_in_markdown():
    results = kscope.load(SWEEP)
    md = results.render("md", compare=kscope.load(SWEEP))
    assert "### Compared with vadd_sweep #0" in md
    same = kscope.compare(kscope.load(SWEEP), kscope.load(SWEEP))
    assert md.endswith(same.markdown())  # kscope compare's table, its verdicts


def test_live_session_trace_has_the_phases_and_the_kernels(cpu_session, tmp_path):
    timeline = cpu_session.engine_results.timeline
    assert {p.phase for p in timeline.phases} >= {"environment before", "benchmark", "journal",
                                                   "region entry"}  # fmt: skip
    assert len(timeline.kernels) == 9 and {k.stream for k in timeline.kernels} == {7}
    cpu_session.write("trace", tmp_path / "t.json")
    doc = json.loads((tmp_path / "t.json").read_text())
    assert trace_problems(doc) == []
    names = [e["name"] for e in doc["traceEvents"]]
    assert names.count("add_kernel") == 9
    for name in ("config 0: n=4096", "warm-up run 0", "run 2", "L2 flush: add", "benchmark"):
        assert name in names, name
    assert doc["otherData"]["timeline"] == "recorded (host steady clock)"


def test_live_session_keeps_its_timeline_through_the_journal_and_json(cpu_session, tmp_path):
    journal = kscope.load(cpu_session.journal_path)
    assert len(journal.engine_results.timeline.phases) == len(cpu_session.engine_results.timeline.phases)
    cpu_session.to_json(tmp_path / "r.json")
    again = kscope.load(tmp_path / "r.json")
    assert again.render("trace") == cpu_session.render("trace")


def test_saved_result_without_timestamps_gets_a_synthetic_trace_with_counters():
    doc = json.loads(kscope.load(TELEMETRY).render("trace"))
    assert trace_problems(doc) == []
    assert doc["otherData"]["timeline"].startswith("synthetic")
    counters = {e["name"] for e in doc["traceEvents"] if e["ph"] == "C"}
    assert counters == {"SM clock", "GPU temperature", "Power"}


def test_cli_reaches_every_format(tmp_path):
    for fmt in FORMATS:
        proc = subprocess.run([sys.executable, "-m", "kscope", "show", SWEEP, "--format", fmt,
                               "-o", str(tmp_path / fmt)], capture_output=True, text=True)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        if fmt == "parquet":
            assert kscope.load(tmp_path / fmt).render("json") == kscope.load(SWEEP).render("json")
            continue
        assert (tmp_path / fmt).read_text() == kscope.load(SWEEP).render(fmt) or fmt == "json"


def _update(png: str, name: str) -> None:
    if os.environ.get("KSCOPE_UPDATE_SCREENSHOTS"):
        shutil.copyfile(png, os.path.join(IMAGES, name))


@needs_chromium
def test_html_report_renders_with_no_console_message_and_no_request(tmp_path):
    page = tmp_path / "report.html"
    results = kscope.load(SWEEP)
    results.write("html", page, compare=kscope.load(SWEEP))
    run = browser.open_page(str(page))
    assert run.console == []
    assert run.requests == []
    assert run.dom.count("<svg ") == 2  # gpu__time_duration.sum, dram__bytes.sum
    assert '<table id="processed">' in run.dom and '<div class="kscope-comparison">' in run.dom
    # The picture: a short result, so that the plots are in it too.
    small = kscope.load(os.path.join(GOLDEN, "python", "cpp_matmul_sweep.json"))
    small.write("html", page)
    assert browser.open_page(str(page)).console == []
    png = str(tmp_path / "report.png")
    browser.screenshot(str(page), png, 1100, 1500)
    assert os.path.getsize(png) > 20_000
    _update(png, "html_report.png")


@needs_chromium
def test_the_checks_see_console_messages_and_requests(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><img src="http://example.invalid/x.png">'
                    '<script>console.error("boom")</script>')  # fmt: skip
    run = browser.open_page(str(page))
    assert len(run.console) == 1 and '"boom"' in run.console[0]
    assert run.requests == ["http://example.invalid/x.png"]


@needs_chromium
def test_trace_of_a_live_session_drawn_in_the_browser(cpu_session, tmp_path):
    cpu_session.write("trace", tmp_path / "t.json")
    view = tmp_path / "t.html"
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "trace_view.py"),
                           str(tmp_path / "t.json"), str(view)], capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    run = browser.open_page(str(view))
    assert run.console == [] and run.requests == []
    assert "kscope host: vadd / session phases" in run.dom and "GPU 0" in run.dom
    png = str(tmp_path / "trace.png")
    browser.screenshot(str(view), png, 1500, 190)
    assert os.path.getsize(png) > 10_000
    _update(png, "trace_cpu_session.png")


def _with_absolute_paths(tmp_path) -> str:
    """The sweep golden as measured with files under /home/alice."""
    doc = json.load(open(SWEEP))
    doc["options"]["output_prefix"] = "/home/alice/runs/kscope_a1b2/"
    doc["options"]["resume"] = "/home/alice/runs/kscope_a1b2/journal-vadd-0.jsonl"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_reports_show_absolute_paths_only_when_asked(tmp_path):
    results = kscope.load(_with_absolute_paths(tmp_path))
    for fmt in ("md", "html"):
        shared = results.render(fmt)
        assert "/home/alice" not in shared and ".../journal-vadd-0.jsonl" in shared
        assert "/home/alice/runs/kscope_a1b2/" in results.render(fmt, full_paths=True)
    results.write("md", tmp_path / "r.md", full_paths=True)
    assert "/home/alice/runs/kscope_a1b2/" in (tmp_path / "r.md").read_text()


@needs_engine_tool
def test_kscope_show_full_paths(tmp_path):
    args = ("show", _with_absolute_paths(tmp_path), "-f", "md")
    plain = run_kscope(*args)
    full = run_kscope(*args, "--full-paths")
    assert "| output_prefix | .../kscope_a1b2/ |" in plain.stdout
    assert "/home/alice" not in plain.stdout
    assert "| output_prefix | /home/alice/runs/kscope_a1b2/ |" in full.stdout
