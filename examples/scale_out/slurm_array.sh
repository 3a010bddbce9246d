#!/usr/bin/env bash
# One sweep as a Slurm job array: array task i runs bench.py on share i of 4.
#   sbatch --array=0-3 slurm_array.sh
# A task that was cancelled or failed is submitted again alone (sbatch --array=2 slurm_array.sh)
# and resumes from its journal. Once every task has ended:
#   kscope merge out/rank*-journal-bench-0.jsonl -o out/bench.json
#SBATCH --job-name=kscope-array
#SBATCH --output=kscope-array-%A_%a.log
set -euo pipefail
python bench.py out/ "$SLURM_ARRAY_TASK_ID/4"
