// Hidden instances are shown nowhere with their bands, weights or normalisation until the
// competition is revealed: every place that prints or sends an instance's config is checked
// on a real competition file (run, so its reports have best solutions and fronts). After the
// reveal the same places show them, which is also the check that this test can see a leak.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/io.ts';
import { apiHarness } from '../api/harness.ts';
import { Project } from '../../../src-main/project/store.ts';
import type { StoredProblem } from '../../../src-shared/competition/competition.ts';
import { formatHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { formatValue } from '../../../src-main/report/format.ts';

const SECRET = 'hidden-test-secret';
let cwd: string;
let hidden: StoredProblem[];
let publicOne: StoredProblem;

const cli = (...argv: string[]) => runCli(argv, { cwd });

/** The ways a hidden problem's bands, weights or normalisation could be written. */
function signatures(p: StoredProblem): string[] {
  const out: string[] = [];
  for (const list of [p.bands.alpha, p.bands.beta, p.bands.gamma]) out.push(JSON.stringify(list), list.join(', '), list.join(','), list.join(' & '));
  // The HTML setup table's way: F1 [a, b] γ g.
  out.push(`F1 [${p.bands.alpha[0]}, ${p.bands.beta[0]}] γ ${p.bands.gamma[0]}; F2 [${p.bands.alpha[1]}, ${p.bands.beta[1]}]`);
  // The normalisation as compare, the reports and JSON write it (the whole nadir: its numbers alone may be any run's values).
  if (p.normalisation)
    out.push(JSON.stringify(p.normalisation.nadir), formatHvNormalisation(p.normalisation), `nadir (${p.normalisation.nadir.map(formatValue).join(', ')})`);
  return [...new Set(out)].filter((s) => s.length >= 4);
}

/** The first signature of a hidden problem found in `text`, or null. */
function leak(text: string, problems: readonly StoredProblem[] = hidden): string | null {
  for (const p of problems) for (const s of signatures(p)) if (text.includes(s)) return `${p.id}: ${s}`;
  return null;
}

/** Every object in a JSON value that carries alpha/beta/gamma or a normalisation under a hidden instance's name. */
function structuredLeak(value: unknown): string | null {
  const names = new Set(hidden.map((p) => p.id));
  const visit = (v: unknown, owner: string | null): string | null => {
    if (Array.isArray(v)) {
      for (const x of v) {
        const found = visit(x, owner);
        if (found) return found;
      }
      return null;
    }
    if (typeof v !== 'object' || v === null) return null;
    const record = v as Record<string, unknown>;
    const name = [record.name, record.instance, record.id].find((x) => typeof x === 'string' && names.has(x)) as string | undefined;
    const here = name ?? owner;
    if (
      here &&
      ((record.alpha ?? null) !== null ||
        (record.gamma ?? null) !== null ||
        (record.errors ?? null) !== null ||
        (record.normalisation ?? null) !== null ||
        record.bands ||
        (record.config as { alpha?: unknown } | undefined)?.alpha)
    )
      return `${here}: ${Object.keys(record).join(',')}`;
    for (const [k, x] of Object.entries(record)) {
      const found = visit(x, k === 'experiments' ? null : here);
      if (found) return found;
    }
    return null;
  };
  return visit(value, null);
}

beforeAll(async () => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-hidden-'));
  const made = await cli(
    'competition',
    'new',
    'c.saikoro',
    '--tracks',
    'so,mo2',
    '--n',
    '48',
    '--instances',
    '2',
    '--with-public',
    '--budget',
    '200',
    '--seeds',
    '2',
    '--secret',
    SECRET,
  );
  expect(made.code, made.stderr).toBe(0);
  for (const [name, solver] of [
    ['defaults', 'default'],
    ['rnd', 'random'],
  ])
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', name, '--solver', solver)).code).toBe(0);
  const ran = await cli('competition', 'run', 'c.saikoro', '--jobs', '2');
  expect(ran.code, ran.stderr).toBe(0);
  const project = Project.open(path.join(cwd, 'c.saikoro'), { readOnly: true });
  const problems = project.competition()!.problems;
  project.close();
  hidden = problems.filter((p) => p.hidden);
  publicOne = problems.find((p) => !p.hidden && p.track === 'mo2')!;
  expect(hidden).toHaveLength(4);
}, 240_000);

