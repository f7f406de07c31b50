// Issue 27: no command destroys a file. `report --out`, `solve --out` and a shard's `--out` (experiment run and competition run)
// never replace a project, a FIFO or a device, and replace another existing file only when
// Saikoro wrote it (or with --force); an --out whose ending no format has is a usage error.
// The README's own lines are here: `report study.saikoro mo3 --out study.saikoro`, a report
// over the spec it was made from, `--out x.docx`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalToWrite, targetKind } from '../../../src-main/report/output-target.ts';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from '../cli/io.ts';
import { makeFixture, MO, SO, type Fixture } from './fixture.ts';
import { requireChromium } from '../../e2e/chromium.ts';

let fx: Fixture;
const chromium = requireChromium();

beforeAll(async () => {
  fx = await makeFixture('output-target');
}, 300_000);
afterAll(() => fx?.cleanup());

const cli = (argv: string[]) => runCli(argv, { cwd: fx.cwd });
const at = (name: string) => path.join(fx.cwd, name);
const bytes = (name: string) => fs.readFileSync(at(name));
const mkfifo = (name: string) => execFileSync('mkfifo', [at(name)]);

/** The project still opens and still holds its experiments. */
function projectIntact(): void {
  const project = Project.open(at('p.saikoro'), { readOnly: true });
  try {
    expect(
      project
        .experiments()
        .map((e) => e.name)
        .sort(),
    ).toEqual([MO, 'not-run', SO].sort());
  } finally {
    project.close();
  }
}

describe('what is at a target (targetKind)', () => {
  it('recognises every output Saikoro writes, from the real renderers, and nothing else', async () => {
    const outputs: [string[], string, string][] = [
      [['--out', 'k.html'], 'k.html', 'an HTML report'],
      [['--out', 'k.json'], 'k.json', 'a JSON report'],
      [['--out', 'k.tex'], 'k.tex', 'a LaTeX report'],
      [['--format', 'latex', '--standalone', '--out', 'k-doc.tex'], 'k-doc.tex', 'a LaTeX report'],
      [['--format', 'csv', '--out', 'k'], 'k-runs.csv', 'a CSV report'],
      [['--format', 'csv', '--out', 'k'], 'k-solutions.csv', 'a CSV report'],
    ];
    for (const [args, file, what] of outputs) {
      const r = await cli(['report', 'p.saikoro', MO, ...args]);
      expect(r.code, r.stderr).toBe(0);
      expect(targetKind(at(file)), file).toEqual({ kind: 'saikoro-output', what });
    }
    const solved = await cli(['solve', '--track', 'so', '--n', '20', '--solver', 'random', '--evals', '50', '--seed', '1', '--out', 'solved.json']);
    expect(solved.code, solved.stderr).toBe(0);
    expect(targetKind(at('solved.json'))).toEqual({ kind: 'saikoro-output', what: 'a result of saikoro solve' });

    expect(targetKind(at('p.saikoro'))).toEqual({ kind: 'project' });
    expect(targetKind(at('mo.json'))).toEqual({ kind: 'other' });
    expect(targetKind(at('nothing-here.html'))).toEqual({ kind: 'missing' });
    expect(targetKind(at('p.saikoro/under-a-file.html'))).toEqual({ kind: 'missing' });
    expect(targetKind(fx.cwd)).toEqual({ kind: 'directory' });
    expect(targetKind('/dev/null')).toEqual({ kind: 'special', what: 'a device' });
    mkfifo('kind.fifo');
    expect(targetKind(at('kind.fifo'))).toEqual({ kind: 'special', what: 'a FIFO' });
    // A page that merely mentions Saikoro is not one of its reports.
    fs.writeFileSync(at('lookalike.html'), '<!doctype html><title>notes: Saikoro report</title><p>my notes</p>');
    expect(targetKind(at('lookalike.html'))).toEqual({ kind: 'other' });
    // An SQLite database of another application is not a project (and not an output either).
    const foreign = Buffer.alloc(100);
    foreign.write('SQLite format 3\0', 0, 'latin1');
    fs.writeFileSync(at('other.db'), foreign);
    expect(targetKind(at('other.db'))).toEqual({ kind: 'other' });
    // A symbolic link is judged by what it points to.
    fs.symlinkSync(at('p.saikoro'), at('link-to-project.html'));
    expect(targetKind(at('link-to-project.html'))).toEqual({ kind: 'project' });
  }, 120_000);

  it('refusalToWrite: a project and a special file whatever force says; another file only without force', () => {
    expect(refusalToWrite(at('p.saikoro'), { force: true })).toMatch(/^is a Saikoro project/);
    expect(refusalToWrite('/dev/null', { force: true })).toBe('is a device, not a regular file: not replaced');
    expect(refusalToWrite(at('mo.json'))).toBe('exists and is not a file Saikoro wrote: not replaced (--force replaces it)');
    expect(refusalToWrite(at('mo.json'), { force: true })).toBeNull();
    expect(refusalToWrite(at('nothing-here.json'))).toBeNull();
    expect(refusalToWrite(fx.cwd, { force: true })).toBe('is a directory');
  });

  it('a PDF report is recognised by the title and producer Chromium gives it', async () => {
    chromium.check();
    if (!chromium.present) return;
    const r = await cli(['report', 'p.saikoro', SO, '--out', 'k.pdf']);
    expect(r.code, r.stderr).toBe(0);
    expect(targetKind(at('k.pdf'))).toEqual({ kind: 'saikoro-output', what: 'a PDF report' });
    // Replaced without --force: it is a report Saikoro wrote.
    const again = await cli(['report', 'p.saikoro', MO, '--out', 'k.pdf']);
    expect(again.code, again.stderr).toBe(0);
    fs.writeFileSync(at('paper.pdf'), '%PDF-1.7\n1 0 obj <</Title (My paper) /Producer (pdfTeX)>> endobj\n');
    const refused = await cli(['report', 'p.saikoro', SO, '--out', 'paper.pdf']);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      'saikoro report: --out paper.pdf: exists and is not a file Saikoro wrote: not replaced (--force replaces it); nothing was written\n',
    ]);
    expect(fs.readFileSync(at('paper.pdf'), 'latin1')).toContain('(My paper)');
  }, 120_000);
});

