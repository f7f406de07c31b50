#!/bin/bash
# Runs one shard of every experiment in a Saikoro project as one task of a Slurm job array.
# Each task writes its own results file; nothing writes to the project itself, so tasks never
# contend for it. Afterwards, fold the results back in (once, anywhere):
#
#   saikoro merge study.saikoro results/study.shard-*-of-32.saikoro
#
# Submit with (32 shards, at most 8 at once):
#
#   sbatch --array=1-32%8 docs/examples/slurm-experiment.sh study.saikoro
#
# Outside Slurm, the same script runs shard K of N when SLURM_ARRAY_TASK_ID=K and
# SLURM_ARRAY_TASK_COUNT=N are set by hand, e.g. to test it:
#
#   SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 bash docs/examples/slurm-experiment.sh study.saikoro
#
#SBATCH --job-name=saikoro
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=04:00:00
# The log goes in the submit directory: Slurm opens it before the script runs and does not
# create missing directories.
#SBATCH --output=saikoro-%A_%a.log
set -euo pipefail

PROJECT=${1:?usage: slurm-experiment.sh PROJECT.saikoro [RESULTS_DIR]}
RESULTS_DIR=${2:-results}
K=${SLURM_ARRAY_TASK_ID:?not in a job array: set SLURM_ARRAY_TASK_ID}
N=${SLURM_ARRAY_TASK_COUNT:?not in a job array: set SLURM_ARRAY_TASK_COUNT}
# Where saikoro is checked out and installed (npm ci); defaults to this script's repository.
SAIKORO_HOME=${SAIKORO_HOME:-$(cd "$(dirname "$0")/../.." && pwd)}

mkdir -p "$RESULTS_DIR"
NAME=$(basename "$PROJECT" .saikoro)
# One worker process per task (--jobs 1); a shard that is re-submitted resumes its file.
# Exit status: 0 all runs done, 1 some failed (run the same task again to retry them).
node "$SAIKORO_HOME/bin/saikoro.mjs" experiment run "$PROJECT" \
  --shard "$K/$N" --out "$RESULTS_DIR/$NAME.shard-$K-of-$N.saikoro" --jobs "${SLURM_CPUS_PER_TASK:-1}"
