// The policy for tests that need an outside program (tools.ts): fail under CI, skip elsewhere.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { requireTool } from './tools.ts';
import { CHROMIUM_PATH, requireChromium } from './chromium.ts';

const MISSING = '/nonexistent/saikoro-test-tool';

describe('requireTool', () => {
  afterEach(() => vi.restoreAllMocks());

  it('under CI, a missing program is not skipped and check() fails naming it and how to install it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const tool = requireTool('Chromium', MISSING, 'apt-get install chromium', { CI: 'true' });
    expect(tool).toMatchObject({ name: 'Chromium', path: MISSING, present: false, skip: false });
    expect(tool.message).toBe(`Chromium not found at ${MISSING}; install it with apt-get install chromium`);
    expect(() => tool.check()).toThrow(new Error(`Chromium not found at ${MISSING}; install it with apt-get install chromium`));
    expect(warn).not.toHaveBeenCalled();
  });

  it('outside CI, a missing program is skipped with one message on the console', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const env of [{}, { CI: 'false' }, { CI: '1' }]) {
      const tool = requireTool('pdftotext', MISSING, 'apt-get install poppler-utils', env);
      expect(tool).toMatchObject({ present: false, skip: true });
      expect(() => tool.check()).toThrow(`pdftotext not found at ${MISSING}; install it with apt-get install poppler-utils`);
    }
    expect(warn.mock.calls).toEqual(
      new Array(3).fill([`SKIPPED (CI would fail): pdftotext not found at ${MISSING}; install it with apt-get install poppler-utils`]),
    );
  });

  it('a present program runs, under CI or not; a file that is not executable counts as missing', () => {
    for (const env of [{ CI: 'true' }, {}]) {
      const tool = requireTool('node', process.execPath, 'apt-get install nodejs', env);
      expect(tool).toMatchObject({ present: true, skip: false });
      expect(() => tool.check()).not.toThrow();
    }
    const notExecutable = requireTool('tools.ts', new URL('./tools.ts', import.meta.url).pathname, '-', { CI: 'true' });
    expect(notExecutable.present).toBe(false);
  });

  it('names Debian Chromium for the browser tests', () => {
    expect(CHROMIUM_PATH).toBe('/usr/bin/chromium');
    const chromium = requireChromium();
    expect(chromium.message).toBe('Chromium not found at /usr/bin/chromium; install it with apt-get install chromium');
    expect(chromium.skip).toBe(!chromium.present && process.env.CI !== 'true');
  });
});
