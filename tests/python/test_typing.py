"""Type checking from a user's side: mypy (strict, with the repository's settings) accepts the
README's Python snippets and every script of examples/python as they are written, infers
``ProfileResults`` for a call of a decorated function in every decorator form, and rejects a
misspelt option value. The user's own functions may stay unannotated (USER_CODE_FLAGS); the
package itself is checked with every strict rule by scripts/test.sh."""

from __future__ import annotations

import glob
import os
import re

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy is not installed (requirements-dev.txt)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Strict, minus the rules about annotating one's own functions: user code is not ours to type.
USER_CODE_FLAGS = [
    "--strict",
    "--allow-untyped-defs",
    "--allow-incomplete-defs",
    "--allow-untyped-calls",
    "--allow-untyped-decorators",
    # torch and triton have no stubs here, so their calls return Any.
    "--no-warn-return-any",
]

FORMS = '''
import kscope

@kscope.analyze.kernel
def bare(n: int) -> None: ...

@kscope.analyze.kernel()
def empty_call(n: int) -> None: ...

@kscope.analyze.kernel(configs=[(1,), (2,)], runs=2, clock_control="base", tool="ncu")
def called(n: int) -> None: ...

@kscope.analyze.plot
@kscope.analyze.kernel
def plotted_bare(n: int) -> None: ...

@kscope.analyze.plot("sweep.png", plot_type="bar", show_aggregate="geomean")
@kscope.analyze.kernel(configs=[(1,)])
def plotted(n: int) -> None: ...

reveal_type(bare(1))
reveal_type(empty_call(1))
reveal_type(called())
reveal_type(plotted_bare(configs=[(1,)]))
reveal_type(plotted())
'''


def _mypy(*paths: str) -> tuple[str, int]:
    out, err, status = mypy_api.run(
        ["--config-file", os.path.join(ROOT, "pyproject.toml"), *USER_CODE_FLAGS,
         "--cache-dir", os.path.join(ROOT, ".mypy_cache"), *paths]  # fmt: skip
    )
    return out + err, status


def _readme_snippets() -> list[str]:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)


def test_the_readme_and_the_examples_type_check(tmp_path):
    snippets = _readme_snippets()
    assert snippets, "the README has no Python snippet"
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "python", "*.py")))
    for i, code in enumerate(snippets):
        path = tmp_path / f"readme_{i}.py"
        path.write_text(code, encoding="utf-8")
        paths.append(str(path))
    out, status = _mypy(*paths)
    assert status == 0, out


def test_a_decorated_function_returns_profile_results_in_every_form(tmp_path):
    path = tmp_path / "forms.py"
    path.write_text(FORMS, encoding="utf-8")
    out, status = _mypy(str(path))
    revealed = re.findall(r'Revealed type is "([^"]+)"', out)
    assert revealed == ["kscope.collection.core.ProfileResults"] * 5, out
    assert status == 0 and "Success: no issues found" in out, out


def test_a_misspelt_option_value_is_a_type_error(tmp_path):
    path = tmp_path / "typo.py"
    path.write_text(
        "import kscope\n\n"
        '@kscope.analyze.kernel(configs=[(1,)], cache_control="al")\n'
        "def f(n: int) -> None: ...\n\n"
        '@kscope.analyze.plot("x.png", plot_type="bars")\n'
        "@kscope.analyze.kernel\n"
        "def g(n: int) -> None: ...\n",
        encoding="utf-8",
    )
    out, status = _mypy(str(path))
    assert status == 1
    assert "typo.py:3: error" in out and "typo.py:6: error" in out, out
