"""What a notebook shows for ProfileResults and Comparison (``_repr_html_``): the engine's
tables as HTML, every text escaped, at most ``pandas.options.display.max_rows`` rows with a
line saying how many were left out, the compare verdicts coloured and classed."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

import kscope
from kscope._native import native
from kscope.comparison import VERDICT_COLORS

SILENT = kscope.VerbosityLevel.SILENT


def sweep(fake_engine, scale: float, configs=((1,), (2,), (3,)), annotation="a<b>&'c'"):
    fake_engine.scale = scale
    fake_engine.annotation = annotation

    @kscope.analyze.kernel(configs=list(configs), runs=10, verbosity=SILENT)
    def bench(n):
        with kscope.annotate("fake"):
            pass

    return bench()


def body_rows(html: str) -> list[list[str]]:
    """The cells of every <tbody> row, as written (still escaped)."""
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)]


def test_results_are_an_html_table_with_every_text_escaped(fake_engine):
    html = sweep(fake_engine, 1.0)._repr_html_()
    assert html.startswith('<div class="kscope-results">\n<p><strong>kscope: bench #0</strong>: '
                           "Fake GPU, fakehost</p>\n<table>\n")  # fmt: skip
    assert ("<thead><tr><th>Annotation</th><th>n</th><th>Metric</th><th>Unit</th><th>Avg</th>"
            "<th>Median</th><th>StdDev</th><th>Min</th><th>Max</th><th>Runs</th><th>RSD%</th>"
            "<th>Stable</th></tr></thead>") in html  # fmt: skip
    rows = body_rows(html)
    assert [r[:5] for r in rows] == [
        ["a&lt;b&gt;&amp;&#39;c&#39;", str(n), "gpu__time_duration.sum", "ns", avg]
        for n, avg in [(1, "104.500"), (2, "204.500"), (3, "304.500")]]  # fmt: skip
    assert "<b>" not in html and "'c'" not in html
    assert 'id="' not in html  # a notebook shows many tables on one page
    assert "left out" not in html


def test_big_results_show_the_first_rows_and_say_how_many_were_left_out(fake_engine):
    results = sweep(fake_engine, 1.0, configs=[(n,) for n in range(1, 8)])
    with pd.option_context("display.max_rows", 3):
        html = results._repr_html_()
    assert [r[1] for r in body_rows(html)] == ["1", "2", "3"]
    assert '<p class="kscope-more">The first 3 of 7 rows; 4 left out.</p>' in html
    with pd.option_context("display.max_rows", None):
        assert len(body_rows(results._repr_html_())) == 7


def test_comparisons_colour_their_verdicts_and_keep_the_text(fake_engine):
    base = sweep(fake_engine, 1.0, configs=[(1,), (2,)])
    new = sweep(fake_engine, 1.2, configs=[(1,), (3,)])
    html = kscope.compare(base, new, threshold="5%")._repr_html_()
    assert html.startswith(
        '<div class="kscope-comparison">\n<p><strong>kscope compare</strong>: BASE '
        "<code>bench</code> vs NEW <code>bench</code>: 1 SLOWER, 1 BASE_ONLY, 1 NEW_ONLY; SLOWER "
        "beyond the threshold of 5%</p>\n")  # fmt: skip
    verdicts = re.findall(r'<td class="kscope-verdict ([a-z-]+)" style="([^"]*)">([^<]*)</td>',
                          html)  # fmt: skip
    assert verdicts == [
        ("kscope-verdict-slower", "background:#cf222e;color:#fff;font-weight:bold",
         "SLOWER (beyond threshold)"),
        ("kscope-verdict-base-only", "background:#0969da;color:#fff;font-weight:bold", "BASE_ONLY"),
        ("kscope-verdict-new-only", "background:#8250df;color:#fff;font-weight:bold", "NEW_ONLY"),
    ]  # fmt: skip
    rows = body_rows(html)
    assert [r[:2] for r in rows] == [["a&lt;b&gt;&amp;&#39;c&#39;", "n=1"]] + [
        ["a&lt;b&gt;&amp;&#39;c&#39;", c] for c in ("n=2", "n=3")]  # fmt: skip
    assert rows[0][6] == "1.200"  # Ratio


def test_the_colours_are_one_table_for_html_and_plot(fake_engine):
    assert VERDICT_COLORS == {"FASTER": "#1a7f37", "SLOWER": "#cf222e", "SAME": "#6e7781",
                              "UNSURE": "#9a6700", "BASE_ONLY": "#0969da",
                              "NEW_ONLY": "#8250df"}  # fmt: skip
    assert VERDICT_COLORS == dict(native.verdict_colors())
    faster = kscope.compare(sweep(fake_engine, 1.0), sweep(fake_engine, 0.5))._repr_html_()
    assert faster.count(f"background:{VERDICT_COLORS['FASTER']}") == 3


def test_a_comparisons_warnings_are_escaped_and_a_long_one_is_cut(fake_engine, tmp_path):
    base = sweep(fake_engine, 1.0, configs=[(n,) for n in range(1, 6)])
    base.to_json(tmp_path / "base.json")
    doc = json.loads((tmp_path / "base.json").read_text())
    doc["metadata"]["gpu"] = "GPU <A100>"
    (tmp_path / "base.json").write_text(json.dumps(doc))
    c = kscope.compare(tmp_path / "base.json", base)
    with pd.option_context("display.max_rows", 2):
        html = c._repr_html_()
    assert ('<p class="warn">warning: BASE and NEW were measured with different GPUs: BASE '
            "&#39;GPU &lt;A100&gt;&#39;, NEW &#39;Fake GPU&#39;</p>") in html  # fmt: skip
    assert len(body_rows(html)) == 2
    assert '<p class="kscope-more">The first 2 of 5 rows; 3 left out.</p>' in html
    assert html.count('class="kscope-verdict kscope-verdict-same"') == 2


@pytest.mark.parametrize("value, expected", [(60, 60), (None, 0), (0, 0), (5, 5)])
def test_the_row_limit_is_pandas_display_max_rows(value, expected):
    with pd.option_context("display.max_rows", value):
        assert kscope.utils.notebook_max_rows() == expected
