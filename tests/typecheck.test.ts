import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `npm run typecheck` (all four tsconfigs, vue-tsc for the renderer) as part of `npm test`, so
// CI catches a type error in the Electron shell or the renderer, which no other test loads.
describe('npm run typecheck', () => {
  it('type-checks src-shared, src-main (with the Electron shell), src-renderer and tests', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const run = spawnSync('npm', ['run', 'typecheck', '--silent'], { cwd: root, encoding: 'utf8' });
    const errors = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /error TS\d+/.test(line));
    expect(errors).toEqual([]);
    expect(run.status).toBe(0);
  }, 600_000);
});
