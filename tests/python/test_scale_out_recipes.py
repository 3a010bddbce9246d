"""docs/scale-out.md shows the scale-out recipes that tests/python/test_slurm.py and
test_mpi.py run: each file of examples/scale_out/ is one of its ``sh`` blocks, as it is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECIPES = sorted((ROOT / "examples" / "scale_out").glob("*.sh"))


def test_there_are_the_slurm_and_mpi_recipes():
    assert [p.name for p in RECIPES] == ["mpi.sh", "slurm_array.sh", "slurm_tasks.sh"]


@pytest.mark.parametrize("recipe", RECIPES, ids=[p.name for p in RECIPES])
def test_the_doc_shows_the_recipe_as_it_is(recipe):
    doc = (ROOT / "docs" / "scale-out.md").read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```$", doc, flags=re.S | re.M)
    assert recipe.read_text() in blocks
    assert f"`examples/scale_out/{recipe.name}`" in doc
