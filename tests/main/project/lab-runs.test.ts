// Lab runs in a project file (schema 3): N-Queens runs stored outside any experiment, and the
// v2 -> v3 migration that adds their table.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectError } from '../../../src-main/project/errors.ts';
import { labRunId, type LabRunRecord, labRunRequest } from '../../../src-main/project/project-records.ts';
import { Project } from '../../../src-main/project/store.ts';
import { APPLICATION_ID, SCHEMA_V2, SCHEMA_VERSION } from '../../../src-main/project/schema.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { executeRun } from '../../../src-shared/runtime/kinds/index.ts';
import type { NqueensRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import { verifySolution } from '../../../src-shared/problems/nqueens/verify.ts';
import { fakeRun, tempDir } from './fixtures.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const request: NqueensRunRequest = { kind: 'nqueens', method: 'minconflicts', n: 8, params: { samples: 8, noise: 0.02 }, seed: 3 };

async function labRun(req: NqueensRunRequest = request): Promise<LabRunRecord> {
  const result = await executeRun(req);
  const labRequest = labRunRequest(req);
  return {
    id: labRunId(labRequest),
    kind: 'nqueens',
    request: labRequest,
    status: 'done',
    error: null,
    result,
    appVersion: 'saikoro 0.1.0',
    host: 'test',
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:00.250Z',
    elapsedMs: 250,
  };
}

describe('lab run ids', () => {
  it('hash kind, method, n, params, seed and limits only, independent of key order', () => {
    const id = labRunId(request);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(labRunId({ ...request, params: { noise: 0.02, samples: 8 } })).toBe(id);
    expect(labRunId({ ...request, snapshotIntervalMs: 50, memoryLimitMb: 100 })).toBe(id);
    expect(labRunId({ ...request, limits: {} })).toBe(id);
    expect(labRunId(labRunRequest(request))).toBe(id);
    const others = [
      { ...request, seed: 4 },
      { ...request, n: 9 },
      { ...request, method: 'neural' as const },
      { ...request, params: { samples: 9, noise: 0.02 } },
      { ...request, limits: { steps: 100 } },
    ].map(labRunId);
    expect(new Set([id, ...others]).size).toBe(6);
  });
});

describe('lab runs in a project', () => {
  it('round-trip; the same request twice keeps one row, a failed run is replaced', async () => {
    const file = path.join(dir, 'lab.saikoro');
    const project = Project.create(file);
    const run = await labRun();
    expect(run.result?.solved).toBe(true);
    expect(verifySolution(run.result!.queens!)).toBe(true);
    expect(project.putLabRun(run)).toBe(true);
    expect(project.putLabRun({ ...run, finishedAt: '2026-12-01T00:00:00.000Z', elapsedMs: 1 })).toBe(false);
    project.close();

    const again = Project.open(file, { readOnly: true });
    expect(again.labRuns()).toEqual([run]);
    expect(again.labRuns('nqueens')).toEqual([run]);
    expect(again.labRuns('other')).toEqual([]);
    expect(again.info().labRuns).toEqual({ done: 1, failed: 0 });
    // Lab runs are not experiment runs.
    expect(again.info().runs).toEqual({ done: 0, failed: 0 });
    again.close();

    const writer = Project.open(file);
    const other: NqueensRunRequest = { ...request, seed: 11 };
    const failed: LabRunRecord = { ...(await labRun(other)), status: 'failed', error: 'worker crashed', result: null };
    expect(writer.putLabRun(failed)).toBe(true);
    expect(writer.info().labRuns).toEqual({ done: 1, failed: 1 });
    const retried = await labRun(other);
    expect(writer.putLabRun(retried)).toBe(true);
    expect(writer.info().labRuns).toEqual({ done: 2, failed: 0 });
    expect(writer.labRuns().find((r) => r.id === retried.id)).toEqual(retried);
    writer.close();
  });

  it('refuses a record whose id is not the hash of its request', async () => {
    const project = Project.create(path.join(dir, 'bad.saikoro'));
    const run = await labRun();
    expect(() => project.putLabRun({ ...run, id: labRunId({ ...request, seed: 99 }) })).toThrow(ProjectError);
    expect(() => project.putLabRun({ ...run, id: labRunId({ ...request, seed: 99 }) })).toThrow(/does not match its request/);
    expect(project.labRuns()).toEqual([]);
    project.close();
  });
});

describe('damaged lab runs (issue 21: every value read is checked)', () => {
  it.each([
    [
      'a result whose steps are text',
      `json_set(result_json, '$.steps', 'many')`,
      /result_json\.steps: must be a count \(an integer of at least 0\), got "many"/,
    ],
    [
      'a result whose queens are not N rows',
      `json_set(result_json, '$.queens', json('[0, 1]'))`,
      /result_json\.queens: must be null or a list of 8 rows, got 2 values/,
    ],
    ['a queen off the board', `json_set(result_json, '$.queens[0]', 8)`, /result_json\.queens\[0\]: must be a column from 0 to 7, got 8/],
    ['a result whose solved is not true or false', `json_set(result_json, '$.solved', 'yes')`, /result_json\.solved: must be true or false, got "yes"/],
    ['a result of another N than its request', `json_set(result_json, '$.n', 9)`, /result_json\.n: is 9, not the request's n = 8/],
  ])('%s is refused naming the lab run and the field', async (_, edit, message) => {
    const file = path.join(dir, 'lab.saikoro');
    const project = Project.create(file);
    const run = await labRun();
    project.putLabRun(run);
    project.close();
    const db = new Database(file);
    db.exec(`UPDATE lab_runs SET result_json = ${edit}`);
    db.close();
    const again = Project.open(file, { readOnly: true });
    try {
      expect(() => again.labRuns()).toThrow(ProjectError);
      expect(() => again.labRuns()).toThrow(new RegExp(`corrupt Saikoro project \\(lab run ${run.id}: ${message.source}\\)`));
    } finally {
      again.close();
    }
  });

  it('a request whose n is text is refused by name', async () => {
    const file = path.join(dir, 'lab.saikoro');
    const project = Project.create(file);
    const run = await labRun();
    project.putLabRun(run);
    project.close();
    const db = new Database(file);
    db.exec(`UPDATE lab_runs SET request_json = json_set(request_json, '$.n', 'eight')`);
    db.close();
    const again = Project.open(file, { readOnly: true });
    try {
      expect(() => again.labRuns()).toThrow(/lab run [0-9a-f]{32}: request_json\.n: must be an integer, got "eight"/);
    } finally {
      again.close();
    }
  });
});

describe('migration from schema 2', () => {
  function writeV2(file: string): void {
    const db = new Database(file);
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = 2;`);
    db.exec(SCHEMA_V2);
    db.run("INSERT INTO meta VALUES ('created_at', '2026-06-01T00:00:00.000Z'), ('created_by', 'saikoro 0.0.10')");
    for (const run of [fakeRun(3), fakeRun(4, { status: 'failed' })]) {
      db.run(
        `INSERT INTO runs (id, instance, label, config_json, solver, params_json, seed, budget_json, status, error,
           app_version, host, started_at, finished_at, elapsed_ms, evaluations) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          run.id,
          run.instance,
          run.label,
          JSON.stringify(run.config),
          run.solver,
          JSON.stringify(run.params),
          run.seed,
          JSON.stringify(run.budget),
          run.status,
          run.error,
          run.appVersion,
          run.host,
          run.startedAt,
          run.finishedAt,
          run.elapsedMs,
          run.status === 'done' ? run.evaluations : null,
        ],
      );
      if (run.result) db.run('INSERT INTO results VALUES (?, ?)', [run.id, JSON.stringify(run.result)]);
    }
    db.run('INSERT INTO notes (experiment, text, created_at) VALUES (?, ?, ?)', [null, 'from v2', '2026-06-01T00:00:00.000Z']);
    db.close();
  }

  it('adds the lab_runs table and keeps every run, result and note', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(3);
    const file = path.join(dir, 'v2.saikoro');
    writeV2(file);
    expect(() => Project.open(file, { readOnly: true })).toThrow(/has project schema 2; open it once for writing/);
    const project = Project.open(file);
    const info = project.info();
    expect(info).toMatchObject({
      schemaVersion: SCHEMA_VERSION,
      createdBy: 'saikoro 0.0.10',
      runs: { done: 1, failed: 1 },
      notes: 1,
      labRuns: { done: 0, failed: 0 },
    });
    expect(project.run(fakeRun(3).id)).toEqual(fakeRun(3));
    expect(project.run(fakeRun(4).id)).toMatchObject({ status: 'failed', error: 'solver crashed', result: null });
    expect(project.notes().map((n) => n.text)).toEqual(['from v2']);
    const run = await labRun();
    expect(project.putLabRun(run)).toBe(true);
    project.close();
    expect(fs.readFileSync(file).readInt32BE(60)).toBe(SCHEMA_VERSION);

    const db = new Database(file, { readOnly: true });
    const columns = (db.all('PRAGMA table_info(lab_runs)') as { name: string }[]).map((c) => c.name);
    db.close();
    expect(columns).toEqual(['id', 'kind', 'request_json', 'status', 'error', 'result_json', 'app_version', 'host', 'started_at', 'finished_at', 'elapsed_ms']);
    const reopened = Project.open(file, { readOnly: true });
    expect(reopened.labRuns()).toEqual([run]);
    reopened.close();
  });

  it('a new file and a migrated one have the same tables and columns', () => {
    const fresh = path.join(dir, 'fresh.saikoro');
    Project.create(fresh).close();
    const old = path.join(dir, 'old.saikoro');
    writeV2(old);
    Project.open(old).close();
    const shape = (file: string) => {
      const db = new Database(file, { readOnly: true });
      const tables = (db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as { name: string }[]).map((t) => t.name);
      const out = tables.map((t) => [
        t,
        (db.all(`PRAGMA table_info(${t})`) as { name: string; type: string; notnull: number; pk: number }[]).map(
          (c) => `${c.name} ${c.type} ${c.notnull} ${c.pk}`,
        ),
      ]);
      db.close();
      return out;
    };
    expect(shape(old)).toEqual(shape(fresh));
  });
});
