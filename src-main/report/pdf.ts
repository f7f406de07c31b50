/**
 * The PDF report from the CLI: the HTML report printed by a headless Chromium through
 * playwright-core (the app prints the same HTML with Electron's printToPDF instead).
 */
import fs from 'node:fs';
import { CHROMIUM_ARGS, isExecutableFile, SYSTEM_CHROMIUM } from '../chromium.ts';

export { SYSTEM_CHROMIUM };

/** No usable Chromium; the message names the --chromium option. */
export class ChromiumNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChromiumNotFoundError';
  }
}

/** The Chromium to print with: `explicit` (from --chromium) if given, else the system's. */
export function findChromium(explicit?: string): string {
  if (explicit !== undefined) {
    if (!fs.existsSync(explicit)) throw new ChromiumNotFoundError(`--chromium ${explicit}: no such file`);
    if (!isExecutableFile(explicit)) throw new ChromiumNotFoundError(`--chromium ${explicit}: not an executable file`);
    return explicit;
  }
  if (isExecutableFile(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  throw new ChromiumNotFoundError(
    `PDF needs Chromium and there is none at ${SYSTEM_CHROMIUM}: install it (Debian: apt-get install chromium) or name one with --chromium PATH`,
  );
}

export interface PdfOptions {
  /** The Chromium executable (default: findChromium()). */
  chromiumPath?: string;
}

/** Prints the HTML report to PDF (A4, backgrounds on, print styles). */
export async function renderPdf(html: string, options: PdfOptions = {}): Promise<Buffer> {
  const executablePath = options.chromiumPath ?? findChromium();
  let chromium: typeof import('playwright-core').chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    throw new Error(`PDF needs the playwright-core package (npm install): ${(e as Error).message}`);
  }
  let browser;
  try {
    browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
  } catch (e) {
    throw new ChromiumNotFoundError(
      `could not start Chromium at ${executablePath} (name another with --chromium PATH): ${(e as Error).message.split('\n')[0]}`,
    );
  }
  try {
    const page = await browser.newPage();
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    await page.setContent(html, { waitUntil: 'load' });
    return await page.pdf({ format: 'A4', printBackground: true, margin: { top: '14mm', bottom: '14mm', left: '12mm', right: '12mm' } });
  } finally {
    await browser.close();
  }
}
