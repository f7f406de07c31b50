/** Folds results files (shards, or any other project) into a project without duplicates. */
import { Project, ProjectError } from '../project/store.ts';
import { addExperiment } from './add.ts';

export interface MergeSummary {
  file: string;
  experimentsAdded: number;
  runsAdded: number;
  /** Runs the project already had done (or failed runs it already had). */
  runsSkipped: number;
}

export function mergeInto(target: Project, file: string): MergeSummary {
  const source = Project.open(file, { readOnly: true });
  try {
    const summary: MergeSummary = { file, experimentsAdded: 0, runsAdded: 0, runsSkipped: 0 };
    for (const experiment of source.experiments()) {
      try {
        if (addExperiment(target, experiment.spec) === 'added') summary.experimentsAdded++;
      } catch (e) {
        throw new ProjectError(`${file}: experiment "${experiment.name}" differs from the one in ${target.path} (${(e as Error).message})`);
      }
    }
    const existing = target.runStatuses();
    for (const run of source.runs()) {
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
