// Text read from a file and printed by the CLI cannot drive the terminal: a note holding
// ESC ] 0 ; ... BEL (retitles the window) or ESC [ 2 J (clears the screen) is shown with its
// control characters made visible (ESC as ^[, as git shows them), in every text line and error
// message. JSON output carries the same text exactly (JSON escapes it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visibleControls } from '../../../src-main/cli/command.ts';
import { Database } from '../../../src-main/project/sqlite.ts';
import { runCli } from './io.ts';

const TITLE = '\x1b]0;pwned\x07';
const CLEAR = '\x1b[2J';
const CSI = '\x9b2J'; // the one-byte CSI of C1: some terminals act on it as on ESC [
/** A raw control character other than LF and tab. */
const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('visibleControls', () => {
  it('shows C0 controls in caret notation, DEL as ^?, C1 as \\u0080..\\u009f; keeps LF, tab and the rest', () => {
    expect(visibleControls(`${TITLE}${CLEAR}`)).toBe('^[]0;pwned^G^[[2J');
    expect(visibleControls('a\rb\x00c\x7fd')).toBe('a^Mb^@c^?d');
    expect(visibleControls(CSI)).toBe('\\u009b2J');
    expect(visibleControls('line one\n\tindented é ✓ 日本')).toBe('line one\n\tindented é ✓ 日本');
  });

  it('keeps a JSON text valid and its value the same', () => {
    const value = { note: `a${CSI}b`, n: 1 };
    expect(JSON.parse(visibleControls(JSON.stringify(value)))).toEqual(value);
  });
});

let cwd: string;
const cli = (args: string[]) => runCli(args, { cwd });

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-escapes-'));
  expect((await cli(['project', 'new', 'p.saikoro'])).code).toBe(0);
  const spec = {
    name: 'study',
    description: `about ${CLEAR}`,
    instances: [{ name: 'so-n8', track: 'so', n: 8 }],
    solvers: [{ name: 'random' }],
    seeds: [1, 2],
    budget: { evaluations: 20 },
  };
  fs.writeFileSync(path.join(cwd, 'spec.json'), JSON.stringify(spec));
  expect((await cli(['experiment', 'add', 'p.saikoro', '--spec', 'spec.json'])).code).toBe(0);
  expect((await cli(['experiment', 'run', 'p.saikoro', '--inline'])).code).toBe(0);
  expect((await cli(['project', 'note', 'p.saikoro', `hello ${TITLE} and ${CLEAR}${CSI}`])).code).toBe(0);
  // A failed run whose stored error holds escapes, as a forged or damaged file could.
  const db = new Database(path.join(cwd, 'p.saikoro'));
  const id = (db.all('SELECT id FROM runs ORDER BY id LIMIT 1') as { id: string }[])[0].id;
  db.run("UPDATE runs SET status = 'failed', error = ?, evaluations = NULL WHERE id = ?", [`crashed ${TITLE}${CLEAR}${CSI}`, id]);
  db.run('DELETE FROM results WHERE run_id = ?', id);
  db.close();
});
afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));

describe('what the CLI prints from a project file', () => {
  it('project info: the note and the description with their controls made visible', async () => {
    const r = await cli(['project', 'info', 'p.saikoro']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain('hello ^[]0;pwned^G and ^[[2J\\u009b2J');
    expect(r.stdout).toContain('(about ^[[2J)');
  });

  it('project info --json: the note exactly as stored', async () => {
    const r = await cli(['project', 'info', 'p.saikoro', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const info = JSON.parse(r.stdout);
    expect(info.notes[0].text).toBe(`hello ${TITLE} and ${CLEAR}${CSI}`);
    expect(info.experiments[0].description).toBe(`about ${CLEAR}`);
  });

  it('every other command that shows stored text: nothing raw on stdout or stderr', async () => {
    // Names cannot hold them (a stored spec whose names do is refused as corrupt); a failed
    // run's error, a description and a note can.
    const html = await cli(['report', 'p.saikoro', 'study', '--format', 'html']);
    expect(html.code, html.stderr).toBe(0);
    // The HTML page written to stdout: as character references, the same text in a browser.
    expect(html.stdout).toContain('crashed &#x1b;]0;pwned&#x7;&#x1b;[2J');
    const runs = [
      html,
      await cli(['report', 'p.saikoro', 'study', '--format', 'latex']),
      await cli(['report', 'p.saikoro', 'study', '--format', 'json']),
      await cli(['experiment', 'status', 'p.saikoro']),
      await cli(['compare', 'p.saikoro', 'study']),
      await cli(['experiment', 'verify', 'p.saikoro', 'study', '--all']),
    ];
    for (const r of runs) {
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      expect(r.stderr).not.toMatch(RAW_CONTROL);
    }
  });

  it('the JSON report on stdout: valid, and the error exactly as stored', async () => {
    const r = await cli(['report', 'p.saikoro', 'study', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const failed = JSON.parse(r.stdout).runs.find((run: { status: string }) => run.status === 'failed');
    expect(failed.error).toBe(`crashed ${TITLE}${CLEAR}${CSI}`);
  });

  it('an error message that quotes the file: controls made visible', async () => {
    fs.writeFileSync(path.join(cwd, 'bad.json'), JSON.stringify({ [`x${CLEAR}`]: 1 }));
    const r = await cli(['solve', '--n', '20', '--config', 'bad.json', '--evals', '10', '--seed', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('^[[2J');
    expect(r.stderr).not.toMatch(RAW_CONTROL);
  });
});
