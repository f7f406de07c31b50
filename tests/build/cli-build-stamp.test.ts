// The stamp that keeps a checkout from running a build older than its sources
// (scripts/cli-build-stamp.mjs, scripts/build-cli.mjs's cliBuildState), on a small checkout made
// in a temporary folder: every kind of change to the sources makes the quick check fail and the
// full check say "stale"; a folder touched with no source changed makes only the quick check
// fail, and the full check then refreshes the stamp so the next start's quick check passes.
import { mkdirSync, mkdtempSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface Inputs {
  files: [string, number, number][];
  dirs: [string, number][];
}
interface StampModule {
  INPUTS: string[];
  scanInputs(root: string): Inputs;
  writeStamp(root: string, inputs: Inputs, builtAt: string): void;
  readStamp(root: string): { builtAt: string; inputs: Inputs } | null;
  stampLooksCurrent(root: string): boolean;
}
interface BuildModule {
  cliBuildState(root: string): 'missing' | 'stale' | null;
}

const load = <T>(file: string): Promise<T> => import(new URL(`../../scripts/${file}`, import.meta.url).href) as Promise<T>;
const stamp = await load<StampModule>('cli-build-stamp.mjs');
const { cliBuildState } = await load<BuildModule>('build-cli.mjs');

let root: string;
const at = (rel: string) => join(root, rel);
/** Sets a path's modification time `seconds` away from the one it has, as a later save would. */
const shiftTime = (rel: string, seconds: number) => {
  const { mtimeMs } = statSync(at(rel));
  const t = new Date(mtimeMs + seconds * 1000);
  utimesSync(at(rel), t, t);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'saikoro-stamp-'));
  const files: Record<string, string> = {
    'src-main/cli/index.ts': 'export {};\n',
    'src-shared/problems/dice/evaluate.ts': 'export const x = 1;\n',
    'src-shared/json.ts': 'export const y = 2;\n',
    'package.json': '{}\n',
    'tsconfig.base.json': '{}\n',
    'tsconfig.main.json': '{}\n',
    'scripts/build-cli.mjs': '// build\n',
    'scripts/cli-build-stamp.mjs': '// stamp\n',
    'out/cli/index.js': '// built\n',
    'out/cli/worker.js': '// built\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(at(rel), text);
  }
  stamp.writeStamp(root, stamp.scanInputs(root), '2026-01-01T00:00:00.000Z');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the stamp of out/cli', () => {
  it('records every input file and folder, and a fresh stamp is current', () => {
    const { files, dirs } = stamp.readStamp(root)!.inputs;
    expect(files.map((f) => f[0])).toEqual(['src-main/cli/index.ts', 'src-shared/json.ts', 'src-shared/problems/dice/evaluate.ts', 'package.json', 'tsconfig.base.json', 'tsconfig.main.json', 'scripts/build-cli.mjs', 'scripts/cli-build-stamp.mjs']);
    expect(files[0][1]).toBe(11);
    expect(dirs.map((d) => d[0])).toEqual(['src-main', 'src-main/cli', 'src-shared', 'src-shared/problems', 'src-shared/problems/dice']);
    expect(stamp.stampLooksCurrent(root)).toBe(true);
    expect(cliBuildState(root)).toBe(null);
  });

  const changes: [string, () => void][] = [
    ['a source edited (new size)', () => writeFileSync(at('src-shared/json.ts'), 'export const y = 22;\n')],
    ['a source saved again (same size, later time)', () => shiftTime('src-shared/problems/dice/evaluate.ts', 5)],
    ['a source saved with an older time (a checkout of an older commit)', () => shiftTime('src-main/cli/index.ts', -3600)],
    ['a new source deep down', () => writeFileSync(at('src-shared/problems/dice/new.ts'), 'export {};\n')],
    ['a new folder with a source', () => {
      mkdirSync(at('src-main/app'));
      writeFileSync(at('src-main/app/run.ts'), 'export {};\n');
    }],
    ['a source removed', () => unlinkSync(at('src-shared/json.ts'))],
    ['package.json changed', () => writeFileSync(at('package.json'), '{"version": "2"}\n')],
    ['the build script changed', () => writeFileSync(at('scripts/build-cli.mjs'), '// build, changed\n')],
  ];
  for (const [what, change] of changes) {
    it(`${what}: stale`, () => {
      change();
      expect(stamp.stampLooksCurrent(root)).toBe(false);
      expect(cliBuildState(root)).toBe('stale');
      // The stamp is left alone: the build stays stale until it is rebuilt.
      expect(stamp.stampLooksCurrent(root)).toBe(false);
      expect(cliBuildState(root)).toBe('stale');
    });
  }

  it('a folder touched with no source changed (a file made and removed): current, and the stamp takes the folder’s time', () => {
    writeFileSync(at('src-shared/problems/4913'), '');
    unlinkSync(at('src-shared/problems/4913'));
    shiftTime('src-shared/problems', 2);
    expect(stamp.stampLooksCurrent(root)).toBe(false);
    expect(cliBuildState(root)).toBe(null);
    expect(stamp.stampLooksCurrent(root)).toBe(true);
    expect(stamp.readStamp(root)!.builtAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('no stamp, a damaged stamp, or a build without its entries: missing', () => {
    unlinkSync(at('out/cli/worker.js'));
    expect(stamp.stampLooksCurrent(root)).toBe(false);
    expect(cliBuildState(root)).toBe('missing');
    writeFileSync(at('out/cli/worker.js'), '// built\n');
    writeFileSync(at('out/cli/build-stamp.json'), '{"sources": "an older kind of stamp"}\n');
    expect(stamp.stampLooksCurrent(root)).toBe(false);
    expect(cliBuildState(root)).toBe('missing');
    unlinkSync(at('out/cli/build-stamp.json'));
    expect(cliBuildState(root)).toBe('missing');
  });

  it('covers what the build reads', () => {
    expect(stamp.INPUTS).toEqual(expect.arrayContaining(['src-main', 'src-shared', 'package.json', 'scripts/build-cli.mjs', 'scripts/cli-build-stamp.mjs']));
  });
});
