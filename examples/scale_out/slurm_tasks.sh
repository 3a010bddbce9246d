#!/usr/bin/env bash
# One sweep over the tasks of a Slurm job: every task runs bench.py, whose shard="auto" takes the
# task's share from SLURM_PROCID and SLURM_NTASKS; then the shares are merged.
#   sbatch --ntasks=4 slurm_tasks.sh          (on a GPU cluster add --gpus-per-task=1)
#SBATCH --job-name=kscope-sweep
#SBATCH --output=kscope-sweep-%j.log
set -euo pipefail
srun python bench.py out/
kscope merge out/rank*-journal-bench-0.jsonl -o out/bench.json
