/**
 * A competition's standings and runtime ECDFs from its file (docs/competition.md, "Standings",
 * "Runtime ECDFs"): every stored run of every track scored again from its stored sequences with
 * the exact evaluator (src-shared/competition/score.ts), ranked (standings.ts), and each run's
 * course turned into runtimes to its problem's targets (ecdf.ts). The data `competition
 * standings`, its report formats and the app's Competition view show; nothing here is computed
 * by the runs themselves, so it can be redone with other targets without a rerun.
 */
import path from 'node:path';
import { computeStandings, type PairwiseStanding, type ProblemScores, type Standings } from '../../src-shared/competition/standings.ts';
import { evaluatedFront, scoreRun, type RunScore } from '../../src-shared/competition/score.ts';
import { scoreReference, scoreReferenceMethod } from '../../src-shared/competition/score-reference.ts';
import {
  bestKnownHypervolume,
  firstHits,
  moTargets,
  resultHypervolumeSteps,
  runtimeEcdf,
  soSteps,
  soTargets,
  type Ecdf,
  type RunHits,
} from '../../src-shared/competition/ecdf.ts';
import { expandGrid, type RunSpec } from '../../src-shared/experiments/grid.ts';
import type { TrackName } from '../../src-shared/problems/dice/config.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import type { Competition } from '../../src-shared/competition/competition.ts';
import type { RunRecord } from '../project/project-records.ts';
import type { Project } from '../project/store.ts';
import { appVersion } from '../project/app-version.ts';

/** An entrant's place on one problem, as standings show it: its problem rank, mean run rank, and best and median run scores. */
export interface StandingProblem {
  rank: number;
  runRank: number;
  best: RunScore | null;
  median: RunScore | null;
  runs: number;
}

/** One line of the standings (the JSON fields `entrant`, `rank`, `score`, `problems` are fixed: docs/competition.md). */
export interface StandingLine {
  entrant: string;
  /** Position (1 = best; ties share the mean position). */
  rank: number;
  /** The score the standings order by: the entrant's problem ranks averaged over the suite (lower is better). */
  score: number;
  /** The average problem rank on each track. */
  tracks: Record<string, number>;
  /** By problem id. */
  problems: Record<string, StandingProblem>;
}

/** One group's runtime ECDFs (a track, or the whole suite). */
export interface EcdfGroup {
  group: string;
  ecdfs: Ecdf[];
  /** Problems with no target (no run found anything feasible or any volume). */
  withoutTargets: string[];
  /** Why some runtimes are not exact (traces stored before exact traces, compacted front logs), or empty. */
  inexact: string[];
}

export interface CompetitionReport {
  format: 'saikoro-competition';
  generatedAt: string;
  appVersion: string;
  file: string;
  /** Tracks, Ns, instances, budget, seeds. */
  definition: Competition['definition'];
  revealed: boolean;
  entrants: { name: string; kind: string }[];
  problems: { id: string; track: TrackName; n: number; instance: number; hidden: boolean }[];
  /**
   * Runs of the suite: total, done, failed (scored on what they evaluated), live (a remote
   * entrant's run still playing on a competition server: scored on what it has evaluated so
   * far), missing (not run yet: scored as nothing).
   */
  runs: { total: number; done: number; failed: number; live: number; missing: number };
  complete: boolean;
  standings: StandingLine[];
  friedman: Standings['friedman'];
  pairwise: PairwiseStanding[];
  /** Runs whose stored numbers contradict their own sequences (the score uses the sequences, never those numbers). */
  contradictions: { id: string; problem: string; entrant: string; seed: number; reason: string }[];
  scoreNormalisation: string;
  ecdfs: EcdfGroup[];
}

interface ScoredCell {
  run: RunSpec;
  result: SolverResult | null;
  score: RunScore | null;
}

/** A stored run as the report reads it (a RunRecord, or what a server keeps of one). */
export type StoredRun = Pick<RunRecord, 'status' | 'result'>;

export interface CompetitionReportOptions {
  generatedAt?: Date;
  /**
   * The stored runs by id, when the caller has them (a competition server keeps them): read from
   * the project otherwise.
   */
  stored?: ReadonlyMap<string, StoredRun>;
  /**
   * Remote runs still playing on a competition server, by id: their results as they stand,
   * scored like any run (a run stored done is read from the store instead).
   */
  live?: ReadonlyMap<string, SolverResult>;
}

/**
 * The competition's standings and ECDFs. `competition` is the file's (CompetitionError from the
 * caller when it is not one); missing runs count as runs that found nothing, and `complete` says
 * whether any is missing.
 */
