/**
 * A competition's standings (docs/competition.md, "Standings"): per problem, every run of every
 * entrant ranked together by the score order (score.ts; ties share the mean rank), an entrant's
 * value on the problem the mean rank of its runs, and its problem rank the rank of that value
 * among the entrants (1 = best, ties share the mean rank). The overall standing is the average of
 * the problem ranks over the suite; the Friedman test (with Iman-Davenport) and Holm-corrected
 * pairwise comparisons (Demšar 2006; src-shared/stats/friedman.ts) are computed on the problem
 * ranks, problems as blocks and entrants as treatments.
 */
import { friedman } from '../stats/friedman.ts';
import { rankWithTies } from '../stats/ranks.ts';
import { compareScores, type RunScore } from './score.ts';

/** The scores of one problem: for each entrant, one per run (seed); null for a run that gave no result. */
export interface ProblemScores {
  problem: string;
  runs: Record<string, readonly (RunScore | null)[]>;
}

export interface EntrantOnProblem {
  /** 1 = best among the entrants on this problem; ties share the mean rank. */
  rank: number;
  /** The mean rank of the entrant's runs among all runs of the problem. */
  runRank: number;
  /** The entrant's best run and its median run (the ceil(n/2)-th best), by the score order. */
  best: RunScore | null;
  median: RunScore | null;
  runs: number;
}

export interface Standing {
  entrant: string;
  /** Position by average rank (1 = best; ties share the mean position). */
  rank: number;
  /** The mean of the entrant's problem ranks over the suite. */
  averageRank: number;
  problems: Record<string, EntrantOnProblem>;
}

export interface PairwiseStanding {
  a: string;
  b: string;
  /** averageRank(a) - averageRank(b): negative when a ranks better. */
  rankDifference: number;
  z: number;
  p: number;
  /** Holm-adjusted over all pairs. */
  pHolm: number;
}

export interface Standings {
  /** Best first. */
  standings: Standing[];
  /** Over the problems as blocks; null with fewer than 2 problems or 2 entrants. */
  friedman: { problems: number; entrants: number; chiSquare: number; p: number; imanDavenport: number; imanDavenportP: number } | null;
  pairwise: PairwiseStanding[];
}

/** Mid-ranks of scores by the competition's order (1 = best). */
export function rankScores(scores: readonly (RunScore | null)[]): number[] {
  const order = scores.map((_, i) => i).sort((i, j) => compareScores(scores[i], scores[j]));
  const ranks = new Array<number>(scores.length);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && compareScores(scores[order[start]], scores[order[end]]) === 0) end++;
    for (let k = start; k < end; k++) ranks[order[k]] = (start + 1 + end) / 2;
    start = end;
  }
  return ranks;
}

/** Each entrant's place on one problem (see the file header). */
export function rankProblem(scores: ProblemScores, entrants: readonly string[]): Record<string, EntrantOnProblem> {
  const all: (RunScore | null)[] = [];
  const owner: number[] = [];
  entrants.forEach((name, e) => {
    const runs = scores.runs[name];
    if (!runs || runs.length === 0) throw new RangeError(`problem ${scores.problem}: entrant ${name} has no runs (give null for a run without a result)`);
    for (const r of runs) {
      all.push(r);
      owner.push(e);
    }
  });
  for (const name of Object.keys(scores.runs))
    if (!entrants.includes(name)) throw new RangeError(`problem ${scores.problem}: runs of ${name}, who is not an entrant`);
  const ranks = rankScores(all);
  const sums = new Array<number>(entrants.length).fill(0);
  ranks.forEach((r, i) => (sums[owner[i]] += r));
  const runRanks = entrants.map((name, e) => sums[e] / scores.runs[name].length);
  const problemRanks = rankWithTies(runRanks).ranks;
  return Object.fromEntries(
    entrants.map((name, e) => {
      const sorted = [...scores.runs[name]].sort(compareScores);
      return [name, { rank: problemRanks[e], runRank: runRanks[e], best: sorted[0], median: sorted[Math.ceil(sorted.length / 2) - 1], runs: sorted.length }];
    }),
  );
}

/** The standings of entrants over problems (see the file header). */
export function computeStandings(entrants: readonly string[], problems: readonly ProblemScores[]): Standings {
  if (entrants.length === 0) throw new RangeError('standings need at least one entrant');
  if (new Set(entrants).size !== entrants.length) throw new RangeError(`an entrant is named twice (${entrants.join(', ')})`);
  if (new Set(problems.map((p) => p.problem)).size !== problems.length)
    throw new RangeError(`a problem is given twice (${problems.map((p) => p.problem).join(', ')})`);
  const places = problems.map((p) => rankProblem(p, entrants));
  const averages = entrants.map((name) => (places.length ? places.reduce((s, p) => s + p[name].rank, 0) / places.length : 0));
  const positions = rankWithTies(averages).ranks;
  const standings: Standing[] = entrants.map((name, e) => ({
    entrant: name,
    rank: positions[e],
    averageRank: averages[e],
    problems: Object.fromEntries(problems.map((p, i) => [p.problem, places[i][name]])),
  }));
  standings.sort((a, b) => a.rank - b.rank || entrants.indexOf(a.entrant) - entrants.indexOf(b.entrant));
  if (problems.length < 2 || entrants.length < 2) return { standings, friedman: null, pairwise: [] };
  const test = friedman(places.map((p) => entrants.map((name) => p[name].rank)));
  return {
    standings,
    friedman: {
      problems: test.blocks,
      entrants: test.treatments,
      chiSquare: test.chiSquare,
      p: test.p,
      imanDavenport: test.imanDavenport,
      imanDavenportP: test.imanDavenportP,
    },
    pairwise: test.pairwise.map((c) => ({ a: entrants[c.i], b: entrants[c.j], rankDifference: c.rankDifference, z: c.z, p: c.p, pHolm: c.pHolm })),
  };
}
