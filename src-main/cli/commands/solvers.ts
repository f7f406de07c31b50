import { parseCommandArgs, UsageError, writeLine, type Command } from '../command.ts';
import { solversHelp } from './solvers.help.ts';
import { TRACK_NAMES, TRACK_OBJECTIVES, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { DEFAULT_SOLVERS, describeSolvers, type SolverDescriptor } from '../../../src-shared/solvers/registry.ts';
import { handlesObjectives } from '../../../src-shared/solvers/objective-support.ts';

export interface ListedSolver extends SolverDescriptor {
  /** Tracks on which `saikoro solve` runs this solver when --solver is left out. */
  defaultFor: TrackName[];
}

export function listSolvers(track?: TrackName): ListedSolver[] {
  return describeSolvers()
    .filter((s) => !track || handlesObjectives(s.objectives, TRACK_OBJECTIVES[track].length))
    .map((s) => ({ ...s, defaultFor: TRACK_NAMES.filter((t) => DEFAULT_SOLVERS[t] === s.name) }));
}

function range(p: SolverDescriptor['params'][number]): string {
  if (p.choices) return p.choices.join('|');
  if (p.type === 'boolean') return 'true|false';
  const lo = p.min === null ? '' : String(p.min);
  const hi = p.max === null ? '' : String(p.max);
  return lo || hi ? `${lo}..${hi}` : '';
}

export const solversCommand: Command = {
  name: 'solvers',
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, solversHelp);
    if (values.track !== undefined && !(TRACK_NAMES as string[]).includes(values.track))
      throw new UsageError(`--track: expected one of ${TRACK_NAMES.join(', ')}, got "${values.track}"`);
    const list = listSolvers(values.track as TrackName | undefined);
    if (values.json) {
      writeLine(io.stdout, JSON.stringify(list));
      return 0;
    }
    const objectives = { single: 'one objective', multi: 'several objectives', any: 'any number of objectives' };
    for (const s of list) {
      const tags = [objectives[s.objectives], s.baseline ? 'baseline' : '', s.defaultFor.length ? `default for ${s.defaultFor.join(', ')}` : ''].filter(
        Boolean,
      );
      writeLine(io.stdout, `${s.name}  ${s.title} (${tags.join('; ')})`);
      writeLine(io.stdout, `    ${s.summary}`);
      const heads = s.params.map((p) => `${p.name}=${p.defaultText}`);
      const width = Math.max(0, ...heads.filter((h) => h.length <= 30).map((h) => h.length));
      s.params.forEach((p, i) => {
        const r = range(p);
        const text = `${p.type}${r ? ` ${r}` : ''}: ${p.description}`;
        if (heads[i].length <= 30) writeLine(io.stdout, `    --param ${heads[i].padEnd(width)}  ${text}`);
        else writeLine(io.stdout, `    --param ${heads[i]}\n    ${' '.repeat(8 + width)}  ${text}`);
      });
      if (!s.params.length) writeLine(io.stdout, '    (no parameters)');
      writeLine(io.stdout, '');
    }
    return 0;
  },
};
