// What the browser tests share: a private renderer build, Chromium launched as chromium.ts says,
// and a page whose errors are collected (each test expects none).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

/**
 * Builds the renderer into a new temporary directory named from `prefix` and answers it, so
 * parallel runs and a developer's out/renderer never interfere. A failed build removes it.
 */
export async function buildRendererInTemp(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    // Imported here, so a file whose browser is missing never loads the build.
    const { buildRenderer } = await import('../../src-main/server/renderer-build.ts');
    await buildRenderer(dir);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return dir;
}

/** Headless Chromium (chromium.ts: the path and the arguments). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Collects into `errors` every page error and every console error of `page` (but those whose
 * text `ignore` matches); answers `errors`.
 */
export function collectPageErrors(page: Page, errors: string[] = [], ignore?: RegExp): string[] {
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !ignore?.test(m.text())) errors.push(m.text());
  });
  return errors;
}
