#!/bin/bash
# Runs shard K of N of every experiment in a Saikoro project as task K of a Slurm job array
# (of a competition file too: saikoro competition run --shard K/N; docs/competition.md).
# Each task writes its own results file; nothing writes to the project itself, so tasks never
# contend for it.
#
# Usage: sbatch --array=... slurm-experiment.sh PROJECT.saikoro N [RESULTS_DIR]
#
#   N            the number of shards, always the same for one project (the task id is K)
#   RESULTS_DIR  task K writes RESULTS_DIR/NAME.shard-K-of-N.saikoro, NAME being PROJECT
#                without .saikoro (default RESULTS_DIR: results)
#
# With Saikoro installed (`saikoro` on the PATH of the compute nodes), from the directory
# holding study.saikoro, 32 shards, 8 at a time. The script is in the installed package's
# docs/examples/: after `npm install -g saikoro-<version>.tgz` in $(npm root -g)/saikoro/, after
# `npm install -g --prefix DIR ...` in DIR/lib/node_modules/saikoro/; wherever it is,
# `saikoro help slurm --path` prints its path. Copy it next to the project:
#
#   cp "$(saikoro help slurm --path)" .
#   sbatch --array=1-32%8 slurm-experiment.sh study.saikoro 32
#
# Or from a Saikoro checkout (after npm ci), with study.saikoro in it:
#
#   sbatch --array=1-32%8 docs/examples/slurm-experiment.sh study.saikoro 32
#
# Re-submit the tasks that did not finish (cancelled, timed out, node failure) the same way
# with just their numbers; they resume their results files. Re-submitting the whole range is
# also safe: a finished shard has nothing left to do and ends at once.
#
#   sbatch --array=3 docs/examples/slurm-experiment.sh study.saikoro 32
#   sbatch --array=3,17 docs/examples/slurm-experiment.sh study.saikoro 32
#
# When no task is left in squeue, fold the results in (merging again later adds only what is
# new), and see what is still missing:
#
#   saikoro merge study.saikoro results/study.shard-*-of-32.saikoro
#   saikoro experiment status study.saikoro
#
# (in a checkout: npx saikoro ...). Slurm runs a copy of this script from its spool directory,
# so the script cannot find Saikoro from its own path. It uses, in order: $SAIKORO_HOME (a
# checkout, with bin/saikoro.mjs and node_modules; sbatch passes your environment on, so
# `SAIKORO_HOME=~/saikoro sbatch ...` works from any directory), else the `saikoro` on the PATH
# (an installed package), else the directory sbatch was run in ($SLURM_SUBMIT_DIR) if it is a
# checkout, else (outside Slurm) the checkout this script is in. Relative PROJECT and
# RESULTS_DIR are relative to the directory sbatch was run in. `node` (>= 20.19) must be on the
# PATH of the compute nodes.
#
# Outside Slurm, the same script runs shard K of N with SLURM_ARRAY_TASK_ID=K set by hand:
#
#   SLURM_ARRAY_TASK_ID=1 bash docs/examples/slurm-experiment.sh study.saikoro 2
#
#SBATCH --job-name=saikoro
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=04:00:00
# The log goes in the submit directory: Slurm opens it before the script runs and does not
# create missing directories.
#SBATCH --output=saikoro-%A_%a.log
set -euo pipefail

fail() {
  echo "slurm-experiment.sh: $*" >&2
  exit 2
}

[ $# -ge 2 ] && [ $# -le 3 ] || fail "usage: slurm-experiment.sh PROJECT.saikoro N [RESULTS_DIR] (N: the number of shards)"
PROJECT=$1
N=$2
RESULTS_DIR=${3:-results}
[[ $N =~ ^[1-9][0-9]*$ ]] || fail "N (the number of shards) must be a positive integer, got '$N'"
# The task id is the shard number. SLURM_ARRAY_TASK_COUNT is not the shard count: it counts
# the tasks of this submission, which is 1 when one failed task is re-submitted.
K=${SLURM_ARRAY_TASK_ID:-}
[ -n "$K" ] || fail "not a job array task: submit with sbatch --array=1-$N, or set SLURM_ARRAY_TASK_ID"
[[ $K =~ ^[0-9]+$ ]] && [ "$K" -ge 1 ] && [ "$K" -le "$N" ] || fail "array task id $K is not a shard of 1..$N: use --array within 1-$N"

if [ -n "${SAIKORO_HOME:-}" ]; then
  [ -f "$SAIKORO_HOME/bin/saikoro.mjs" ] || fail "SAIKORO_HOME=$SAIKORO_HOME has no bin/saikoro.mjs"
elif SAIKORO_BIN=$(command -v saikoro); then
  : # installed
else
  # Under Slurm, $0 is the spool copy, so the script's own checkout only counts outside Slurm.
  candidates=()
  [ -n "${SLURM_SUBMIT_DIR:-}" ] && candidates+=("$SLURM_SUBMIT_DIR")
  [ -z "${SLURM_JOB_ID:-}" ] && candidates+=("$(dirname "$0")/../..")
  for candidate in ${candidates[@]+"${candidates[@]}"}; do
    if [ -f "$candidate/bin/saikoro.mjs" ]; then
      SAIKORO_HOME=$(cd "$candidate" && pwd)
      break
    fi
  done
  [ -n "${SAIKORO_HOME:-}" ] || fail "cannot find Saikoro: no saikoro on the PATH ($PATH) and no bin/saikoro.mjs in the submit directory ${SLURM_SUBMIT_DIR:-(none)}: install it (npm install -g saikoro-<version>.tgz), submit from a Saikoro checkout, or set SAIKORO_HOME to one"
fi
if [ -n "${SAIKORO_HOME:-}" ]; then
  [ -d "$SAIKORO_HOME/node_modules" ] || fail "$SAIKORO_HOME has no node_modules: run npm ci there first"
  SAIKORO=(node "$SAIKORO_HOME/bin/saikoro.mjs")
  FROM="checkout $SAIKORO_HOME"
else
  SAIKORO=("$SAIKORO_BIN")
  FROM="installed $SAIKORO_BIN"
fi

mkdir -p "$RESULTS_DIR"
NAME=$(basename "$PROJECT" .saikoro)
echo "shard $K/$N of $PROJECT into $RESULTS_DIR/$NAME.shard-$K-of-$N.saikoro (Saikoro: $FROM, host $(hostname))"
# A competition file (saikoro competition new) runs with competition run: its entrants in the
# sandbox, which every node then needs (bubblewrap), under the competition's failure policy.
RUN=(experiment run)
if "${SAIKORO[@]}" competition problems "$PROJECT" --json >/dev/null 2>&1; then
  RUN=(competition run)
fi
# One worker process per CPU of the task; a shard that is re-submitted resumes its file.
# Exit status: 0 all runs done (a competition: every run ended, done or failed), 1 some failed
# or were not run (submit the same task again to retry them).
exec "${SAIKORO[@]}" "${RUN[@]}" "$PROJECT" \
  --shard "$K/$N" --out "$RESULTS_DIR/$NAME.shard-$K-of-$N.saikoro" --jobs "${SLURM_CPUS_PER_TASK:-1}"
