"""The README's quickstarts run as printed: its C++ block is examples/cpp/03_readme_quickstart.cu,
which CMake builds and the GPU example test runs (label gpu), so the two cannot drift. The
Python block is type-checked as user code by test_typing.py and run from the installed wheel by
scripts/check_wheel.sh."""

from __future__ import annotations

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _blocks(language: str) -> list[str]:
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return re.findall(rf"^```{language}\n(.*?)^```$", f.read(), re.S | re.M)


def test_the_cpp_quickstart_is_the_example_file_that_ci_builds() -> None:
    with open(os.path.join(ROOT, "examples", "cpp", "03_readme_quickstart.cu"), encoding="utf-8") as f:
        example = f.read()
    assert _blocks("cpp") == [example]
    with open(os.path.join(ROOT, "examples", "cpp", "CMakeLists.txt"), encoding="utf-8") as f:
        assert "kscope_example(03_readme_quickstart)" in f.read()