afterAll(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('before the reveal, no place shows a hidden instance', () => {
  it('the detector sees the bands where they are (the stored spec)', () => {
    const project = Project.open(path.join(cwd, 'c.saikoro'), { readOnly: true });
    const specs = JSON.stringify(project.experiments().map((e) => e.spec));
    project.close();
    expect(leak(specs)).not.toBeNull();
    expect(structuredLeak(JSON.parse(specs))).not.toBeNull();
  });

  it.each([['best'], ['hv']])('compare --metric %s (text and --json)', async (metric) => {
    for (const track of [metric === 'best' ? 'so' : 'mo2']) {
      const text = await cli('compare', 'c.saikoro', track, '--metric', metric);
      expect(text.code, text.stderr).toBe(0);
      expect(leak(text.stdout)).toBeNull();
      const json = await cli('compare', 'c.saikoro', track, '--metric', metric, '--json');
      expect(leak(json.stdout)).toBeNull();
      expect(structuredLeak(JSON.parse(json.stdout))).toBeNull();
      if (metric === 'hv') expect(text.stdout).toContain('normalisation: hidden until the competition is revealed');
    }
  });

  it.each([['html'], ['json'], ['tex'], ['csv']])('report --out x.%s', async (ext) => {
    for (const track of ['so', 'mo2']) {
      const out = `${track}-report.${ext}`;
      const r = await cli('report', 'c.saikoro', track, '--out', out);
      expect(r.code, r.stderr).toBe(0);
      const files = fs.readdirSync(cwd).filter((f) => f.startsWith(`${track}-report`));
      for (const f of files) {
        const text = fs.readFileSync(path.join(cwd, f), 'utf8');
        expect(leak(text), f).toBeNull();
        if (ext === 'json') {
          expect(structuredLeak(JSON.parse(text))).toBeNull();
          // A hidden report is still a report: it validates against docs/report.schema.json.
          const validate = new Ajv({ allErrors: true, strict: true }).compile(
            JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../docs/report.schema.json'), 'utf8')),
          );
          expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true);
        }
        fs.rmSync(path.join(cwd, f));
      }
    }
  });

  it('competition standings (text, --json, every --out, --ecdf)', async () => {
    for (const args of [[], ['--json'], ['--out', 'st.html', '--ecdf', 'st-ecdf.csv'], ['--out', 'st.csv'], ['--out', 'st.tex'], ['--out', 'st.json']]) {
      const r = await cli('competition', 'standings', 'c.saikoro', ...args);
      expect(r.code, r.stderr).toBe(0);
      expect(leak(r.stdout), args.join(' ')).toBeNull();
      if (args[0] === '--json') expect(structuredLeak(JSON.parse(r.stdout))).toBeNull();
    }
    for (const f of ['st.html', 'st-ecdf.csv', 'st.csv', 'st.tex', 'st.json']) expect(leak(fs.readFileSync(path.join(cwd, f), 'utf8')), f).toBeNull();
  });

  it('project info, experiment status (text and --json)', async () => {
    for (const args of [
      ['project', 'info', 'c.saikoro'],
      ['project', 'info', 'c.saikoro', '--json'],
      ['experiment', 'status', 'c.saikoro'],
      ['experiment', 'status', 'c.saikoro', '--json'],
    ]) {
      const r = await cli(...args);
      expect(r.code, r.stderr).toBe(0);
      expect(leak(r.stdout), args.join(' ')).toBeNull();
    }
  });

  it("the API: the project's summary, runs, results, comparisons and exports (what the explorer and every view read)", async () => {
    const app = apiHarness(1, { workspace: cwd });
    try {
      const { api } = app;
      const opened = await api.openProject('c.saikoro');
      expect(leak(JSON.stringify(opened))).toBeNull();
      expect(structuredLeak(opened)).toBeNull();
      expect(opened.experiments.find((e) => e.name === 'so')!.spec.instances.find((i) => i.name === 'so-n48-i1')).toEqual({
        name: 'so-n48-i1',
        track: 'so',
        n: 48,
        hidden: true,
      });
      expect(leak(JSON.stringify(await api.getProject()))).toBeNull();
      for (const track of ['so', 'mo2']) {
        expect(leak(JSON.stringify(await api.listExperimentRuns(track)))).toBeNull();
        expect(leak(JSON.stringify(await api.getExperimentResults(track)))).toBeNull();
        for (const metric of track === 'so' ? (['best'] as const) : (['hv', 'igd+'] as const)) {
          const comparison = await api.compareExperiment(track, { metric });
          expect(leak(JSON.stringify(comparison))).toBeNull();
          expect(structuredLeak(comparison)).toBeNull();
        }
        for (const format of ['html', 'json', 'latex', 'csv'] as const) {
          const exported = await api.exportReport(track, { format });
          for (const file of exported.files) expect(leak(file.content), `${track} ${format} ${file.filename}`).toBeNull();
        }
      }
    } finally {
      app.dispose();
    }
  }, 120_000);
});

describe('after the reveal', () => {
  it('the same places show the bands (and the public instance was shown all along)', async () => {
    const before = await cli('report', 'c.saikoro', 'mo2', '--out', 'before.json');
    expect(before.code).toBe(0);
    // The public instance's normalisation was shown before the reveal: only hidden ones are kept back.
    expect(leak(fs.readFileSync(path.join(cwd, 'before.json'), 'utf8'), [publicOne])).not.toBeNull();
    expect((await cli('competition', 'reveal', 'c.saikoro', '--secret', SECRET)).code).toBe(0);
    const report = await cli('report', 'c.saikoro', 'mo2', '--out', 'after.html');
    expect(report.code).toBe(0);
    expect(
      leak(
        fs.readFileSync(path.join(cwd, 'after.html'), 'utf8'),
        hidden.filter((p) => p.track === 'mo2'),
      ),
    ).not.toBeNull();
    const compare = await cli('compare', 'c.saikoro', 'mo2', '--metric', 'hv', '--json');
    expect(structuredLeak(JSON.parse(compare.stdout))).not.toBeNull();
    const app = apiHarness(1, { workspace: cwd });
    try {
      const opened = await app.api.openProject('c.saikoro');
      expect(structuredLeak(opened)).not.toBeNull();
    } finally {
      app.dispose();
    }
  }, 120_000);
});
