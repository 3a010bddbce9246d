"""One description of the options: docs/options.md, the Python signature of
``kscope.analyze.kernel`` (and its docs/python.md table) and the C++ ``kscope::Options`` (its
header, include/kscope/options.hpp, and its bindings) must name the same options with the same
defaults. Adding an option to one and not the others fails here, naming what is missing where.

The C++ struct groups the options of one concern (``Options::thermal``, ...); everywhere else an
option has one flat name (``thermal_mode`` for ``thermal.mode``): FLAT_PREFIX and FLAT_RENAMED
below say how a grouped member is named flat, and the bindings must expose every member of the
header, grouped or not, under its flat name."""

from __future__ import annotations

import inspect
import math
import re
from pathlib import Path

import pytest

import kscope
from kscope._native import native

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
HEADER = ROOT / "include" / "kscope" / "options.hpp"

# The groups of kscope::Options (member name) and the prefix of their members' flat names ...
FLAT_PREFIX = {"adaptive": "", "region_capture": "region_capture_", "sanitizer": "sanitizer_",
               "thermal": "thermal_"}
# ... but for the members named otherwise.
FLAT_RENAMED = {"adaptive.enabled": "auto_runs"}

# Python keywords that are not engine options, and why.
PYTHON_ONLY = {
    "configs": "the sweep itself, not an option of a session",
    "thermal_mode": "set through ThermalController",
}
# Engine options the Python front sets itself (no keyword), and why.
ENGINE_ONLY = {
    "auto_runs": "Python's runs='auto'",
    "call_name": "set to 'kscope.analyze.kernel()'",
    "reexec_argv": "set from sys.executable and sys.argv",
    "reexec_unavailable": "set when the program cannot be re-run",
    "log": "sys.stdout",
    "on_warning": "warnings.warn",
    "interactive": "sys.stdout.isatty()",
    "on_progress": "tqdm in Jupyter",
    "sanitizer_checks": "kscope.sanitize()",
    "sanitizer_leak_check": "kscope.sanitize()",
    "sanitizer_print_limit": "kscope.sanitize()",
    "region_capture_begin": "cuda_graph=True: torch's capture (kscope.cuda_graphs)",
    "region_capture_end": "cuda_graph=True: torch's capture (kscope.cuda_graphs)",
    "region_capture_replay": "cuda_graph=True: torch's capture (kscope.cuda_graphs)",
    "region_capture_clear": "cuda_graph=True: torch's capture (kscope.cuda_graphs)",
}
# Disagreements this test found and that are not resolved yet, each with why. Remove an entry
# when its keyword lands; the test then guards it.
KNOWN_GAPS: dict[str, str] = {}


def table_names(path: Path, heading: str) -> list[str]:
    """The first-column names (`name`) of the markdown tables in `path` from `heading` to the
    next second-level heading."""
    text = path.read_text()
    text = text[text.index(heading) + len(heading):]
    end = text.find("\n## ")
    return re.findall(r"^\| `([a-z_]+)`", text if end < 0 else text[:end], flags=re.M)


def python_keywords() -> dict[str, inspect.Parameter]:
    params = inspect.signature(kscope.analyze.kernel).parameters
    return {k: p for k, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}


def engine_fields() -> set[str]:
    return {name for name in dir(native.Options()) if not name.startswith("_") and name != "validate"}


def struct_members(text: str, struct: str) -> list[tuple[str, str]]:
    """(type, name) of the data members of ``struct`` in the C++ ``text`` (comments removed)."""
    match = re.search(r"^struct " + struct + r" \{\n(.*?)^\};", text, flags=re.M | re.S)
    assert match, f"struct {struct} not found in {HEADER}"
    members = []
    for statement in match.group(1).split(";"):
        statement = re.sub(r"\s+", " ", statement).strip()
        if not statement or re.search(r"\)( const)?$", statement):
            continue  # a member function
        declaration = re.fullmatch(r"(.+?) ?\b(\w+)", re.sub(r" = .*$|\{[^{}]*\}$", "", statement))
        assert declaration, f"cannot read {struct}'s member `{statement}`"
        members.append((declaration.group(1), declaration.group(2)))
    return members


def header_options() -> dict[str, str]:
    """Every option of kscope::Options in its header, flat name -> C++ member (``thermal.mode``)."""
    text = re.sub(r"//.*", "", re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S))
    structs = set(re.findall(r"^struct (\w+) \{", text, flags=re.M))
    options: dict[str, str] = {}
    for type_, name in struct_members(text, "Options"):
        if type_ not in structs:
            options[name] = name
            continue
        assert name in FLAT_PREFIX, f"Options::{name} ({type_}) is a group FLAT_PREFIX lacks"
        for _, member in struct_members(text, type_):
            cpp = f"{name}.{member}"
            options[FLAT_RENAMED.get(cpp, FLAT_PREFIX[name] + member)] = cpp
    return options


