// A small real project for the report tests, made with the CLI: two experiments run inline, one
// run turned into a failure with an awkward reason, and one experiment that never ran.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { Database } from '../../../src-main/project/sqlite.ts';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from '../cli/io.ts';

export const MO = 'mo-study';
export const SO = 'so-study';
export const EMPTY = 'not-run';
/** The reason stored for the failed run: a comma, quotes, a newline and HTML/LaTeX specials. */
export const FAILURE = 'worker crashed, "out of memory" <at> 95% & more\nsecond line';

export const specs = {
  mo: {
    name: MO,
    description: 'random against NSGA-II on two and three objectives',
    instances: [
      { name: 'mo2-n12', track: 'mo2', n: 12 },
      { name: 'mo3-n12', track: 'mo3', n: 12 },
    ],
    solvers: [{ name: 'random' }, { name: 'nsga2', label: 'nsga2_p20', params: { populationSize: 20 } }],
    seeds: { count: 3 },
    budget: { evaluations: 400 },
  },
  so: {
    name: SO,
    instances: [
      { name: 'so-n12', track: 'so', n: 12 },
      { name: 'so-n20', track: 'so', n: 20, config: { lowerBounds: [0.05, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1] } },
    ],
    // Three solvers, so that the marks against the baseline are Holm-corrected over two comparisons.
    solvers: [{ name: 'random' }, { name: 'hill-climbing' }, { name: 'ils' }],
    seeds: { count: 3 },
    budget: { evaluations: 300 },
  },
  empty: {
    name: EMPTY,
    instances: [{ name: 'so-n8', track: 'so', n: 8 }],
    solvers: [{ name: 'random' }],
    seeds: [1],
    budget: { evaluations: 10 },
  },
};

export interface Fixture {
  cwd: string;
  file: string;
  /** Id of the run turned into a failure (in SO). */
  failedRun: string;
  cleanup(): void;
}

export async function makeFixture(prefix: string): Promise<Fixture> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), `saikoro-report-${prefix}-`));
  for (const [key, spec] of Object.entries(specs)) fs.writeFileSync(path.join(cwd, `${key}.json`), JSON.stringify(spec));
  expect((await runCli(['project', 'new', 'p.saikoro'], { cwd })).code).toBe(0);
  expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'mo.json'], { cwd })).code).toBe(0);
  expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'so.json'], { cwd })).code).toBe(0);
  const run = await runCli(['experiment', 'run', 'p.saikoro', '--inline'], { cwd });
  expect(run.code, run.stderr).toBe(0);
  // Added after the run, so it has no runs at all.
  expect((await runCli(['experiment', 'add', 'p.saikoro', '--spec', 'empty.json'], { cwd })).code).toBe(0);

  const file = path.join(cwd, 'p.saikoro');
  const project = Project.open(file, { readOnly: true });
  const victim = project.runs().find((r) => r.instance === 'so-n20' && r.solver === 'hill-climbing' && r.seed === 2)!;
  project.close();
  const db = new Database(file);
  // As the runner stores a failure: no result, no evaluation count.
  db.run("UPDATE runs SET status = 'failed', error = ?, evaluations = NULL WHERE id = ?", [FAILURE, victim.id]);
  db.run('DELETE FROM results WHERE run_id = ?', victim.id);
  db.close();
  return { cwd, file, failedRun: victim.id, cleanup: () => fs.rmSync(cwd, { recursive: true, force: true }) };
}

export { csvObjects, parseCsv } from './csv-parse.ts';
