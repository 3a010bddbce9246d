"""One description of the options: docs/options.md, the Python signature of
``kscope.analyze.kernel`` (and its docs/python.md table) and the C++ ``kscope::Options`` (through
its bindings) must name the same options with the same defaults. Adding an option to one and not
the others fails here, naming what is missing where."""

from __future__ import annotations

import inspect
import math
import re
from pathlib import Path

import pytest

import kscope
from kscope._native import native

DOCS = Path(__file__).resolve().parents[2] / "docs"

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