describe('saikoro report --out', () => {
  it("the README's mistake: --out the project itself is refused and the project is kept", async () => {
    const before = bytes('p.saikoro');
    const r = await cli(['report', 'p.saikoro', MO, '--out', 'p.saikoro']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'saikoro report: --out p.saikoro: a report cannot be a ".saikoro" file; the endings are .html .htm .pdf .csv .json .tex',
    );
    // With a report's ending (a copy of the project named like a report), --force or not.
    fs.copyFileSync(at('p.saikoro'), at('project-copy.html'));
    for (const force of [[], ['--force']]) {
      const named = await cli(['report', 'p.saikoro', MO, '--out', 'project-copy.html', ...force]);
      expect([named.code, named.stderr]).toEqual([
        1,
        'saikoro report: --out project-copy.html: is a Saikoro project: a project is never replaced by an output (choose another name); nothing was written\n',
      ]);
    }
    expect(bytes('project-copy.html').equals(before)).toBe(true);
    expect(bytes('p.saikoro').equals(before)).toBe(true);
    projectIntact();
  });

  it('a report over the spec it was made from is refused; --force replaces it', async () => {
    const spec = bytes('mo.json');
    const r = await cli(['report', 'p.saikoro', MO, '--out', 'mo.json']);
    expect([r.code, r.stderr, r.stdout]).toEqual([
      1,
      'saikoro report: --out mo.json: exists and is not a file Saikoro wrote: not replaced (--force replaces it); nothing was written\n',
      '',
    ]);
    expect(bytes('mo.json').equals(spec)).toBe(true);
    fs.copyFileSync(at('mo.json'), at('spec-copy.json'));
    const forced = await cli(['report', 'p.saikoro', MO, '--out', 'spec-copy.json', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(at('spec-copy.json'), 'utf8')).format).toBe('saikoro-report');
    // Now a report: replaced again without --force.
    const again = await cli(['report', 'p.saikoro', SO, '--out', 'spec-copy.json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(at('spec-copy.json'), 'utf8')).experiment.name).toBe(SO);
  });

  it('an ending no format has is a usage error naming the endings, and nothing is written', async () => {
    for (const [args, message] of [
      [['--out', 'x.docx'], '--out x.docx: a report cannot be a ".docx" file; the endings are .html .htm .pdf .csv .json .tex'],
      [['--format', 'html', '--out', 'x.txt'], '--out x.txt: a report cannot be a ".txt" file; the endings are .html .htm .pdf .csv .json .tex'],
      [['--format', 'json', '--out', 'x.html'], '--out x.html: ".html" is the ending of html, not of --format json (use .json)'],
      [['--force'], '--force goes with --out'],
    ] as const) {
      const r = await cli(['report', 'p.saikoro', MO, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`saikoro report: ${message}`);
    }
    expect(fs.existsSync(at('x.docx'))).toBe(false);
    expect(fs.existsSync(at('x.txt'))).toBe(false);
    expect(fs.existsSync(at('x.html'))).toBe(false);
  });

  it('a FIFO or a device at the target is not replaced, --force or not', async () => {
    mkfifo('report.html');
    fs.symlinkSync('/dev/null', at('null.json'));
    for (const force of [[], ['--force']]) {
      const fifo = await cli(['report', 'p.saikoro', MO, '--out', 'report.html', ...force]);
      expect([fifo.code, fifo.stderr]).toEqual([
        1,
        'saikoro report: --out report.html: is a FIFO, not a regular file: not replaced (without --out, html, json and latex go to stdout); nothing was written\n',
      ]);
      const device = await cli(['report', 'p.saikoro', MO, '--out', 'null.json', ...force]);
      expect([device.code, device.stderr]).toEqual([
        1,
        'saikoro report: --out null.json: is a device, not a regular file: not replaced (without --out, html, json and latex go to stdout); nothing was written\n',
      ]);
      const direct = await cli(['report', 'p.saikoro', MO, '--format', 'json', '--out', '/dev/null', ...force]);
      expect(direct.code).toBe(1);
      expect(direct.stderr).toContain('--out /dev/null: is a device, not a regular file: not replaced');
    }
    expect(fs.lstatSync(at('report.html')).isFIFO()).toBe(true);
    expect(fs.readlinkSync(at('null.json'))).toBe('/dev/null');
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('CSV: each of the two files is checked; one that is not a report stops both', async () => {
    fs.writeFileSync(at('pair-solutions.csv'), 'my,own,table\r\n1,2,3\r\n');
    const r = await cli(['report', 'p.saikoro', MO, '--format', 'csv', '--out', 'pair']);
    expect([r.code, r.stderr]).toEqual([
      1,
      'saikoro report: --out pair-solutions.csv: exists and is not a file Saikoro wrote: not replaced (--force replaces it); nothing was written\n',
    ]);
    expect(fs.existsSync(at('pair-runs.csv'))).toBe(false);
    expect(fs.readFileSync(at('pair-solutions.csv'), 'utf8')).toBe('my,own,table\r\n1,2,3\r\n');
  });
});

describe('saikoro solve --out', () => {
  const solve = (...args: string[]) => cli(['solve', '--track', 'so', '--n', '20', '--solver', 'random', '--evals', '50', '--seed', '2', ...args]);

  it('refuses a spec, a project, a FIFO and an ending other than .json before it runs; replaces its own result', async () => {
    const spec = bytes('so.json');
    const r = await solve('--out', 'so.json');
    expect([r.code, r.stderr, r.stdout]).toEqual([
      1,
      'saikoro solve: --out so.json: exists and is not a file Saikoro wrote: not replaced (--force replaces it); nothing was written\n',
      '',
    ]);
    expect(bytes('so.json').equals(spec)).toBe(true);
    const txt = await solve('--out', 'result.txt');
    expect([txt.code, txt.stderr.split('\n')[0]]).toEqual([2, 'saikoro solve: --out result.txt: the result is a .json file (its ending must be .json)']);
    fs.copyFileSync(at('p.saikoro'), at('project-copy.json'));
    const project = await solve('--out', 'project-copy.json', '--force');
    expect(project.code).toBe(1);
    expect(project.stderr).toContain('--out project-copy.json: is a Saikoro project');
    mkfifo('solve.json');
    const fifo = await solve('--out', 'solve.json', '--force');
    expect([fifo.code, fifo.stderr]).toEqual([1, 'saikoro solve: --out solve.json: is a FIFO, not a regular file: not replaced; nothing was written\n']);
    expect(fs.lstatSync(at('solve.json')).isFIFO()).toBe(true);

    expect((await solve('--out', 'mine.json')).code).toBe(0);
    const first = JSON.parse(fs.readFileSync(at('mine.json'), 'utf8'));
    const again = await cli(['solve', '--track', 'so', '--n', '24', '--solver', 'random', '--evals', '50', '--seed', '3', '--out', 'mine.json']);
    expect(again.code, again.stderr).toBe(0);
    expect([first.n, JSON.parse(fs.readFileSync(at('mine.json'), 'utf8')).n]).toEqual([20, 24]);
    fs.copyFileSync(at('so.json'), at('so-copy.json'));
    const forced = await solve('--out', 'so-copy.json', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(at('so-copy.json'), 'utf8')).solver).toBe('random');
  }, 120_000);
});

describe('experiment run --shard --out', () => {
  it('refuses the project itself, a file that is not a project and an ending other than .saikoro; keeps them', async () => {
    const before = bytes('p.saikoro');
    const self = await cli(['experiment', 'run', 'p.saikoro', MO, '--inline', '--shard', '1/2', '--out', 'p.saikoro']);
    expect([self.code, self.stderr]).toEqual([
      1,
      "saikoro experiment: --out p.saikoro: is p.saikoro itself; a shard's results go to a file of their own (saikoro merge folds them in)\n",
    ]);
    expect(bytes('p.saikoro').equals(before)).toBe(true);
    const json = await cli(['experiment', 'run', 'p.saikoro', MO, '--inline', '--shard', '1/2', '--out', 'mo.json']);
    expect([json.code, json.stderr.split('\n')[0]]).toEqual([
      2,
      "saikoro experiment: --out mo.json: a shard's results file is a project: its name ends in .saikoro",
    ]);
    fs.writeFileSync(at('notes.saikoro'), 'my notes\n');
    const notes = await cli(['experiment', 'run', 'p.saikoro', MO, '--inline', '--shard', '1/2', '--out', 'notes.saikoro']);
    expect([notes.code, notes.stderr]).toEqual([1, 'saikoro experiment: notes.saikoro: not a Saikoro project (not an SQLite database)\n']);
    expect(fs.readFileSync(at('notes.saikoro'), 'utf8')).toBe('my notes\n');
    mkfifo('pipe.saikoro');
    const fifo = await cli(['experiment', 'run', 'p.saikoro', MO, '--inline', '--shard', '1/2', '--out', 'pipe.saikoro']);
    expect([fifo.code, fifo.stderr]).toEqual([1, 'saikoro experiment: pipe.saikoro: a FIFO, not a project file\n']);
    expect(fs.lstatSync(at('pipe.saikoro')).isFIFO()).toBe(true);
    projectIntact();
  }, 120_000);
});

describe('competition run --shard --out', () => {
  it('follows the same rule: never the competition file itself, an ending other than .saikoro, a file that is not a project or a FIFO; keeps them', async () => {
    const made = await cli([
      'competition',
      'new',
      'c.saikoro',
      '--tracks',
      'so',
      '--n',
      '40',
      '--instances',
      '1',
      '--budget',
      '50',
      '--seeds',
      '1',
      '--secret',
      'organiser-secret-2026',
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect((await cli(['competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random'])).code).toBe(0);
    const before = bytes('c.saikoro');
    const self = await cli(['competition', 'run', 'c.saikoro', '--shard', '1/1', '--jobs', '1', '--out', 'c.saikoro']);
    expect([self.code, self.stdout, self.stderr]).toEqual([
      1,
      '',
      "saikoro competition: --out c.saikoro: is c.saikoro itself; a shard's results go to a file of their own (saikoro merge folds them in)\n",
    ]);
    expect(bytes('c.saikoro').equals(before)).toBe(true);
    const json = await cli(['competition', 'run', 'c.saikoro', '--shard', '1/1', '--jobs', '1', '--out', 'shard.json']);
    expect([json.code, json.stderr.split('\n')[0]]).toEqual([
      2,
      "saikoro competition: --out shard.json: a shard's results file is a project: its name ends in .saikoro",
    ]);
    expect(fs.existsSync(at('shard.json'))).toBe(false);
    fs.writeFileSync(at('c-notes.saikoro'), 'my notes\n');
    const notes = await cli(['competition', 'run', 'c.saikoro', '--shard', '1/1', '--jobs', '1', '--out', 'c-notes.saikoro']);
    expect([notes.code, notes.stderr]).toEqual([1, 'saikoro competition: c-notes.saikoro: not a Saikoro project (not an SQLite database)\n']);
    expect(fs.readFileSync(at('c-notes.saikoro'), 'utf8')).toBe('my notes\n');
    mkfifo('c-pipe.saikoro');
    const fifo = await cli(['competition', 'run', 'c.saikoro', '--shard', '1/1', '--jobs', '1', '--out', 'c-pipe.saikoro']);
    expect([fifo.code, fifo.stderr]).toEqual([1, 'saikoro competition: c-pipe.saikoro: a FIFO, not a project file\n']);
    expect(fs.lstatSync(at('c-pipe.saikoro')).isFIFO()).toBe(true);
    expect(bytes('c.saikoro').equals(before)).toBe(true);
    // And a shard of its own is written, the competition file untouched.
    const own = await cli(['competition', 'run', 'c.saikoro', '--shard', '1/1', '--jobs', '1', '--out', 'c-shard.saikoro']);
    expect([own.code, own.stdout], own.stderr).toEqual([0, 'so: 1 runs in shard 1/1: 0 finished before, 1 done now, 0 failed, 0 not run\n']);
    expect(bytes('c.saikoro').equals(before)).toBe(true);
  }, 120_000);
});
