/**
 * The project file's schema. PRAGMA application_id marks a file as a Saikoro project and
 * PRAGMA user_version holds the schema version; both live in the file header, so a file can
 * be classified by reading 100 bytes, before SQLite touches it.
 *
 * To change the schema: bump SCHEMA_VERSION, keep the old schema as SCHEMA_V<old>, build
 * CURRENT_SCHEMA from it plus the change, and append that change to MIGRATIONS (tested from a
 * file of the old version).
 */

/** "SKRO" in ASCII. */
export const APPLICATION_ID = 0x534b524f;
export const SCHEMA_VERSION = 3;

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

/** The schema a new file gets. */
export const CURRENT_SCHEMA = SCHEMA_V2 + LAB_RUNS_TABLE;


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

/** MIGRATIONS[v] turns a version-v file into version v + 1 (run inside one transaction). */
export const MIGRATIONS: Record<number, string> = {
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
};
