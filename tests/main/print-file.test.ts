// The desktop app prints a report's page from a temporary file, not from a data: URL:
// Chromium refuses URLs over 2 MB, and the report of a large experiment is bigger (6,000 runs
// give 6.8 MB of HTML). Electron itself cannot run here, so a fake window stands in for it,
// refusing long URLs as Chromium does and printing what the URL holds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { CHROMIUM_MAX_URL_LENGTH, PrintFiles } from '../../src-main/print-file.ts';

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-print-test-'));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

/** What Chromium does with a URL: over 2 MB it is refused; a file URL shows the file. */
function fakeLoadAndPrint(url: string): Buffer {
  if (url.length > CHROMIUM_MAX_URL_LENGTH) throw new Error('ERR_INVALID_URL (over 2 MB)');
  if (url.startsWith('data:text/html;base64,')) return Buffer.from(url.slice('data:text/html;base64,'.length), 'base64');
  return fs.readFileSync(fileURLToPath(url));
}

/** A report page of `bytes` bytes (UTF-8), with non-ASCII text in it. */
function bigReport(bytes: number): string {
  const row = '<tr><td>nsga2</td><td>seed 17</td><td>0.912345</td><td>ν = 3 ✓</td></tr>\n';
  const head = '<!doctype html><meta charset="utf-8"><title>Report</title><table>\n';
  return head + row.repeat(Math.ceil((bytes - head.length) / Buffer.byteLength(row)));
}

describe('printing a report page from a temporary file', () => {
  it('a 6.8 MB report, which a data: URL cannot carry, prints whole; the file is gone afterwards', async () => {
    const html = bigReport(6.8e6);
    expect(Buffer.byteLength(html)).toBeGreaterThan(6.8e6);
    // The old way: the data: URL is over Chromium's limit.
    expect(() => fakeLoadAndPrint(`data:text/html;base64,${Buffer.from(html).toString('base64')}`)).toThrow(/over 2 MB/);
    const files = new PrintFiles(tmpRoot);
    let seen = '';
    const printed = await files.print(html, async (url) => {
      seen = url;
      expect(url.startsWith('file://')).toBe(true);
      expect(url.length).toBeLessThan(1000);
      // While printing: only this file may load (and data: images), nothing else.
      expect(files.requestAllowed(url)).toBe(true);
      expect(files.requestAllowed('data:image/png;base64,AAAA')).toBe(true);
      expect(files.requestAllowed('file:///etc/passwd')).toBe(false);
      expect(files.requestAllowed(`${path.dirname(url)}/other.html`)).toBe(false);
      expect(files.requestAllowed('https://example.com/track.png')).toBe(false);
      const file = fileURLToPath(url);
      // Readable by its owner only.
      expect(fs.statSync(file).mode & 0o077).toBe(0);
      expect(fs.statSync(path.dirname(file)).mode & 0o077).toBe(0);
      return fakeLoadAndPrint(url);
    });
    expect(printed.toString('utf8')).toBe(html);
    expect(fs.existsSync(fileURLToPath(seen))).toBe(false);
    expect(fs.readdirSync(tmpRoot)).toEqual([]);
    expect(files.requestAllowed(seen)).toBe(false);
  });

  it('a failed print still removes the file, and the error comes through', async () => {
    const files = new PrintFiles(tmpRoot);
    let seen = '';
    await expect(
      files.print('<p>x</p>', async (url) => {
        seen = url;
        throw new Error('printToPDF failed');
      }),
    ).rejects.toThrow('printToPDF failed');
    expect(fs.existsSync(fileURLToPath(seen))).toBe(false);
    expect(fs.readdirSync(tmpRoot)).toEqual([]);
  });

  it('two prints at once have a file each', async () => {
    const files = new PrintFiles(tmpRoot);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const urls: string[] = [];
    const first = files.print('<p>one</p>', async (url) => {
      urls.push(url);
      await gate;
      return fakeLoadAndPrint(url);
    });
    const second = files.print('<p>two</p>', async (url) => {
      urls.push(url);
      expect(files.requestAllowed(urls[0])).toBe(true);
      release();
      return fakeLoadAndPrint(url);
    });
    expect([(await first).toString(), (await second).toString()]).toEqual(['<p>one</p>', '<p>two</p>']);
    expect(new Set(urls).size).toBe(2);
    expect(fs.readdirSync(tmpRoot)).toEqual([]);
  });

  it("the print window's navigation guard: its own file in the top frame, nothing else, no frame at all", async () => {
    const files = new PrintFiles(tmpRoot);
    await files.print('<p>x</p>', async (url) => {
      expect(files.navigationAllowed(url, true)).toBe(true);
      expect(files.navigationAllowed(url, false)).toBe(false);
      expect(files.navigationAllowed(`${url}#page=2`, true)).toBe(true);
      expect(files.navigationAllowed('https://example.com/', true)).toBe(false);
      expect(files.navigationAllowed('file:///etc/passwd', true)).toBe(false);
      expect(files.navigationAllowed('about:srcdoc', false)).toBe(false);
      expect(files.navigationAllowed('data:text/html,x', true)).toBe(false);
      // The same file however it is spelt; another file, a query or an encoded slash is not it.
      const file = fileURLToPath(url);
      expect(files.navigationAllowed(`file://localhost${file}`, true)).toBe(true);
      expect(files.requestAllowed(url.replace('report', '%72eport'))).toBe(true);
      expect(files.requestAllowed(`${url}?x=1`)).toBe(false);
      expect(files.requestAllowed(url.replace('/report.html', '%2Freport.html'))).toBe(false);
      expect(files.requestAllowed(url.replace('/report.html', '/../report.html'))).toBe(false);
      return Buffer.alloc(0);
    });
  });

  it('the next start removes print folders a crash left behind, and only those', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-stale-test-'));
    onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
    const old = Date.now() / 1000 - 2 * 3600;
    const mk = (name: string, age: number | null) => {
      const dir = path.join(root, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'report.html'), '<p>left behind</p>');
      if (age !== null) fs.utimesSync(dir, age, age);
      return dir;
    };
    const left = mk('saikoro-print-AbC123', old);
    const fresh = mk('saikoro-print-XyZ789', null);
    const other = mk('someone-else-Q1', old);
    fs.writeFileSync(path.join(root, 'saikoro-print-file'), 'a file, not a folder');
    fs.utimesSync(path.join(root, 'saikoro-print-file'), old, old);
    const files = new PrintFiles(root);
    expect(await files.removeStale()).toBe(1);
    expect(fs.existsSync(left)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.existsSync(path.join(root, 'saikoro-print-file'))).toBe(true);
    expect(await new PrintFiles(path.join(root, 'absent')).removeStale()).toBe(0);
  });
});
