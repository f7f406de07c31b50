/**
 * Folds results files (shards, or any other project) into a project without duplicates.
 *
 * Every imported run is checked before it is stored, since a done run is never replaced: a run
 * stored wrong would stay wrong. A run is refused (and reported, with the reason) when its row
 * breaks the store's rules (records.ts: JSON, fields, a result whose solutions do not have the
 * config's objective and constraint counts), when its content does not hash to its id (the
 * config, solver, parameters, seed or budget were changed), when it is not a run of any
 * experiment in the file, when its result belongs to another solver or seed or claims another
 * program than the run's (result-audit.ts, programProblem), or when the result contradicts itself (result-audit.ts: every stored solution is evaluated again, and counts and
 * fronts are checked). Nothing of a refused run is written.
 */
import { expandGrid, runId, type RunSpec } from '../../src-shared/experiments/grid.ts';
import { programProblem, resultProblem } from '../../src-shared/experiments/result-audit.ts';
import { programOf, solverLabel, SpecError, type ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import { ProjectError } from '../project/errors.ts';
import { runKeyOf, type RunRecord } from '../project/project-records.ts';
import { Project } from '../project/store.ts';
import { addExperiment } from './add.ts';
import { experimentStatus } from './runner.ts';

export interface RefusedRun {
  id: string;
  /** From the grid of the file's experiments when the id is in it, else from the row (or null). */
  instance: string | null;
  label: string | null;
  seed: number | null;
  reason: string;
}

export interface MergeSummary {
  file: string;
  experimentsAdded: number;
  runsAdded: number;
  /** Runs the project already had done (or failed runs it already had). */
  runsSkipped: number;
  /** Runs not imported because they failed a check, with the reason. */
  refused: RefusedRun[];
  /** Names of the experiments the file holds. */
  experiments: string[];
  /**
   * The solver programs of the experiments this merge added to the project: what `experiment
   * run` would run for them (a received file's commands; they run only once approved).
   */
  importedPrograms: { experiment: string; solver: string; command: string[] }[];
}

/** A run of an experiment that is not done in the project (missing, or failed). */
export interface OpenRun {
  id: string;
  instance: string;
  label: string;
  seed: number;
  status: 'missing' | 'failed';
}

export interface ExperimentProgress {
  name: string;
  total: number;
  done: number;
  failed: number;
  missing: number;
  /** Every run that is not done, in grid order. */
  notDone: OpenRun[];
}

function gridOf(file: string, spec: ExperimentSpec): RunSpec[] {
  try {
    return expandGrid(spec);
  } catch (e) {
    if (e instanceof SpecError) throw new ProjectError(`${file}: experiment "${spec.name}": ${e.message}`, file);
    throw e;
  }
}

/** Why an imported run may not be stored, or null when it may. */
function importProblem(run: RunRecord, grid: Map<string, RunSpec>): string | null {
  const id = runId(runKeyOf(run));
  if (id !== run.id)
    return `its config, solver, parameters, seed${run.program ? ', budget and program' : ' and budget'}${run.blind ? ' (blind)' : ''} hash to ${id}, not to its id (they were changed)`;
  if (!grid.has(run.id)) return 'it is not a run of any experiment in the file';
  if (run.result && (run.result.solver !== run.solver || run.result.seed !== run.seed))
    return `its result is of ${run.result.solver} seed ${run.result.seed}, not of ${run.solver} seed ${run.seed}`;
  return run.result && (programProblem(run, run.result) ?? resultProblem(run.config, run.budget, run.result));
}

export function mergeInto(target: Project, file: string, options: { onRecovery?: (message: string) => void } = {}): MergeSummary {
  const source = Project.open(file, { readOnly: true, onRecovery: options.onRecovery });
  try {
    const experiments = source.experiments();
    const summary: MergeSummary = {
      file,
      experimentsAdded: 0,
      runsAdded: 0,
      runsSkipped: 0,
      refused: [],
      experiments: experiments.map((e) => e.name),
      importedPrograms: [],
    };
    const grid = new Map<string, RunSpec>();
    for (const experiment of experiments) for (const run of gridOf(file, experiment.spec)) grid.set(run.id, run);
    for (const experiment of experiments) {
      try {
        if (addExperiment(target, experiment.spec) === 'added') {
          summary.experimentsAdded++;
          for (const solver of experiment.spec.solvers) {
            const program = programOf(solver);
            if (program) summary.importedPrograms.push({ experiment: experiment.name, solver: solverLabel(solver), command: [...program.command] });
          }
        }
      } catch (e) {
        if (!(e instanceof ProjectError) || !e.message.includes('already exists with a different spec')) throw e;
        throw new ProjectError(`${file}: experiment "${experiment.name}" differs from the one in ${target.path} (${e.message})`, file);
      }
    }
    const existing = target.runStatuses();
    for (const row of source.runRows()) {
      const problem = row.problem ?? importProblem(row.record!, grid);
      if (problem) {
        const cell = grid.get(row.id);
        summary.refused.push({
          id: row.id,
          instance: cell?.instance ?? row.record?.instance ?? null,
          label: cell?.label ?? row.record?.label ?? null,
          seed: cell?.seed ?? row.record?.seed ?? null,
          reason: problem,
        });
        continue;
      }
      const run = row.record!;
      const have = existing.get(run.id);
      // Each run is its own transaction: an interrupted merge keeps what it merged.
      if (have === 'done' || (have === 'failed' && run.status === 'failed')) summary.runsSkipped++;
      else if (target.putRun(run)) summary.runsAdded++;
      else summary.runsSkipped++;
    }
    return summary;
  } finally {
    source.close();
  }
}

/** Done, failed and missing runs of the named experiments of a project, with every run not done. */
export function experimentProgress(project: Project, names: readonly string[]): ExperimentProgress[] {
  const statuses = project.runStatuses();
  return names.map((name) => {
    const experiment = project.experiment(name);
    if (!experiment) throw new ProjectError(`${project.path}: no experiment named "${name}"`, project.path);
    const notDone: OpenRun[] = [];
    const { total, done, failed, missing } = experimentStatus(experiment.spec, statuses, gridOf(project.path, experiment.spec), (run, status) =>
      notDone.push({ id: run.id, instance: run.instance, label: run.label, seed: run.seed, status }),
    );
    return { name, total, done, failed, missing, notDone };
  });
}
