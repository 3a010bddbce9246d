"""A sweep over the ranks of a real ``mpirun -n 4`` (Debian's Open MPI, oversubscribed on
whatever cores there are): docs/scale-out.md's recipe (examples/scale_out/mpi.sh) runs bench.py,
the CPU test entry; every rank measures its share and the merge equals one process's sweep."""

from __future__ import annotations

import os
import shutil

import pytest
from scale_out_helpers import (RECIPES, assert_interleaved_shares, assert_merge_is_one_sweep,
                               environment, run, workdir)  # fmt: skip

pytestmark = pytest.mark.skipif(shutil.which("mpirun") is None,
                                reason="Open MPI is not installed (no mpirun): "
                                       "scripts/lib/install_deps.sh test installs it as root")  # fmt: skip


def test_mpirun_ranks_measure_their_shares_and_the_merge_is_one_sweep(tmp_path):
    work = workdir(tmp_path)
    # Open MPI refuses root unless told, and more ranks than cores unless oversubscribed.
    # One host: no ssh/rsh is needed, and a machine without them would stop mpirun otherwise.
    env = environment(work, OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_plm_rsh_agent="false")
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    done = run(["bash", str(RECIPES / "mpi.sh")], work, env)
    assert "Merged result: out/bench.json" in done.stdout
    assert_interleaved_shares(work, 4)
    assert_merge_is_one_sweep(work, env, 4)
