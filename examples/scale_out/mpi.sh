#!/usr/bin/env bash
# One sweep over the ranks that mpirun starts: every rank runs bench.py, whose shard="auto" takes
# the rank's share from OMPI_COMM_WORLD_RANK (Open MPI) or PMI_RANK (MPICH); then the shares are
# merged. The ranks never call MPI.
set -euo pipefail
mpirun -n 4 python bench.py out/
kscope merge out/rank*-journal-bench-0.jsonl -o out/bench.json