def test_every_cpp_option_is_bound_under_its_flat_name():
    options = header_options()
    assert sorted(set(options) - engine_fields()) == []  # in the header, not bound (or misnamed)
    assert sorted(engine_fields() - set(options)) == []  # bound, not in the header
    assert sorted(set(FLAT_RENAMED) - set(options.values())) == []  # a rename of nothing


def test_group_comments_give_the_flat_names():
    """Each group's comment in the header names its members' flat names, for C++ readers."""
    text = HEADER.read_text()
    for flat, cpp in header_options().items():
        if "." not in cpp:
            continue
        group = re.search(r"^  (\w+) " + cpp.split(".")[0] + ";", text, flags=re.M)
        assert group, cpp
        comment = re.search(r"/\*\*((?:(?!\*/).)*)\*/\nstruct " + group.group(1) + " ", text,
                            flags=re.S)
        assert comment and re.search(rf"\b{flat}\b", comment.group(1)), (cpp, flat)


def test_every_python_keyword_is_documented_in_both_tables():
    options_md = set(table_names(DOCS / "options.md", "# Options"))
    python_md = set(table_names(DOCS / "python.md", "## `kscope.analyze.kernel`"))
    missing = {k: [where for where, names in (("docs/options.md", options_md),
                                              ("docs/python.md", python_md))
                   if k not in names and not (where == "docs/options.md" and k in PYTHON_ONLY)]
               for k in python_keywords()}  # fmt: skip
    assert {k: v for k, v in missing.items() if v} == {}


def test_every_engine_option_is_documented_and_reachable():
    options_md = set(table_names(DOCS / "options.md", "# Options"))
    fields = engine_fields()
    assert sorted(fields - options_md) == []
    keywords = set(python_keywords())
    assert sorted(fields - keywords - set(ENGINE_ONLY) - set(KNOWN_GAPS)) == []
    # A gap that was closed must leave KNOWN_GAPS (else the list hides nothing but lies).
    assert sorted(set(KNOWN_GAPS) & keywords) == []


def test_documented_options_exist():
    fields = engine_fields()
    keywords = set(python_keywords())
    assert sorted(set(table_names(DOCS / "options.md", "# Options")) - fields - keywords) == []


@pytest.mark.parametrize("name", sorted(set(python_keywords()) & engine_fields()))
def test_python_defaults_are_the_engines(name):
    default = python_keywords()[name].default
    engine = getattr(native.Options(), name)
    if default is None or callable(engine) or engine is None:
        return  # None means "the engine's default" (optional fields, callbacks)
    if isinstance(engine, float) and isinstance(default, (int, float)):
        assert math.isclose(engine, default), (name, default, engine)
    elif isinstance(default, (tuple, list)):
        assert list(default) == list(engine), (name, default, engine)
    elif name == "verbosity":
        assert int(default) == int(engine.value if hasattr(engine, "value") else engine)
    else:
        assert default == engine, (name, default, engine)


def options_md_defaults() -> dict[str, str]:
    """docs/options.md's options table: flat name -> its default column."""
    text = (DOCS / "options.md").read_text()
    text = text[text.index("| option | default | meaning |"):]
    text = text[:text.index("\n\n")]
    rows = re.findall(r"^\| `([a-z_]+)`[^|]*\| ([^|]*) \|", text, flags=re.M)
    return {name: default for name, default in rows}


def default_text(value: object) -> str | None:
    """How docs/options.md writes an engine default, or None where it describes it in words
    (empty texts and lists, unset optionals, callbacks, the verbosity level)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value:
        return f'`"{value}"`'
    if isinstance(value, list) and value:
        return "`[" + ", ".join(f'"{v}"' for v in value) + "]`"
    return None


@pytest.mark.parametrize("entry", native.option_table(), ids=lambda e: e["name"])
def test_options_md_agrees_with_the_option_table(entry):
    """docs/options.md lists every entry of the engine's option table (core/option_table.cpp)
    with its default."""
    documented = options_md_defaults()
    assert entry["name"] in documented
    if isinstance(entry["default"], (int, float)) and not isinstance(entry["default"], bool):
        assert float(documented[entry["name"]]) == entry["default"], entry["name"]
        return
    expected = default_text(entry["default"])
    if expected is not None and entry["type"] != "Verbosity":
        assert documented[entry["name"]] == expected, entry["name"]


def test_the_option_table_lists_every_bound_option():
    assert sorted(e["name"] for e in native.option_table()) == sorted(engine_fields())


def test_options_md_names_the_options_a_resumed_sweep_may_change():
    """docs/options.md's Resume section lists the options outside the sweep identity: those the
    option table stores with sweep_identity false."""
    text = (DOCS / "options.md").read_text()
    start = text.index("every option except those that change only what is")
    listed = set(re.findall(r"`([a-z_]+)`", text[start:text.index(").", start)]))
    free = {e["name"] for e in native.option_table() if e["stored"] and not e["sweep_identity"]}
    assert sorted(listed) == sorted(free)
