/**
 * The project file's schema. PRAGMA application_id marks a file as a Saikoro project and
 * PRAGMA user_version holds the schema version; both live in the file header, so a file can
 * be classified by reading 100 bytes, before SQLite touches it.
 *
 * To change the schema: bump SCHEMA_VERSION, keep the old schema as SCHEMA_V<old>, build
 * CURRENT_SCHEMA from it plus the change, and append that change to MIGRATIONS (tested from a
 * file of the old version). A step is SQL, or a function for rows that code must rewrite.
 */

import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { instanceConfig, type InstanceSpec } from '../../src-shared/experiments/spec.ts';

/** "SKRO" in ASCII. */
export const APPLICATION_ID = 0x534b524f;
export const SCHEMA_VERSION = 7;

/**
 * Version 2 (Saikoro before lab runs): experiments, dice runs, results and notes. Kept for
 * reference and for the v2 -> v3 migration test.
 */
export const SCHEMA_V2 = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE experiments (
  name TEXT PRIMARY KEY,
  spec_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE runs (
  id TEXT PRIMARY KEY,
  instance TEXT NOT NULL,
  label TEXT NOT NULL,
  config_json TEXT NOT NULL,
  solver TEXT NOT NULL,
  params_json TEXT NOT NULL,
  seed INTEGER NOT NULL,
  budget_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
  error TEXT,
  app_version TEXT NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  elapsed_ms REAL NOT NULL,
  evaluations INTEGER
);
CREATE TABLE results (
  run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  result_json TEXT NOT NULL
);
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  experiment TEXT,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

/** Schema 3 adds the lab runs (saikoro nqueens --project). */
const LAB_RUNS_TABLE = `
CREATE TABLE lab_runs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  request_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
  error TEXT,
  result_json TEXT,
  app_version TEXT NOT NULL,
  host TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  elapsed_ms REAL NOT NULL
);
`;

/** Schemas 3 and 4: schema 2 plus the lab runs. */
export const SCHEMA_V4 = SCHEMA_V2 + LAB_RUNS_TABLE;

/**
 * Schema 5 adds, with each run of a solver program (docs/external-solvers.md), the program as
 * its spec entry stored it (command, cwd, env, blind, hashes of its files): part of the run's
 * identity, hashed into its id. NULL for the built-in solvers' runs.
 */
const PROGRAM_COLUMN = `
ALTER TABLE runs ADD COLUMN program_json TEXT;
`;

/** Schema 5: schema 4 plus the program column. Kept for the v5 -> v6 migration test. */
export const SCHEMA_V5 = SCHEMA_V4 + PROGRAM_COLUMN;

/**
 * Schema 6 adds the competition's setting (docs/competition.md): whether a built-in solver's
 * run was blind (part of its id, src-shared/experiments/grid.ts; 0 for every run stored
 * before), and a competition file's own tables: the competition (its suite's definition, the
 * budget and seeds, a commitment to the organiser's secret, the secret itself only once it is
 * revealed), its entrants, and the archived folders of the entrants that are programs (every
 * file with its sha256). A project that is not a competition has them empty.
 */
const COMPETITION_TABLES = `
ALTER TABLE runs ADD COLUMN blind INTEGER NOT NULL DEFAULT 0 CHECK (blind IN (0, 1));
CREATE TABLE competition (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  definition_json TEXT NOT NULL,
  commitment_json TEXT NOT NULL,
  secret TEXT,
  revealed_at TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE entrants (
  name TEXT PRIMARY KEY,
  entry_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE entrant_files (
  entrant TEXT NOT NULL REFERENCES entrants(name) ON DELETE CASCADE,
  path TEXT NOT NULL,
  mode INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (entrant, path)
);
`;

/** Schema 6: schema 5 plus the blind column and the competition's tables. Kept for the v6 -> v7 migration test. */
export const SCHEMA_V6 = SCHEMA_V5 + COMPETITION_TABLES;

/**
 * Schema 7 adds the competition as a service (docs/competition.md, "Running it as a service"):
 * whether a run is a remote entrant's (played over the network against `saikoro serve
 * --competition`; part of its id; 0 for every run stored before), the entrants' tokens (only
 * their sha256: a token is printed once and never stored), and every request of a remote run
 * that was evaluated, in order (`seq` from 0), with the valid sequences it held (packed three
 * faces a byte, then deflated: remote-requests.ts) and how many of them were evaluated: what
 * a restarted server replays to resume the run exactly where it was.
 */
const REMOTE_TABLES = `
ALTER TABLE runs ADD COLUMN remote INTEGER NOT NULL DEFAULT 0 CHECK (remote IN (0, 1));
CREATE TABLE entrant_tokens (
  sha256 TEXT PRIMARY KEY,
  entrant TEXT NOT NULL REFERENCES entrants(name) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE remote_requests (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL CHECK (seq >= 0),
  entrant TEXT NOT NULL,
  evaluations INTEGER NOT NULL CHECK (evaluations >= 0),
  sequences BLOB NOT NULL,
  received_at TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
);
`;

/** The schema a new file gets. */
export const CURRENT_SCHEMA = SCHEMA_V6 + REMOTE_TABLES;

/**
 * Version 1 (Saikoro before notes and separate results): runs carried their result JSON in a
 * column and had no app version, host or evaluation count. Kept for reference; the migration
 * test builds its own v1 file.
 */
export const SCHEMA_V1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE experiments (name TEXT PRIMARY KEY, spec_json TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE runs (
  id TEXT PRIMARY KEY, instance TEXT NOT NULL, label TEXT NOT NULL, config_json TEXT NOT NULL,
  solver TEXT NOT NULL, params_json TEXT NOT NULL, seed INTEGER NOT NULL, budget_json TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('done', 'failed')), error TEXT,
  started_at TEXT NOT NULL, finished_at TEXT NOT NULL, elapsed_ms REAL NOT NULL,
  result_json TEXT
);
`;

/** What a migration step may do with the database: SQL, or rows rewritten by code. */
export interface MigrationDb {
  exec(sql: string): void;
  all(sql: string): unknown[];
  run(sql: string, values: unknown[]): void;
}

/**
 * Schema 4 has schema 3's tables. What changed is the meaning of a budget: since the one
 * stopping policy (src-shared/solvers/stopping.ts), a single-objective run stops at its first
 * feasible f = 0 unless the budget says `wholeBudget`. Every run stored before ran its whole
 * budget, so experiments with a single-objective instance and no target say so from now on,
 * which keeps their run ids (src-shared/experiments/grid.ts hashes the budget as it applies).
 */
export function budgetMeansWholeBudget(db: MigrationDb): void {
  for (const row of db.all('SELECT name, spec_json FROM experiments') as { name: string; spec_json: string }[]) {
    let spec: { budget?: { target?: unknown; wholeBudget?: unknown }; instances?: InstanceSpec[] };
    try {
      spec = JSON.parse(row.spec_json);
    } catch {
      continue; // a damaged row stays as it is; reading it reports it
    }
    const budget = spec.budget;
    if (!budget || typeof budget !== 'object' || budget.target !== undefined || budget.wholeBudget !== undefined) continue;
    if (!hasSingleObjectiveInstance(spec.instances)) continue;
    budget.wholeBudget = true;
    db.run('UPDATE experiments SET spec_json = ? WHERE name = ?', [canonicalJson(spec), row.name]);
  }
}

function hasSingleObjectiveInstance(instances: InstanceSpec[] | undefined): boolean {
  if (!Array.isArray(instances)) return false;
  return instances.some((instance) => {
    try {
      return instanceConfig(instance).objectives.length === 1;
    } catch {
      return false;
    }
  });
}

/** MIGRATIONS[v] turns a version-v file into version v + 1 (run inside one transaction). */
export const MIGRATIONS: Record<number, string | ((db: MigrationDb) => void)> = {
  1: `
ALTER TABLE runs ADD COLUMN app_version TEXT NOT NULL DEFAULT 'unknown (schema 1)';
ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT 'unknown';
ALTER TABLE runs ADD COLUMN evaluations INTEGER;
CREATE TABLE results (
  run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  result_json TEXT NOT NULL
);
INSERT INTO results (run_id, result_json) SELECT id, result_json FROM runs WHERE result_json IS NOT NULL;
UPDATE runs SET evaluations = (SELECT json_extract(result_json, '$.evaluations') FROM runs AS r WHERE r.id = runs.id) WHERE result_json IS NOT NULL;
ALTER TABLE runs DROP COLUMN result_json;
CREATE TABLE notes (
  id INTEGER PRIMARY KEY,
  experiment TEXT,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`,
  2: LAB_RUNS_TABLE,
  3: budgetMeansWholeBudget,
  4: PROGRAM_COLUMN,
  5: COMPETITION_TABLES,
  6: REMOTE_TABLES,
};
