// Helpers for the project store tests: temporary folders and synthetic run records.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import type { RunRecord } from '../../../src-main/project/project-records.ts';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-project-'));
}

export function fileDigest(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** A run record with a result of about `resultBytes` bytes (the front carries the bulk). */
export function fakeRun(i: number, options: { status?: 'done' | 'failed'; resultBytes?: number } = {}): RunRecord {
  const status = options.status ?? 'done';
  const points = Math.max(1, Math.floor((options.resultBytes ?? 200) / 120));
  return {
    id: `run-${String(i).padStart(6, '0')}`,
    instance: 'mo3-n20',
    label: 'random',
    config: trackConfig('mo3', 20),
    solver: 'random',
    params: { batch: 100 },
    seed: i,
    budget: { evaluations: 1000 },
    program: null,
    status,
    error: status === 'failed' ? 'solver crashed' : null,
    // A result with every field the store checks (records.ts): solutions of N = 20 faces, with
    // the config's 3 objectives and 12 constraint values.
    result:
      status === 'failed'
        ? null
        : ({
            solver: 'random',
            params: { batch: 100 },
            seed: i,
            evaluations: 1000,
            seconds: 0.5,
            best: null,
            bestFoundAt: null,
            firstFeasibleAt: 1,
            front: Array.from({ length: points }, (_, k) => ({
              x: '12345612345612345612',
              objectives: [k, i, 1 / (k + 1)],
              constraints: Array(12).fill(0),
              feasible: true,
              violation: 0,
            })),
            trace: [{ evaluations: 1000, seconds: 0.5, best: null, violation: 0, feasible: true, frontSize: points, indicator: null }],
          } as unknown as RunRecord['result']),
    appVersion: 'saikoro 0.1.0',
    host: 'test',
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:01.000Z',
    elapsedMs: 1000,
    evaluations: 1000,
  };
}

/**
 * Takes a file of the current schema (7) back to schema 6's tables: no runs.remote column, no
 * entrant tokens and no remote requests (schema 7 added them).
 */
export function dropSchema7(db: { exec(sql: string): void }): void {
  db.exec('DROP TABLE remote_requests; DROP TABLE entrant_tokens; ALTER TABLE runs DROP COLUMN remote;');
}

/**
 * Takes a file of the current schema (7) back to schema 5's tables: no runs.blind column and no
 * competition tables (schema 6 added them). The migration tests build older files from new ones.
 */
export function dropSchema6(db: { exec(sql: string): void }): void {
  dropSchema7(db);
  db.exec('DROP TABLE entrant_files; DROP TABLE entrants; DROP TABLE competition; ALTER TABLE runs DROP COLUMN blind;');
}
