// The web UI's build where there are no sources: an installed package serves the UI it was
// packed with, and asking it to rebuild (`saikoro serve --rebuild`) is a message, not a stack
// trace (issue 27; the installed package itself: tests/e2e/package.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt, RendererSourcesMissingError } from '../../../src-main/server/renderer-dir.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-installed-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the renderer build without sources (an installed package)', () => {
  it('serves the packed build as it is; --rebuild and a missing build are refused with what to do', async () => {
    const out = path.join(root, 'out', 'renderer');
    fs.mkdirSync(out, { recursive: true });
    let built = false;
    const onBuild = () => (built = true);
    await expect(ensureRendererBuilt(out, { projectRoot: root, onBuild })).rejects.toThrow(new RendererSourcesMissingError(out, false));
    await expect(ensureRendererBuilt(out, { projectRoot: root, onBuild })).rejects.toThrow(
      `no built web UI in ${out}, and no sources to build it from: reinstall saikoro, or run \`npm run build\` in a checkout`,
    );
    fs.writeFileSync(path.join(out, 'index.html'), '<!doctype html>');
    expect(await ensureRendererBuilt(out, { projectRoot: root, onBuild })).toBe(false);
    const rebuild = ensureRendererBuilt(out, { projectRoot: root, force: true, onBuild });
    await expect(rebuild).rejects.toBeInstanceOf(RendererSourcesMissingError);
    await expect(rebuild).rejects.toThrow(
      'this saikoro is an installed package, without the sources to rebuild the web UI from; it serves the one it was packed with (leave out --rebuild)',
    );
    expect(built).toBe(false);
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('<!doctype html>');
  });
});
