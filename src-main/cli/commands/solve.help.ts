import type { CommandHelp } from '../command.ts';
import { defaultMemoryLimitMb } from '../../host/memory-limit.ts';
import { DEFAULT_GRACE_SECONDS, DEFAULT_TIMEOUT_SECONDS } from '../../../src-shared/solvers/program/protocol.ts';

/** `saikoro solve --help`, and the options it parses (see CommandHelp). */
export const solveHelp = {
  usage: `Usage: saikoro solve --track so|mo2|mo3|mo5|mo7 --n N [--config FILE] [--solver NAME]
                     [--param NAME=VALUE ...] --evals E [--whole-budget] --seed S [--out FILE.json [--force]] [--json]
       saikoro solve ... --command "PROGRAM ARGS..." [--name NAME] [--blind] [--env K=V ...]
                     [--cwd DIR] [--grace S] [--timeout S]

Runs one solver on the dice problem in a worker process and prints the result. The solver is a
built-in one (--solver) or any program speaking the external-solver protocol (--command; see
saikoro help protocol): Saikoro starts it, evaluates what it asks for, counts the budget
and keeps the best solution or the front itself.

Options:
  --track T       objective grouping: so (one objective), mo2, mo3, mo5, mo7 (M objectives)
  --n N           sequence length
  --config FILE   JSON or YAML object with any of n, alpha, beta, gamma, objectives, constraints,
                  lowerBounds, upperBounds; its fields replace the track's defaults. With
                  "objectives" in the file --track may be left out, with "n" --n may be left out.
  --solver NAME   a solver from \`saikoro solvers\` (default: the strongest for the track)
  --param K=V     a solver parameter; repeat for several (see \`saikoro solvers\`)
  --evals E       evaluation budget (every candidate evaluated, fully or incrementally, counts).
                  A single-objective run stops early at its first feasible f = 0 (a sequence
                  inside every band), as runs in the app and in experiments do
  --whole-budget  single objective: use the whole budget, do not stop at f = 0
  --seed S        seed of the run's random generator; the same seed gives the same result
  --command CMD   run this program as the solver. CMD is split into words as a shell would
                  ('...', "...", backslash), but no shell runs: no variables, globs or pipes
  --name NAME     the program solver's name in the output (default: its script's file name)
  --blind         do not tell the program the bands, weights, groupings and percent points
                  (the problem's "config" and "track"): it sees the problem only by evaluating
  --env K=V       an environment variable for the program; repeat for several
  --cwd DIR       the program's working directory (default: the current one)
  --grace S       seconds the program gets to exit after its stdin closes, and again after
                  SIGTERM, before SIGKILL (default ${DEFAULT_GRACE_SECONDS})
  --timeout S     fail the run when the program sends no request for S seconds (default ${DEFAULT_TIMEOUT_SECONDS})
  --memory-limit MB
                  the worker's memory limit: settings estimated to need more are refused, and
                  a worker that grows past it fails its run (default: half of this machine's
                  memory, ${defaultMemoryLimitMb(1).toLocaleString('en-US')} MB here)
  --out FILE      also write the result, with parameters, termination and trace, to FILE (JSON).
                  MO: "hvNormalisation" {"indicator","ideal","nadir","reference","method"} is how
                  trace[].indicator (normalised hypervolume of the feasible front, M <= 3; null
                  for M >= 4) is computed: (f - ideal) / (nadir - ideal) against "reference".
                  SO: "hvNormalisation" is null. "trace" holds every SO improvement at its
                  evaluation ("traceExact": true); MO: "frontLog" every insertion into the
                  front (docs/solvers.md, Traces). An existing FILE is replaced only when it is a
                  result Saikoro wrote (a project, a FIFO or a device never is)
  --force         replace an existing --out FILE that Saikoro did not write
  --json          print the result as JSON on stdout:
                  {"solver","track","n","seed","evaluations","seconds","success","message",
                   "best":{"x","objectives","constraints","feasible"},"bestFoundAt","front":[...]}
                  "best" is for one objective (null otherwise), "front" for several ([] otherwise);
                  "bestFoundAt" is the evaluation at which "best" was first evaluated.

A progress bar is drawn on stderr when stderr is a terminal. Ctrl-C stops the run and prints
what it found so far (exit status 130).

Examples:
  saikoro solve --track so --n 50 --evals 20000 --seed 1
  saikoro solve --track mo2 --n 200 --evals 3000 --seed 1 --cwd solver --command "python3 solver.py"   (in a study of saikoro init)
  saikoro solve --track mo2 --n 840 --solver nsga2 --param populationSize=200 --evals 100000 --seed 3 --json`,
  options: {
    track: { type: 'string' },
    n: { type: 'string' },
    config: { type: 'string' },
    solver: { type: 'string' },
    param: { type: 'string', multiple: true },
    evals: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string' },
    'memory-limit': { type: 'string' },
    'whole-budget': { type: 'boolean' },
    json: { type: 'boolean' },
    command: { type: 'string' },
    name: { type: 'string' },
    blind: { type: 'boolean' },
    env: { type: 'string', multiple: true },
    cwd: { type: 'string' },
    grace: { type: 'string' },
    timeout: { type: 'string' },
    force: { type: 'boolean' },
  },
  positionals: false,
} satisfies CommandHelp;
