"""docs/cli.md cannot drift from the command: its exit-status table is what ``kscope --help``
prints, and every row of its table of errors is run here and must give that status and that
first line of stderr. errors.md and environment.md point to it instead of repeating it."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil

import pytest
from cli_helpers import needs_engine_tool, run_kscope
from plot_helpers import GOLDEN, PYTHON_DIR

import kscope

ROOT = os.path.dirname(PYTHON_DIR)
DOCS = os.path.join(ROOT, "docs")

pytestmark = needs_engine_tool


def _doc(name: str) -> str:
    with open(os.path.join(DOCS, name), encoding="utf-8") as f:
        return f.read()


def _section(text: str, heading: str) -> str:
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def _table(section: str) -> list[list[str]]:
    """The rows of the first markdown table of ``section`` (header and rule dropped); a cell
    in backticks is given without them."""
    lines = [line for line in section.splitlines() if line.startswith("|")]
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        rows.append([c[1:-1] if c.startswith("`") and c.endswith("`") else c for c in cells])
    return rows


def _help_statuses() -> list[tuple[str, str]]:
    text = run_kscope("--help").stdout.split("Exit status:\n", 1)[1]
    rows: list[tuple[str, str]] = []
    for line in text.splitlines():
        if re.match(r"^  \S", line):
            status, meaning = line.split(maxsplit=1)
            rows.append((status, meaning))
        elif line.strip():  # a meaning's continuation line
            rows[-1] = (rows[-1][0], f"{rows[-1][1]} {line.strip()}")
    return rows


def test_the_exit_status_table_is_what_help_prints():
    documented = [(s, m) for s, m in _table(_section(_doc("cli.md"), "Exit status"))]
    assert documented == _help_statuses()


def _sweep_journal(path: str, slow: float) -> None:
    """A journal of one sweep over n = 1, 2 of annotation "k", 12 runs each; ``slow`` scales
    every time."""
    header = {"schema_version": "1.0", "kind": "kscope.journal", "name": "sweep", "id": 0,
              "metadata": {"gpu": "NVIDIA H200", "tool": "cupti"}, "options": {}, "parameters": ["n"],
              "configs": [{"values": [1]}, {"values": [2]}]}  # fmt: skip
    runs, records = [], []
    for config in (0, 1):
        for run in range(12):
            value = (1000.0 * (config + 1) + (run * 7) % 5) * slow
            runs.append({"config": config, "run": run, "entered": ["k"], "failed": []})
            records.append({"annotation": "k", "kernel": "vadd", "config": config, "run": run,
                            "metrics": [["gpu__time_duration.sum", value, "ns"]]})  # fmt: skip
    lines = [header, {"kind": "runs", "runs": runs, "records": records},
             {"kind": "end", "error": ""}]  # fmt: skip
    with open(path, "w") as f:
        f.write("".join(json.dumps(line) + "\n" for line in lines))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> str:
    """The files docs/cli.md's table of errors names."""
    here = tmp_path_factory.mktemp("cli_docs")
    shutil.copy(os.path.join(GOLDEN, "plot", "vadd_sweep.json"), here / "vadd.json")
    for name, slow in (("base", 1.0), ("slower", 1.2)):
        _sweep_journal(str(here / f"{name}.jsonl"), slow)
        kscope.load(str(here / f"{name}.jsonl")).to_json(here / f"{name}.json")
    (here / "broken.json").write_text('{"kind":')
    (here / "array.json").write_text("[1]")
    (here / "blank.json").write_text("")
    (here / "empty").mkdir()
    return str(here)


ERRORS = _table(_section(_doc("cli.md"), "Errors"))


@pytest.mark.parametrize(("command", "status", "stderr"), ERRORS, ids=[r[0] for r in ERRORS])
def test_every_documented_error_is_what_the_command_returns(folder, command, status, stderr):
    args = shlex.split(command)
    assert args[0] == "kscope"
    done = run_kscope(*args[1:], cwd=folder)
    assert done.returncode == int(status), done.stderr
    first = done.stderr.splitlines()[0] if done.stderr else ""
    if stderr == "(none)":
        assert done.stderr == ""
    elif stderr.endswith("..."):
        assert first.startswith(stderr[:-3]), first
    else:
        assert first == stderr
    if done.returncode == 2:
        assert done.stderr.splitlines()[1].startswith("Run 'kscope "), done.stderr


def test_the_errors_table_shows_every_status_a_command_line_can_give():
    statuses = {s for s, _ in _help_statuses()} - {"128+N"}  # test_cli.py sends the signal
    assert {row[1] for row in ERRORS} == statuses


def test_errors_md_points_to_the_one_table():
    errors = _doc("errors.md")
    assert "(cli.md#exit-status)" in errors
    assert "| status |" not in errors


def test_environment_md_names_every_subcommand_the_executable_serves():
    row = next(line for line in _doc("environment.md").splitlines()
               if line.startswith("| `KSCOPE_CLI` |"))  # fmt: skip
    served = re.findall(r"^  ([a-z][a-z-]+)\s", run_kscope("--help").stdout.split(
        "Subcommands:\n")[1].split("\n\n")[0], flags=re.M)  # fmt: skip
    assert served[-1] == "plot"
    for name in served[:-1]:
        assert f"`{name}`" in row, name
