/**
 * Migrating an older project file to the current schema (schema.ts: MIGRATIONS), in one
 * transaction: a kill during a migration leaves the old file, which the next open migrates
 * again. The file has passed its checks (file-checks.ts) for its own version first, so a file
 * whose version number was damaged is never "migrated". Each migration is noted in the meta
 * table (migrated_from_<version>: when, and by which version of Saikoro).
 */
import { appVersion } from './app-version.ts';
import { ProjectError } from './errors.ts';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.ts';
import { withBusyRetry, type Database, type Row } from './sqlite.ts';

/** Migrates the file from schema `from` to SCHEMA_VERSION; the caller holds no transaction. */
export function migrate(file: string, db: Database, from: number): void {
  withBusyRetry(() => {
    db.exec('BEGIN IMMEDIATE');
    try {
      // Re-read inside the transaction: another process may have migrated meanwhile.
      let version = Number((db.get('PRAGMA user_version') as Row).user_version);
      while (version < SCHEMA_VERSION) {
        const step = MIGRATIONS[version];
        if (!step) throw new ProjectError(`${file}: no migration from project schema ${version}`, file);
        if (typeof step === 'string') db.exec(step);
        else step({ exec: (sql) => db.exec(sql), all: (sql) => db.all(sql), run: (sql, values) => void db.run(sql, values as never) });
        version++;
        db.exec(`PRAGMA user_version = ${version}`);
      }
      db.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', [`migrated_from_${from}`, `${new Date().toISOString()} by ${appVersion()}`]);
      db.exec('COMMIT');
    } catch (e) {
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        // the next open plays the journal back
      }
      throw e;
    }
  });
}
