"""One description of the columns: docs/output-schema.md's processed and raw tables name the
columns, in order, of the DataFrames (``to_dataframe``, ``raw_dataframe``) and of the CSV files
the engine writes; a column added to one and not the others fails here, naming it. Checked on
the engine's real Session without a device (``_test_profile_without_device``), plain, with
``runs="auto"`` (StopReason) and normalised (NormalizationValue)."""

from __future__ import annotations

import glob
import os
import re
from pathlib import Path

import pytest

import kscope
from kscope._native import native

DOC = Path(__file__).resolve().parents[2] / "docs" / "output-schema.md"
SILENT = kscope.VerbosityLevel.SILENT
# Documented columns that only some results have, and when.
CONDITIONAL = {"NormalizationValue": "normalize_against", "StopReason": "runs='auto'",
               "Error": "a config failed with on_config_error='skip'"}


def documented_processed() -> list[str]:
    """The names in the first column of the processed table, in order (``*parameters*`` kept)."""
    text = DOC.read_text()
    section = text[text.index("## Processed table"):text.index("## Raw table")]
    names: list[str] = []
    for line in section.splitlines():
        if line.startswith("| *parameters*"):
            names.append("*parameters*")
        elif line.startswith("| `"):
            names += re.findall(r"`([A-Za-z0-9_]+)`", line.split("|")[1])
    return names


def documented_raw() -> list[str]:
    text = DOC.read_text()
    section = text[text.index("## Raw table"):]
    listed = re.search(r"`(Annotation, Value, [^`]*)`", section)
    assert listed, "the raw table's column list is missing from docs/output-schema.md"
    return [c.strip() for c in listed.group(1).split(",")]


def sweep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **options: object) -> kscope.ProfileResults:
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)

    options = {"runs": 3, **options}

    @kscope.analyze.kernel(configs=[(1, "a"), (2, "b")], verbosity=SILENT,
                           output_prefix=f"{tmp_path}/", output_csv=True, **options)  # type: ignore[arg-type]
    def bench(n, kind):
        with kscope.annotate("first"):
            pass
        with kscope.annotate("second"):
            pass

    return bench()


def csv_header(tmp_path: Path, kind: str) -> list[str]:
    (path,) = glob.glob(os.path.join(tmp_path, f"{kind}_data-*.csv"))
    with open(path) as f:
        return f.readline().strip().split(",")


@pytest.mark.parametrize("options, present", [
    ({}, set()),
    ({"runs": "auto", "max_runs": 10}, {"StopReason"}),
    ({"normalize_against": "first"}, {"NormalizationValue"}),
])  # fmt: skip
def test_processed_columns_are_the_documented_ones_in_order(tmp_path, monkeypatch, options, present):
    results = sweep(tmp_path, monkeypatch, **options)
    expected: list[str] = []
    for name in documented_processed():
        if name == "*parameters*":
            expected += ["n", "kind"]
        elif name not in CONDITIONAL or name in present:
            expected.append(name)
    assert list(results.to_dataframe().columns) == expected
    assert csv_header(tmp_path, "processed") == expected


def test_raw_columns_are_the_documented_ones_in_order(tmp_path, monkeypatch):
    results = sweep(tmp_path, monkeypatch)
    expected: list[str] = []
    for name in documented_raw():
        if name == "<parameters...>":
            expected += ["n", "kind"]
        elif name != "<info collectors...>":
            expected.append(name)
    assert list(results.raw_dataframe().columns) == expected
    assert csv_header(tmp_path, "profiled") == expected
