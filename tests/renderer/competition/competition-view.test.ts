// The Competition view's plain helpers: ECDF chart points and options (a log axis of
// evaluations, a step per runtime, flat to the budget, one colour per entrant across charts),
// the entrants' progress rows, and the standings' numbers as the CLI's table writes them.
import { describe, expect, it } from 'vitest';
import { ecdfOption, ecdfPoints } from '../../../src-renderer/views/competition/charts.ts';
import {
  endedShare,
  entrantRows,
  formatPosition,
  formatRank,
  progressText,
  scoreText,
  standingsRows,
} from '../../../src-renderer/views/competition/competition.ts';
import { LIGHT_PALETTE, seriesColor } from '../../../src-shared/charts/palette.ts';
import type { CompetitionOverview, CompetitionStandings } from '../../../src-shared/api.ts';

describe('ECDF charts', () => {
  it('points start at (1, 0), step at each runtime and stay flat to the budget', () => {
    expect(
      ecdfPoints(
        [
          { evaluations: 3, fraction: 0.25 },
          { evaluations: 40, fraction: 0.5 },
        ],
        1000,
      ),
    ).toEqual([
      [1, 0],
      [3, 0.25],
      [40, 0.5],
      [1000, 0.5],
    ]);
    // A runtime at the budget ends the line there; none: flat at 0.
    expect(ecdfPoints([{ evaluations: 1000, fraction: 1 }], 1000)).toEqual([
      [1, 0],
      [1000, 1],
    ]);
    expect(ecdfPoints([], 500)).toEqual([
      [1, 0],
      [500, 0],
    ]);
  });

  it('a log x axis of evaluations up to the budget, fractions 0..1, each entrant in its own colour whatever the group holds', () => {
    const group = {
      group: 'so',
      withoutTargets: [],
      inexact: [],
      ecdfs: [{ solver: 'b', runs: 2, pairs: 44, reached: 22, points: [{ evaluations: 10, fraction: 0.5 }] }],
    };
    const option = ecdfOption(group, ['a', 'b'], 20_000) as {
      xAxis: { type: string; min: number; max: number };
      yAxis: { min: number; max: number };
      series: { name: string; step: string; color: string; data: number[][] }[];
    };
    expect(option.xAxis).toMatchObject({ type: 'log', min: 1, max: 20_000 });
    expect(option.yAxis).toMatchObject({ min: 0, max: 1 });
    expect(option.series.map((s) => [s.name, s.step, s.color])).toEqual([['b', 'end', seriesColor(LIGHT_PALETTE, 1)]]);
    expect(option.series[0].data.at(-1)).toEqual([20_000, 0.5]);
  });
});

describe('progress and standings', () => {
  const overview = {
    definition: { tracks: ['so', 'mo2'] },
    entrants: [
      { name: 'defaults', kind: 'built-in', what: 'default', createdAt: '' },
      { name: 'far', kind: 'remote', what: null, createdAt: '' },
    ],
    progress: [
      { entrant: 'defaults', track: 'so', total: 4, done: 2, failed: 1, running: 1, left: 0 },
      { entrant: 'defaults', track: 'mo2', total: 4, done: 0, failed: 0, running: 0, left: 4 },
      { entrant: 'far', track: 'so', total: 4, done: 4, failed: 0, running: 0, left: 0 },
      { entrant: 'far', track: 'mo2', total: 4, done: 0, failed: 0, running: 0, left: 4 },
    ],
  } as unknown as CompetitionOverview;

  it('one row per entrant, a cell per track in the definition order, and the sum', () => {
    const rows = entrantRows(overview);
    expect(rows.map((r) => [r.name, r.kind, r.tracks.map((t) => t.track), r.all])).toEqual([
      ['defaults', 'built-in', ['so', 'mo2'], { total: 8, done: 2, failed: 1, running: 1, left: 4 }],
      ['far', 'remote', ['so', 'mo2'], { total: 8, done: 4, failed: 0, running: 0, left: 4 }],
    ]);
    expect(endedShare(rows[0].tracks[0])).toBe(0.75);
    expect(progressText(rows[0].tracks[0])).toBe('2/4 done · 1 failed · 1 running');
    expect(progressText(rows[1].all)).toBe('4/8 done');
  });

  it('ranks and scores as the CLI writes them', () => {
    expect([formatRank(1.5), formatRank(2), formatRank(undefined)]).toEqual(['1.500', '2.000', '–']);
    expect([formatPosition(1), formatPosition(1.5)]).toEqual(['1', '1.5']);
    expect(scoreText({ kind: 'so', f: 12.25, violation: 0, at: 180, evaluations: 400 })).toBe('f 12.25 at 180');
    expect(scoreText({ kind: 'so', f: null, violation: 0.3125, at: 9, evaluations: 400 })).toBe('infeasible (violation 0.3125)');
    expect(scoreText({ kind: 'mo', hv: 0.81234, at: null, frontSize: 3, evaluations: 400 })).toBe('HV 0.8123');
    expect(scoreText(null)).toBe('nothing');
    const standings = {
      definition: { tracks: ['so', 'mo2'] },
      standings: [{ entrant: 'a', rank: 1, score: 1.25, tracks: { mo2: 1.5, so: 1 }, problems: {} }],
    } as unknown as CompetitionStandings;
    expect(standingsRows(standings)[0].trackRanks).toEqual([1, 1.5]);
  });
});
