/**
 * The best known solutions per track and N under the default bands, weights and constraints
 * (tests/fixtures/best-known.json, kept by scripts/best-known.ts), and the table of
 * docs/best-known.md made from them: each with its gap to the lower bound (lower-bound.ts).
 */
import { diceHvNormalisation, normalisedHypervolume } from './hv-reference.ts';
import { trackConfig, type TrackName } from './config.ts';
import { hvUpperBound, lowerBound } from './lower-bound.ts';

export interface Found {
  solver: string;
  params: Record<string, string | number | boolean>;
  seed: number;
  evaluations: number;
  /** The commit the run was made on. */
  commit: string;
}
export interface Point {
  x: string;
  objectives: number[];
  found: Found;
}
export interface Entry {
  track: TrackName;
  n: number;
  /** SO: the best point. MO: the front (mutually non-dominated, sorted by objectives). */
  points: Point[];
}
export interface BestKnown {
  note: string;
  entries: Entry[];
}

function fmt(v: number, digits = 4): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(digits).replace(/0+$/, '');
}

/** The markdown table of the stored entries. */
export function bestKnownTable(data: BestKnown): string {
  const rows = ['| Track | N | Best known | Bound | Gap | Found by |', '|---|---|---|---|---|---|'];
  for (const e of data.entries) {
    const config = trackConfig(e.track, e.n);
    const how = (p: Point) =>
      `\`${p.found.solver}\` seed ${p.found.seed}, ${p.found.evaluations.toExponential(0).replace('e+', 'e')} evaluations${
        Object.keys(p.found.params).length
          ? ` (${Object.entries(p.found.params)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')})`
          : ''
      }`;
    if (e.track === 'so') {
      const f = e.points[0].objectives[0];
      const bound = lowerBound(config).f;
      rows.push(
        `| so | ${e.n} | f = ${fmt(f)} | f >= ${fmt(bound)} | ${fmt(f - bound)}${bound > 0 ? ` (${(((f - bound) / bound) * 100).toFixed(1)}%)` : ''} | ${how(e.points[0])} |`,
      );
    } else {
      const norm = diceHvNormalisation(config);
      const hv = normalisedHypervolume(
        e.points.map((p) => p.objectives),
        norm,
      );
      const bound = hvUpperBound(config, norm);
      const front = e.points.map((p) => `(${p.objectives.map((v) => fmt(v, 2)).join(', ')})`).join(' ');
      const solvers = [...new Set(e.points.map((p) => p.found.solver))].join(', ');
      rows.push(
        `| ${e.track} | ${e.n} | HV ${hv.toFixed(4)}: ${front} | HV <= ${bound.toFixed(4)} | ${(bound - hv).toFixed(4)} | ${solvers} (${e.points.length} point${e.points.length > 1 ? 's' : ''}) |`,
      );
    }
  }
  return rows.join('\n');
}
