// Schema 3 -> 4: every run stored before the one stopping policy ran its whole budget, so an
// experiment with a single-objective instance and no target is marked `wholeBudget` when its
// file is migrated. Its runs keep their ids: status, compare and resume see them as done.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { validateSpec, type ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import { canonicalJson } from '../../../src-shared/experiments/canonical-json.ts';
import { runCli } from '../cli/io.ts';
import { dropSchema6, tempDir } from './fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const soSpec = {
  name: 'so-exp',
  instances: [{ name: 's', track: 'so', n: 20 }],
  solvers: [{ name: 'random' }],
  seeds: [1, 2, 3],
  budget: { evaluations: 400 },
};
const moSpec = {
  name: 'mo-exp',
  instances: [{ name: 'm', track: 'mo2', n: 20, normalisation: { ideal: [0, 0], nadir: [10, 10] } }],
  solvers: [{ name: 'random' }],
  seeds: [1],
  budget: { evaluations: 200 },
};
const targetSpec = { ...soSpec, name: 'target-exp', budget: { evaluations: 400, target: 50 } };

/**
 * A schema-3 file as the version before the policy wrote it: its SO runs used the whole budget
 * (made here by running the spec with wholeBudget, whose ids are the old ones), its specs
 * have no wholeBudget, and the header says 3.
 */
async function writeV3(file: string): Promise<string[]> {
  const cwd = path.dirname(file);
  await runCli(['project', 'new', path.basename(file)], { cwd });
  for (const spec of [{ ...soSpec, budget: { ...soSpec.budget, wholeBudget: true } }, moSpec, targetSpec]) {
    fs.writeFileSync(path.join(cwd, `${spec.name}.json`), JSON.stringify(spec));
    const added = await runCli(['experiment', 'add', path.basename(file), '--spec', `${spec.name}.json`], { cwd });
    expect(added.code, added.stderr).toBe(0);
  }
  const ran = await runCli(['experiment', 'run', path.basename(file), '--inline'], { cwd });
  expect(ran.code, ran.stderr).toBe(0);
  const db = new Database(file);
  db.run('UPDATE experiments SET spec_json = ? WHERE name = ?', [canonicalJson(validateSpec(soSpec)), 'so-exp']);
  // Schema 3 had no program column (schema 5 added it).
  dropSchema6(db);
  db.exec('ALTER TABLE runs DROP COLUMN program_json');
  db.exec('PRAGMA user_version = 3');
  const ids = (db.all('SELECT id FROM runs ORDER BY id') as { id: string }[]).map((r) => r.id);
  db.close();
  return ids;
}

describe('migration from schema 3: budgets before the stopping policy', () => {
  it('marks single-objective experiments without a target as whole-budget, and their runs stay done', async () => {
    expect(SCHEMA_VERSION).toBe(7);
    const file = path.join(dir, 'v3.saikoro');
    const ids = await writeV3(file);
    expect(ids).toHaveLength(3 + 1 + 3);
    expect(() => Project.open(file, { readOnly: true })).toThrow(/has project schema 3; open it once for writing/);

    const project = Project.open(file);
    expect(project.info().schemaVersion).toBe(SCHEMA_VERSION);
    const specs = new Map(project.experiments().map((e) => [e.spec.name, e.spec as ExperimentSpec]));
    expect(specs.get('so-exp')!.budget).toEqual({ evaluations: 400, wholeBudget: true });
    // Several objectives, or a target given: nothing to say.
    expect(specs.get('mo-exp')!.budget).toEqual({ evaluations: 200 });
    expect(specs.get('target-exp')!.budget).toEqual({ evaluations: 400, target: 50 });
    // Every stored run is still a run of its experiment: same ids, all done.
    const statuses = project.runStatuses();
    for (const spec of specs.values()) for (const run of expandGrid(spec)) expect(statuses.get(run.id), `${spec.name} ${run.seed}`).toBe('done');
    project.close();

    const status = await runCli(['experiment', 'status', 'v3.saikoro'], { cwd: dir });
    expect(status.stdout).toContain('so-exp: 3/3 done, 0 failed, 0 missing');
    const resumed = await runCli(['experiment', 'run', 'v3.saikoro', '--inline'], { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain('so-exp: 3 runs: 3 already done');
  });

  it('the same spec added to a new file runs under the policy: new ids, stopping at f = 0', async () => {
    const cwd = dir;
    await runCli(['project', 'new', 'new.saikoro'], { cwd });
    fs.writeFileSync(path.join(cwd, 'so.json'), JSON.stringify(soSpec));
    await runCli(['experiment', 'add', 'new.saikoro', '--spec', 'so.json'], { cwd });
    const project = Project.open(path.join(cwd, 'new.saikoro'), { readOnly: true });
    const [spec] = project.experiments().map((e) => e.spec as ExperimentSpec);
    expect(spec.budget).toEqual({ evaluations: 400 });
    expect(expandGrid(spec)[0].budget).toEqual({ evaluations: 400, target: 0 });
    project.close();
  });
});
