/**
 * A small real project made once through the CLI, and a fresh copy of it for each case: for the
 * tests that damage or forge a project file (tests/main/cli/damaged-projects.test.ts,
 * forged-projects.test.ts) and check that the original's copy, not the original, is what they hurt.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { Database } from '../../src-main/project/sqlite.ts';
import { runCli } from '../main/cli/io.ts';

export interface ProjectCopies {
  /** original.saikoro in a temporary folder: the specs added, every run done (`experiment run --inline`). */
  original: string;
  /** A fresh copy of the original in a folder of its own: the folder and the file. */
  copy(name?: string): { cwd: string; file: string };
  /** Removes the temporary folder. */
  cleanup(): void;
}

/**
 * Makes the original: `project new`, `experiment add` of each spec (written as `specs`' file
 * names), `experiment run --inline`, then the `after` commands; each must exit 0.
 */
export async function projectCopies(prefix: string, specs: Record<string, unknown>, after: string[][] = []): Promise<ProjectCopies> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const [file, spec] of Object.entries(specs)) fs.writeFileSync(path.join(root, file), JSON.stringify(spec));
  const original = path.join(root, 'original.saikoro');
  for (const argv of [
    ['project', 'new', 'original.saikoro'],
    ...Object.keys(specs).map((file) => ['experiment', 'add', 'original.saikoro', '--spec', file]),
    ['experiment', 'run', 'original.saikoro', '--inline'],
    ...after,
  ])
    expect((await runCli(argv, { cwd: root })).code, argv.join(' ')).toBe(0);
  let copies = 0;
  return {
    original,
    copy(name = 'f.saikoro') {
      const cwd = path.join(root, `case-${++copies}`);
      fs.mkdirSync(cwd);
      fs.copyFileSync(original, path.join(cwd, name));
      return { cwd, file: path.join(cwd, name) };
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs SQL statements on a project file, behind the app's back. */
export function sql(file: string, statements: string): void {
  const db = new Database(file);
  db.exec(statements);
  db.close();
}
