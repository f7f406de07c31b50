// saikoro competition standings: the standings from the stored runs (the score recomputed with
// the exact evaluator, ranks, Friedman and Holm), every output format, ECDFs, and bad input.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { runCli } from './io.ts';

let cwd: string;
const cli = (...argv: string[]) => runCli(argv, { cwd });

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-standings-'));
  expect(
    (
      await cli(
        'competition',
        'new',
        'c.saikoro',
        '--tracks',
        'so,mo2',
        '--n',
        '100',
        '--instances',
        '3',
        '--budget',
        '1500',
        '--seeds',
        '2',
        '--secret',
        'standings-secret',
      )
    ).code,
  ).toBe(0);
  for (const [name, solver] of [
    ['defaults', 'default'],
    ['rnd', 'random'],
  ])
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', name, '--solver', solver)).code).toBe(0);
  // Before any run: standings say they are incomplete.
  const early = await cli('competition', 'standings', 'c.saikoro', '--json');
  expect(early.code).toBe(0);
  expect(JSON.parse(early.stdout)).toMatchObject({ complete: false, runs: { total: 24, done: 0, failed: 0, missing: 24 } });
  expect(early.stderr).toContain('24 run(s) not run yet count as runs that found nothing: saikoro competition run c.saikoro');
  const ran = await cli('competition', 'run', 'c.saikoro', '--jobs', '2');
  expect(ran.code, ran.stderr).toBe(0);
}, 300_000);

