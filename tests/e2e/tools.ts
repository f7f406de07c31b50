/**
 * The one policy for tests that drive an outside program (Chromium, pdflatex, pdftotext, Slurm,
 * ...): where the program is missing, the tests that need it FAIL under CI (`CI=true`, as
 * `.ci/run` sets it), with a message naming what is missing and how to install it, so a CI
 * report never passes by running nothing; elsewhere they are skipped, with that message on the
 * console.
 *
 *   const pdflatex = requireTool('pdflatex', '/usr/bin/pdflatex', 'apt-get install texlive-latex-base');
 *   pdflatex.describe('the LaTeX report', () => {
 *     beforeAll(...); it(...); // as in any describe block
 *   });
 *
 * Present: an ordinary describe block. Missing outside CI: the block is skipped. Missing under
 * CI: the block is replaced by one test, "<name> is installed", that fails with the message
 * (a failing test, not a failing hook, so every report counts it). Work done outside the block
 * for it (a file-level beforeAll) should return early when `!tool.present`.
 */
import { accessSync, constants } from 'node:fs';
import { describe, it } from 'vitest';

export interface RequiredTool {
  readonly name: string;
  readonly path: string;
  /** Whether the program is there (an executable file at `path`). */
  readonly present: boolean;
  /** True only outside CI with the program missing: skip the tests that need it. */
  readonly skip: boolean;
  /** "<name> not found at <path>; install it with <install>". */
  readonly message: string;
  /** Throws `message` when the program is missing. */
  check(): void;
  /** A describe block for the tests that need the program (see the header for the policy). */
  describe(title: string, body: () => void): void;
}

export const underCi = (env: NodeJS.ProcessEnv = process.env): boolean => env.CI === 'true';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Looks for the program `name` at `path` (`install`: the command that installs it). Outside CI a
 * missing program prints one "SKIPPED" line and its tests are skipped; under CI they fail.
 */
export function requireTool(name: string, path: string, install: string, env: NodeJS.ProcessEnv = process.env): RequiredTool {
  const present = executable(path);
  const message = `${name} not found at ${path}; install it with ${install}`;
  const skip = !present && !underCi(env);
  if (skip) console.warn(`SKIPPED (CI would fail): ${message}`);
  return {
    name,
    path,
    present,
    skip,
    message,
    check() {
      if (!present) throw new Error(message);
    },
    describe(title, body) {
      if (present) describe(title, body);
      else if (skip) describe.skip(title, body);
      else
        describe(title, () => {
          it(`${name} is installed`, () => {
            throw new Error(message);
          });
        });
    },
  };
}
