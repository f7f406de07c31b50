// Child process for the kill -9 test. Modes:
//   runs FILE      write runs in a loop, printing "committed <i>" after each commit
//   stuck FILE     commit 300 notes, then open a raw write transaction that rewrites them and
//                  spills pages into the file, print "in-transaction" and wait to be killed
import { Project } from '../../../src-main/project/store.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { fakeRun } from './fixtures.ts';

const [mode, file] = process.argv.slice(2);
if (mode === 'runs') {
  const project = Project.open(file);
  for (let i = 0; ; i++) {
    project.putRun(fakeRun(i, { resultBytes: 20_000 }));
    process.stdout.write(`committed ${i}\n`);
  }
} else if (mode === 'stuck') {
  // Committed first: 300 notes. Then, uncommitted, every note rewritten and 200 added, with a
  // one-page cache so that SQLite keeps spilling into the file (and re-syncing the journal,
  // which starts new journal segments) before the kill.
  const db = new Database(file);
  db.exec('BEGIN');
  for (let i = 0; i < 300; i++) db.run('INSERT INTO notes (experiment, text, created_at) VALUES (NULL, ?, ?)', [`note ${i} `.repeat(40), 'committed']);
  db.exec('COMMIT');
  db.exec('PRAGMA cache_size = 1; BEGIN IMMEDIATE');
  for (let round = 0; round < 3; round++) db.run("UPDATE notes SET text = text || 'x', created_at = 'never committed'");
  for (let i = 0; i < 200; i++) db.run('INSERT INTO notes (experiment, text, created_at) VALUES (NULL, ?, ?)', ['x'.repeat(4000), 'never committed']);
  process.stdout.write('in-transaction\n');
  setInterval(() => {}, 1000);
}