export function buildCompetitionReport(project: Project, competition: Competition, options: CompetitionReportOptions = {}): CompetitionReport {
  const { definition } = competition;
  const entrants = project.entrants();
  const names = entrants.map((e) => e.name);
  const specs = new Map(project.experiments().map((e) => [e.name, e.spec]));
  const counts = { total: 0, done: 0, failed: 0, live: 0, missing: 0 };
  const problemScores: ProblemScores[] = [];
  const contradictions: CompetitionReport['contradictions'] = [];
  const ecdfRuns = new Map<string, RunHits[]>();
  const withoutTargets = new Map<string, string[]>();
  const inexact = new Map<string, Set<string>>();
  const trackOf = new Map<string, TrackName>();
  for (const track of definition.tracks) {
    const spec = specs.get(track);
    if (!spec || names.length === 0) continue;
    const grid = expandGrid(spec);
    const records: ReadonlyMap<string, StoredRun> = options.stored ?? new Map(project.runs(grid.map((r) => r.id)).map((r) => [r.id, r]));
    ecdfRuns.set(track, []);
    withoutTargets.set(track, []);
    inexact.set(track, new Set());
    for (const instance of spec.instances) {
      trackOf.set(instance.name, track);
      const cells: ScoredCell[] = [];
      for (const run of grid.filter((r) => r.instance === instance.name)) {
        const record = records.get(run.id);
        const live = record?.status === 'done' ? undefined : options.live?.get(run.id);
        counts.total++;
        if (live) counts.live++;
        else if (!record) counts.missing++;
        else if (record.status === 'done') counts.done++;
        else counts.failed++;
        const result = live ?? record?.result ?? null;
        let score: RunScore | null = null;
        if (result) {
          const scored = scoreRun({ config: run.config, track, budget: definition.evaluations, result });
          score = scored.score;
          if (scored.problem) contradictions.push({ id: run.id, problem: instance.name, entrant: run.label, seed: run.seed, reason: scored.problem });
        }
        cells.push({ run, result, score });
      }
      problemScores.push({
        problem: instance.name,
        runs: Object.fromEntries(names.map((name) => [name, cells.filter((c) => c.run.label === name).map((c) => c.score)])),
      });
      const hits = problemHits(track, instance.name, cells);
      if (hits === null) withoutTargets.get(track)!.push(instance.name);
      else {
        ecdfRuns.get(track)!.push(...hits.runs);
        for (const note of hits.inexact) inexact.get(track)!.add(note);
      }
    }
  }
  const computed = problemScores.length && names.length ? computeStandings(names, problemScores) : { standings: [], friedman: null, pairwise: [] };
  const standings: StandingLine[] = computed.standings.map((s) => {
    const tracks: Record<string, number> = {};
    for (const track of definition.tracks) {
      const own = Object.entries(s.problems).filter(([id]) => trackOf.get(id) === track);
      if (own.length) tracks[track] = own.reduce((sum, [, p]) => sum + p.rank, 0) / own.length;
    }
    return { entrant: s.entrant, rank: s.rank, score: s.averageRank, tracks, problems: s.problems };
  });
  const groups: EcdfGroup[] = definition.tracks
    .filter((t) => ecdfRuns.has(t))
    .map((track) => ({
      group: track,
      ecdfs: runtimeEcdf(ecdfRuns.get(track)!),
      withoutTargets: withoutTargets.get(track)!,
      inexact: [...inexact.get(track)!],
    }));
  if (groups.length > 1)
    groups.push({
      group: 'suite',
      ecdfs: runtimeEcdf(groups.flatMap((g) => ecdfRuns.get(g.group)!)),
      withoutTargets: groups.flatMap((g) => g.withoutTargets),
      inexact: [...new Set(groups.flatMap((g) => g.inexact))],
    });
  return {
    format: 'saikoro-competition',
    generatedAt: (options.generatedAt ?? new Date()).toISOString(),
    appVersion: appVersion(),
    file: path.basename(project.path),
    definition,
    revealed: competition.secret !== null,
    entrants: entrants.map((e) => ({ name: e.name, kind: e.entry.kind === 'builtin' ? `built-in ${e.entry.solver}` : e.entry.kind })),
    problems: competition.problems.map(({ id, track, n, instance, hidden }) => ({ id, track, n, instance, hidden })),
    runs: counts,
    complete: counts.missing === 0 && counts.live === 0,
    standings,
    friedman: computed.friedman,
    pairwise: computed.pairwise,
    contradictions,
    scoreNormalisation: scoreReferenceMethod(),
    ecdfs: groups,
  };
}

/**
 * The runtimes of a problem's runs to its targets (from the best value any run reached, as
 * docs/competition.md says), or null when no run has a value to start the ladder from. Runs
 * without a result (missing, or failed with nothing stored) reach no target.
 */
function problemHits(track: TrackName, problem: string, cells: readonly ScoredCell[]): { runs: RunHits[]; inexact: string[] } | null {
  const results = cells.map((c) => c.result);
  const m = cells[0]?.run.config.objectives.length ?? 1;
  const notes = new Set<string>();
  let targets: number[];
  let steps: (ReturnType<typeof soSteps> | null)[];
  if (m === 1) {
    const best = Math.min(...cells.map((c) => (c.score?.kind === 'so' && c.score.f !== null ? c.score.f : Infinity)));
    if (!Number.isFinite(best)) return null;
    targets = soTargets(best, scoreReference(track, cells[0].run.config.n).nadir[0]);
    steps = results.map((r) => (r ? soSteps(r) : null));
  } else {
    const norm = scoreReference(track, cells[0].run.config.n);
    const fronts = cells.map((c, i) => evaluatedFront(c.run.config, results[i]));
    const bestHv = bestKnownHypervolume(fronts, norm);
    if (!(bestHv > 0)) return null;
    targets = moTargets(bestHv);
    steps = results.map((r: SolverResult | null) => (r ? resultHypervolumeSteps(r, norm) : null));
    if (results.some((r) => r && !r.frontLog)) notes.add('a result stored before front logs has no course: its runtimes count as not reached');
  }
  for (const s of steps) if (s?.inexact) notes.add(s.inexact);
  const runs = cells.map((c, i) => ({ solver: c.run.label, problem, hits: steps[i] ? firstHits(steps[i]!, targets) : targets.map(() => null) }));
  return { runs, inexact: [...notes] };
}
