// The schema check reads the table names of the versions other than a file's own from their
// schema text (schemaTables) instead of building each in SQLite at every open (issue 27, the
// start-up of commands that open a project): the names must be exactly SQLite's.
import { describe, expect, it } from 'vitest';
import { SCHEMA_TEXT, schemaColumns, schemaTables } from '../../../src-main/project/file-checks.ts';

describe('schemaTables', () => {
  it("names every version's tables exactly as SQLite makes them from the same text", () => {
    const versions = Object.keys(SCHEMA_TEXT).map(Number);
    expect(versions.length).toBeGreaterThanOrEqual(6);
    for (const v of versions) {
      const fromSqlite = [...schemaColumns(v).keys()].sort();
      expect(fromSqlite.length, `version ${v}`).toBeGreaterThanOrEqual(3);
      expect([...schemaTables(v)].sort(), `version ${v}`).toEqual(fromSqlite);
    }
  });
});