afterAll(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('saikoro competition standings', () => {
  it('ranks the entrants by their problem ranks over the suite, scored from the stored sequences, with Friedman and Holm', async () => {
    const r = await cli('competition', 'standings', 'c.saikoro', '--json');
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.complete).toBe(true);
    expect(report.runs).toEqual({ total: 24, done: 24, failed: 0, live: 0, missing: 0 });
    // The fixed fields.
    for (const s of report.standings) expect(Object.keys(s)).toEqual(expect.arrayContaining(['entrant', 'rank', 'score', 'problems']));
    const ids = ['so-n100-i1', 'so-n100-i2', 'so-n100-i3', 'mo2-n100-i1', 'mo2-n100-i2', 'mo2-n100-i3'];
    // The default solvers beat a random search on every problem here (each of their runs better than each random run).
    expect(report.standings.map((s: { entrant: string; rank: number; score: number }) => [s.entrant, s.rank, s.score])).toEqual([
      ['defaults', 1, 1],
      ['rnd', 2, 2],
    ]);
    expect(Object.keys(report.standings[0].problems).sort()).toEqual([...ids].sort());
    // Two treatments ranked alike on n blocks: chi2_F = n, p = P(chi2_1 > 6) = 0.014305878 (a chi-square table).
    expect(report.friedman.problems).toBe(6);
    expect(report.friedman.chiSquare).toBeCloseTo(6, 10);
    expect(report.friedman.p).toBeCloseTo(0.014305878, 8);
    expect(report.pairwise).toHaveLength(1);
    expect(report.pairwise[0]).toMatchObject({ a: 'defaults', b: 'rnd', rankDifference: -1 });
    // Each best single-objective score is the exact evaluator's f of a stored sequence, at the evaluation the run first reached it.
    const project = Project.open(path.join(cwd, 'c.saikoro'), { readOnly: true });
    const spec = project.experiment('so')!.spec;
    const grid = expandGrid(spec);
    const records = project.runs(grid.map((g) => g.id));
    project.close();
    for (const entrant of ['defaults', 'rnd'])
      for (const id of ids.slice(0, 3)) {
        const best = report.standings.find((s: { entrant: string }) => s.entrant === entrant).problems[id].best;
        const runs = grid.filter((g) => g.instance === id && g.label === entrant).map((g) => ({ g, rec: records.find((x) => x.id === g.id)! }));
        const exact = runs.map(({ g, rec }) => ({
          f: evaluateDice(rec.result!.best!.x, g.config).objectives[0],
          at: rec.result!.bestFoundAt,
          feasible: rec.result!.best!.feasible,
        }));
        const fs_ = exact.filter((x) => x.feasible).map((x) => x.f);
        expect(best.f).toBe(Math.min(...fs_));
        expect(exact.some((x) => x.f === best.f && x.at === best.at)).toBe(true);
      }
  });

  it('prints a table; writes HTML, CSV, LaTeX and JSON by the ending, and the ECDFs as CSV', async () => {
    const text = await cli('competition', 'standings', 'c.saikoro');
    expect(text.stdout).toMatch(/^# c\.saikoro: 2 entrant\(s\) over 6 problem\(s\); 24\/24 runs ended \(24 done, 0 failed\)\n/);
    expect(text.stdout).toMatch(/\| 1 +\| defaults \| 1\.000 \| 1\.000 \| 1\.000 \|/);
    expect(text.stdout).toContain('Friedman over 6 problems: chi2_F = 6.000 (df 1), p = 0.0143');
    for (const out of ['s.html', 's.csv', 's.tex', 's.json']) {
      const r = await cli('competition', 'standings', 'c.saikoro', '--out', out, '--ecdf', 'e.csv');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`wrote ${out}`);
    }
    const html = fs.readFileSync(path.join(cwd, 's.html'), 'utf8');
    expect(html).toContain('<title>c.saikoro: competition standings</title>');
    // No network and no script: the page's policy allows inline styles and data: images only.
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
    expect((html.match(/data-chart="ecdf"/g) ?? []).length).toBe(3); // so, mo2 and the suite
    expect(fs.readFileSync(path.join(cwd, 's.csv'), 'utf8').split('\r\n')[0]).toBe(
      'rank,entrant,score,track_so,track_mo2,so-n100-i1,so-n100-i2,so-n100-i3,mo2-n100-i1,mo2-n100-i2,mo2-n100-i3',
    );
    expect(fs.readFileSync(path.join(cwd, 's.csv'), 'utf8').split('\r\n')[1]).toBe('1,defaults,1,1,1,1,1,1,1,1,1');
    expect(fs.readFileSync(path.join(cwd, 's.tex'), 'utf8')).toMatch(/\\begin\{tabular\}[\s\S]*1 & defaults & 1\.000 & 1\.000 & 1\.000 \\\\/);
    expect(JSON.parse(fs.readFileSync(path.join(cwd, 's.json'), 'utf8')).format).toBe('saikoro-competition');
    // The ECDFs: per group and solver, fractions rising to reached/pairs, never past 1, at evaluations within the budget.
    const rows = fs.readFileSync(path.join(cwd, 'e.csv'), 'utf8').trim().split('\r\n');
    expect(rows[0]).toBe('group,solver,evaluations,fraction,reached,pairs');
    const series = new Map<string, { e: number; f: number; reached: number; pairs: number }[]>();
    for (const row of rows.slice(1)) {
      const [group, solver, e, f, reached, pairs] = row.split(',');
      const key = `${group}/${solver}`;
      series.set(key, [...(series.get(key) ?? []), { e: Number(e), f: Number(f), reached: Number(reached), pairs: Number(pairs) }]);
    }
    expect([...series.keys()].sort()).toEqual(['mo2/defaults', 'mo2/rnd', 'so/defaults', 'so/rnd', 'suite/defaults', 'suite/rnd']);
    for (const [key, points] of series) {
      for (let i = 1; i < points.length; i++) {
        expect(points[i].e, key).toBeGreaterThan(points[i - 1].e);
        expect(points[i].f, key).toBeGreaterThan(points[i - 1].f);
      }
      const last = points[points.length - 1];
      expect(last.e).toBeLessThanOrEqual(1500);
      expect(last.f).toBeLessThanOrEqual(1);
      expect(last.f).toBeCloseTo(last.reached / last.pairs, 12);
    }
    // Every (run, target) pair of the defaults is reached on so (their best is every target's end), fewer of the random search's.
    expect(series.get('so/defaults')!.at(-1)!.f).toBeGreaterThan(series.get('so/rnd')!.at(-1)!.f);
    // The suite's pairs are the tracks' pairs together.
    expect(series.get('suite/rnd')![0].pairs).toBe(series.get('so/rnd')![0].pairs + series.get('mo2/rnd')![0].pairs);
  });

  it('refuses bad outputs, a file that is not a competition and one nobody entered', async () => {
    expect((await cli('competition', 'standings', 'c.saikoro', '--out', 's.docx')).stderr).toContain(
      '--out s.docx: the ending must be one of .html, .htm, .csv, .tex, .json',
    );
    expect((await cli('competition', 'standings', 'c.saikoro', '--ecdf', 'e.txt')).stderr).toContain('--ecdf e.txt: the ending must be one of .csv');
    fs.writeFileSync(path.join(cwd, 'notes.csv'), 'my notes');
    const kept = await cli('competition', 'standings', 'c.saikoro', '--out', 'notes.csv');
    expect(kept.code).toBe(1);
    expect(kept.stderr).toContain('--out notes.csv: exists and is not a file Saikoro wrote: not replaced (--force replaces it)');
    expect(fs.readFileSync(path.join(cwd, 'notes.csv'), 'utf8')).toBe('my notes');
    expect((await cli('competition', 'standings', 'c.saikoro', '--out', 'notes.csv', '--force')).code).toBe(0);
    fs.copyFileSync(path.join(cwd, 'c.saikoro'), path.join(cwd, 'copy.json'));
    expect((await cli('competition', 'standings', 'c.saikoro', '--out', 'copy.json')).stderr).toContain('is a Saikoro project: a project is never replaced');
    expect((await cli('competition', 'standings', 'c.saikoro', '--out', 'x.csv', '--ecdf', 'x.csv')).stderr).toContain('--out and --ecdf name the same file');
    expect((await cli('competition', 'standings', 'c.saikoro', '--jobs', '2')).stderr).toContain('--jobs does not go with standings');
    await cli('project', 'new', 'plain.saikoro');
    expect((await cli('competition', 'standings', 'plain.saikoro')).stderr).toContain('plain.saikoro: is not a competition file');
    await cli(
      'competition',
      'new',
      'empty.saikoro',
      '--tracks',
      'so',
      '--n',
      '20',
      '--instances',
      '1',
      '--budget',
      '10',
      '--seeds',
      '1',
      '--secret',
      'standings-secret',
    );
    expect((await cli('competition', 'standings', 'empty.saikoro')).stderr).toContain('empty.saikoro: nobody has entered yet: no standings');
  });
});
