import { InputError, parseCommandArgs, UsageError, writeLine, type Command } from '../command.ts';
import { compareHelp } from './compare.help.ts';
import {
  CompareError,
  METRICS,
  usesNormalisation,
  type Comparison,
  type InstanceComparison,
  type MetricName,
} from '../../../src-shared/experiments/compare.ts';
import { cannotDiffer, floorSentence, runsNeeded } from '../../../src-shared/stats/attainable.ts';
import { SpecError } from '../../../src-shared/experiments/spec.ts';
import { compareStored, ProjectRequestError } from '../../app/experiments.ts';
import { HIDDEN_TEXT } from '../../../src-shared/competition/hidden.ts';
import { formatHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { openProject } from './project.ts';

const fmt = (v: number) => (Math.abs(v) >= 1000 || (Math.abs(v) < 0.001 && v !== 0) ? v.toExponential(3) : v.toFixed(4));
const fmtP = (p: number) => (p < 0.0001 ? p.toExponential(2) : p.toFixed(4));

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
}

/** The conventional significance level the note speaks of (compare itself prints p-values, not marks). */
const ALPHA = 0.05;

/**
 * When no pair of the instance can reach p < 0.05 after Holm over its pairs, whatever the runs
 * found (too few runs: src-shared/stats/attainable.ts), says so and how many runs could.
 */
function fewRunsNote(inst: InstanceComparison): string | null {
  const n = new Map(inst.solvers.map((s) => [s.label, s.summary?.n ?? 0]));
  const pairs = inst.pairs.map((p) => [n.get(p.a)!, n.get(p.b)!] as const);
  if (!pairs.every(([a, b]) => cannotDiffer(a, b, inst.pairs.length, ALPHA))) return null;
  const [a, b] = pairs.reduce((best, pair) =>
    Math.min(...pair) > Math.min(...best) || (Math.min(...pair) === Math.min(...best) && Math.max(...pair) > Math.max(...best)) ? pair : best,
  );
  return `${floorSentence(a, b, inst.pairs.length, ALPHA, 'pairs')}, so no pair can be significant; ${runsNeeded(ALPHA, inst.pairs.length)} runs per solver can be.`;
}

function render(c: Comparison): string[] {
  const out: string[] = [];
  out.push(`# ${c.experiment}: ${c.metric} (${c.higherIsBetter ? 'higher' : 'lower'} is better)`);
  for (const s of c.skipped) out.push(`(skipped: ${s.reason})`);
  for (const inst of c.instances) {
    out.push('', `## ${inst.instance} (M = ${inst.objectives})`);
    if (inst.hidden && usesNormalisation(c.metric)) out.push(`normalisation: ${HIDDEN_TEXT}`);
    else if (inst.normalisation && usesNormalisation(c.metric))
      out.push(`normalisation: ${formatHvNormalisation(inst.normalisation)}${inst.normalisation.method ? ` (${inst.normalisation.method})` : ''}`);
    out.push(
      ...table(
        ['solver', 'n', 'median', 'IQR', 'mean', 'sd', 'no value', 'missing'],
        inst.solvers.map((s) => [
          s.label,
          String(s.summary?.n ?? 0),
          ...(s.summary ? [fmt(s.summary.median), fmt(s.summary.iqr), fmt(s.summary.mean), fmt(s.summary.sd)] : ['-', '-', '-', '-']),
          String(s.withoutValue),
          String(s.missing),
        ]),
      ),
    );
    if (inst.pairs.length) {
      out.push('');
      out.push(
        ...table(
          ['A', 'B', 'U', 'p', 'p (Holm)', 'test', 'A12 (A better)', 'effect'],
          inst.pairs.map((p) => [p.a, p.b, String(p.u), fmtP(p.p), fmtP(p.pHolm), p.method, p.a12.toFixed(3), p.magnitude]),
        ),
      );
      const note = fewRunsNote(inst);
      if (note) out.push(`note: ${note}`);
    }
  }
  out.push('');
  if (c.friedman) {
    const f = c.friedman;
    out.push(`## Friedman over ${f.blocks} instances (${f.instances.join(', ')}), on the per-instance ${c.aggregate}s`);
    out.push(
      `chi2_F = ${f.chiSquare.toFixed(3)} (df ${f.treatments - 1}), p = ${fmtP(f.p)}; Iman-Davenport F = ${Number.isFinite(f.imanDavenport) ? f.imanDavenport.toFixed(3) : 'inf'}, p = ${fmtP(f.imanDavenportP)}`,
    );
    out.push(
      ...table(
        ['solver', 'average rank'],
        f.labels.map((l, i) => [l, f.averageRanks[i].toFixed(3)]),
      ),
    );
    out.push(
      '',
      ...table(
        ['A', 'B', 'rank diff', 'z', 'p', 'p (Holm)'],
        f.pairwise.map((p) => [f.labels[p.i], f.labels[p.j], p.rankDifference.toFixed(3), p.z.toFixed(3), fmtP(p.p), fmtP(p.pHolm)]),
      ),
    );
  } else out.push(`Friedman: not computed (${c.friedmanNote})`);
  return out;
}

export const compareCommand: Command = {
  name: 'compare',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, compareHelp);
    const [file, name, ...extra] = positionals;
    if (!file) throw new UsageError('missing FILE');
    if (!name) throw new UsageError('missing EXPERIMENT');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (!values.metric) throw new UsageError(`missing --metric (${METRICS.join(', ')})`);
    if (!(METRICS as readonly string[]).includes(values.metric)) throw new UsageError(`--metric: must be one of ${METRICS.join(', ')}, got "${values.metric}"`);
    const project = openProject(file, io, { readOnly: true });
    try {
      let comparison: Comparison;
      try {
        comparison = compareStored(project, name, values.metric as MetricName);
      } catch (e) {
        if (e instanceof ProjectRequestError) throw new InputError(`${file}: ${e.rule}`);
        if (e instanceof CompareError || e instanceof SpecError) throw new InputError(`${file}: ${e.message}`);
        throw e;
      }
      if (values.json) writeLine(io.stdout, JSON.stringify(comparison));
      else for (const line of render(comparison)) writeLine(io.stdout, line);
      return 0;
    } finally {
      project.close();
    }
  },
};
