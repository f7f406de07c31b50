import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../../src-main/project/project-records.ts';
import { Project } from '../../../src-main/project/store.ts';
import { buildReport, metricTable, ReportError, runsHash } from '../../../src-main/report/build.ts';
import { csvPaths, renderCsv } from '../../../src-main/report/csv.ts';
import { csvField } from '../../../src-shared/base/csv.ts';
import { formatCell, formatValue } from '../../../src-main/report/format.ts';
import { renderHtml } from '../../../src-main/report/html.ts';
import { renderJson } from '../../../src-main/report/json.ts';
import { escapeLatex, latexValue, renderLatex } from '../../../src-main/report/latex.ts';
import type { ReportData } from '../../../src-main/report/types.ts';
import type { Comparison } from '../../../src-shared/experiments/compare.ts';
import { instanceConfig } from '../../../src-shared/experiments/spec.ts';
import { normalisedHypervolume } from '../../../src-shared/problems/dice/hv-reference.ts';
import { normalisedReferencePoint } from '../../../src-shared/metrics/hypervolume.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { baselineMarks } from '../../../src-shared/experiments/baseline-marks.ts';
import { median } from '../../../src-shared/stats/summary.ts';
import { attainmentSummary, eafAt, eafDifference } from '../../../src-shared/metrics/attainment.ts';
import { runCli } from '../cli/io.ts';
import { csvObjects, EMPTY, FAILURE, makeFixture, MO, parseCsv, SO, specs, type Fixture } from './fixture.ts';

let fx: Fixture;
let records: RunRecord[];
const data: Record<string, ReportData> = {};

beforeAll(async () => {
  fx = await makeFixture('main');
  const project = Project.open(fx.file, { readOnly: true });
  records = project.runs();
  data[MO] = buildReport(project, MO, { metrics: ['hv', 'igd+', 'feasibility'], baseline: 'random', generatedAt: new Date('2026-01-02T03:04:05Z') });
  data[SO] = buildReport(project, SO, { generatedAt: new Date('2026-01-02T03:04:05Z') });
  project.close();
});
afterAll(() => fx?.cleanup());

const cli = (args: string[]) => runCli(args, { cwd: fx.cwd });

async function compareJson(experiment: string, metric: string): Promise<Comparison> {
  const r = await cli(['compare', 'p.saikoro', experiment, '--metric', metric, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Comparison;
}

describe('buildReport', () => {
  it('holds compare --json for each metric, the setup and every grid run', async () => {
    const mo = data[MO];
    expect(mo.metrics).toEqual(['hv', 'igd+', 'feasibility']);
    for (const metric of mo.metrics) expect(mo.comparisons.find((c) => c.metric === metric)).toEqual(await compareJson(MO, metric));
    // The default metrics of a single-objective experiment.
    expect(data[SO].metrics).toEqual(['best', 'feasibility']);
    expect(data[SO].comparisons[0]).toEqual(await compareJson(SO, 'best'));

    expect(mo.setup.seeds).toEqual([1, 2, 3]);
    expect(mo.setup.budget).toEqual({ evaluations: 400 });
    expect(mo.setup.runs).toEqual({ total: 12, done: 12, failed: 0, missing: 0 });
    expect(mo.setup.solvers.map((s) => [s.label, s.name])).toEqual([
      ['random', 'random'],
      ['nsga2_p20', 'nsga2'],
    ]);
    expect(mo.setup.solvers[1].params.find((p) => p.name === 'populationSize')).toEqual({ name: 'populationSize', value: 20, byInstance: null });
    expect(mo.setup.instances[0]).toMatchObject({ name: 'mo2-n12', track: 'mo2', n: 12, bands: null, defaultConstraints: true });
    const so20 = data[SO].setup.instances[1];
    expect(so20.defaultConstraints).toBe(false);
    expect(so20.constraints[0]).toEqual({ d: 1, lower: 0.05, upper: 0.9 });
    expect(data[SO].setup.runs).toEqual({ total: 18, done: 17, failed: 1, missing: 0 });
    expect(data[SO].runs.find((r) => r.id === fx.failedRun)).toMatchObject({ status: 'failed', error: FAILURE, evaluations: null });
  });

  it('hashes the stored runs it was made from', () => {
    const ids = new Set(data[MO].runs.map((r) => r.id));
    const mine = records.filter((r) => ids.has(r.id));
    expect(data[MO].source).toEqual({ file: 'p.saikoro', runsHash: runsHash(mine), runsHashed: 12 });
    expect(data[MO].source.runsHash).toMatch(/^[0-9a-f]{64}$/);
    // Any change to a stored result changes the hash; the order of the records does not.
    const changed = mine.map((r, i) => (i === 0 ? { ...r, result: { ...r.result!, evaluations: r.result!.evaluations + 1 } } : r));
    expect(runsHash(changed)).not.toBe(data[MO].source.runsHash);
    expect(runsHash([...mine].reverse())).toBe(data[MO].source.runsHash);
  });

  it('computes each run value as compare does, and marks the table against the baseline', () => {
    for (const report of [data[MO], data[SO]])
      for (const table of report.tables) {
        const comparison = report.comparisons.find((c) => c.metric === table.metric)!;
        for (const row of table.rows) {
          const inst = comparison.instances.find((i) => i.instance === row.instance)!;
          for (const cell of row.cells) {
            const column = inst.solvers.find((s) => s.label === cell.solver)!;
            const values = report.runs
              .filter((r) => r.instance === row.instance && r.solver === cell.solver && r.status === 'done')
              .map((r) => r.indicators[table.metric])
              .filter((v): v is number => v !== null);
            expect(values).toHaveLength(column.summary?.n ?? 0);
            if (values.length) expect(median(values)).toBe(column.summary!.median);
            expect(cell.median).toBe(column.summary?.median ?? null);
            if (cell.solver === report.baseline) expect(cell.vsBaseline).toBeNull();
          }
          // The marks are the one rule's (baseline-marks.ts, checked against scipy in
          // tests/shared/experiments/baseline-marks.test.ts), the Compare view's too.
          const marks = baselineMarks(inst, report.baseline);
          expect(row.cells.map((c) => [c.solver, c.vsBaseline, c.p, c.pHolm, c.a12])).toEqual(
            marks.map((m) => [m.label, m.mark, m.pair?.p ?? null, m.pHolm, m.a12]),
          );
          const aggregates = row.cells.map((c) => (table.aggregate === 'mean' ? c.mean : c.median)).filter((v): v is number => v !== null);
          const best = table.higherIsBetter ? Math.max(...aggregates) : Math.min(...aggregates);
          for (const c of row.cells) expect(c.best).toBe((table.aggregate === 'mean' ? c.mean : c.median) === best);
        }
      }
  });

  it('marks + and − from the p-values Holm-adjusted over the comparisons with the baseline', () => {
    const summary = (median: number) => ({ n: 10, mean: median, sd: 1, min: median - 1, q1: median - 0.5, median, q3: median + 0.5, max: median + 1, iqr: 1 });
    const column = (label: string, median: number) => ({ label, runs: 10, withoutValue: 0, missing: 0, summary: summary(median) });
    const pair = (a: string, b: string, p: number, a12: number) => ({
      a,
      b,
      u: 0,
      p,
      pHolm: Math.min(1, 3 * p),
      method: 'exact' as const,
      a12,
      magnitude: 'large' as const,
    });
    // Lower is better. fast beats base (p 0.01), slow loses to base (p 0.04), fast beats slow.
    const comparison: Comparison = {
      experiment: 'x',
      metric: 'best',
      higherIsBetter: false,
      aggregate: 'median',
      instances: [
        {
          instance: 'i',
          objectives: 1,
          normalisation: null,
          solvers: [column('base', 10), column('fast', 5), column('slow', 12)],
          pairs: [pair('base', 'fast', 0.01, 0.1), pair('base', 'slow', 0.04, 0.75), pair('fast', 'slow', 0.001, 1)],
        },
      ],
      skipped: [],
      friedman: null,
      friedmanNote: 'needs at least 2 instances with values for every solver, has 1',
    };
    const [row] = metricTable(comparison, 'base').rows;
    expect(row.cells.map((c) => [c.solver, c.vsBaseline, c.pHolm, c.a12, c.best])).toEqual([
      ['base', null, null, null, false],
      // Holm over the two baseline comparisons: 0.01 * 2 and max(0.02, 0.04 * 1); over all three
      // pairs (compare's pHolm) slow's 0.08 would not be significant.
      ['fast', '+', 0.02, 0.9, true],
      ['slow', '-', 0.04, 0.25, false],
    ]);
    expect(metricTable(comparison, 'fast').rows[0].cells.map((c) => c.vsBaseline)).toEqual(['-', null, '-']);
    // Ten runs each can show a difference: no note.
    expect(metricTable(comparison, 'base').fewRuns).toBeNull();
  });

  it('says when too few runs make every mark "=" (3 seeds: the smallest p is 0.1), and how many can tell', () => {
    // The MO fixture: two solvers, three seeds each, on both instances.
    const hv = data[MO].tables.find((t) => t.metric === 'hv')!;
    expect(hv.rows.flatMap((r) => r.cells.map((c) => c.vsBaseline))).toEqual([null, '=', null, '=']);
    expect(hv.fewRuns).toBe(
      'With 3 runs per solver, the rank-sum test cannot reach p < 0.05 (its smallest p is 0.1), so every mark on mo2-n12, mo3-n12 is = whatever the runs found; 4 runs per solver can show a difference.',
    );
    const html = renderHtml(data[MO]);
    expect(html).toContain('<span class="few-runs">With 3 runs per solver, the rank-sum test cannot reach p &lt; 0.05 (its smallest p is 0.1)');
    expect(renderLatex(data[MO])).toContain(`With 3 runs per solver, the rank-sum test cannot reach p ${escapeLatex('<')} 0.05`);
  });

  it('evaluates the best solution with the dice evaluator', () => {
    const so = data[SO].instances[0];
    const best = so.best!;
    const spec = specs.so.instances[0];
    const evaluation = evaluateDice(best.x, instanceConfig(spec as Parameters<typeof instanceConfig>[0]));
    expect(best.features).toEqual(evaluation.features);
    expect(best.constraints.map((c) => c.chi)).toEqual(evaluation.chi);
    expect(best.objectives).toEqual(evaluation.objectives);
    // No feasible solution of any run on the instance beats it.
    const doneOnInstance = records.filter((r) => r.instance === 'so-n12' && r.status === 'done' && data[SO].runs.some((x) => x.id === r.id));
    for (const r of doneOnInstance) if (r.result!.best!.feasible) expect(r.result!.best!.objectives[0]).toBeGreaterThanOrEqual(best.objectives[0]);
    expect(so.attainment).toBeNull();
    expect(so.fronts).toBeNull();
    expect(data[MO].instances[0].fronts!.solvers.map((s) => s.solver)).toEqual(['random', 'nsga2_p20']);
  });

  it('refuses an unknown experiment, metric or baseline and an experiment without finished runs', () => {
    const project = Project.open(fx.file, { readOnly: true });
    try {
      const refusal = (name: string, options: Parameters<typeof buildReport>[2]) => {
        try {
          buildReport(project, name, options);
        } catch (e) {
          expect(e).toBeInstanceOf(ReportError);
          return { kind: (e as ReportError).kind, message: (e as Error).message };
        }
        throw new Error('no refusal');
      };
      expect(refusal('nope', {})).toEqual({
        kind: 'input',
        message: `p.saikoro: no experiment named "nope" (has: ${project
          .experiments()
          .map((x) => x.name)
          .join(', ')})`,
      });
      expect(refusal(MO, { metrics: ['speed'] })).toMatchObject({ kind: 'usage', message: expect.stringContaining('--metric: must be one of hv, igd+') });
      expect(refusal(MO, { baseline: 'simplex' })).toEqual({
        kind: 'input',
        message: `p.saikoro: experiment ${MO} has no solver "simplex" for --baseline (solvers: random, nsga2_p20)`,
      });
      expect(refusal(MO, { metrics: ['best'] })).toMatchObject({ kind: 'input', message: expect.stringContaining('metric best applies to no instance') });
      expect(refusal(EMPTY, {})).toMatchObject({
        kind: 'input',
        message: expect.stringContaining(`experiment ${EMPTY} has no finished runs (1 in the grid, 0 failed)`),
      });
    } finally {
      project.close();
    }
  });
});

describe('attainment', () => {
  /** The stored feasible fronts of one solver's done runs on an instance, as attainment.ts takes them. */
  const storedFronts = (instance: string, label: string) =>
    records
      .filter((r) => r.instance === instance && r.label === label && r.status === 'done')
      .sort((a, b) => a.seed - b.seed)
      .map((r) => r.result!.front.map((s) => s.objectives));

  it('holds attainmentSummary of the stored fronts of each solver on an M = 2 instance, and nothing for M > 2 or SO', () => {
    const [mo2, mo3] = data[MO].instances;
    expect(mo3.attainment).toBeNull();
    expect(data[SO].instances.map((i) => i.attainment)).toEqual([null, null]);
    const a = mo2.attainment!;
    expect(a.axes).toEqual(['f1', 'f2']);
    expect(a.solvers.map((s) => s.solver)).toEqual(['random', 'nsga2_p20']);
    for (const s of a.solvers) {
      const fronts = storedFronts('mo2-n12', s.solver);
      expect(fronts).toHaveLength(3);
      const expected = attainmentSummary(fronts);
      expect(s).toEqual({ solver: s.solver, runs: 3, best: expected.best, median: expected.median, worst: expected.worst });
      expect(s.best.points.length).toBeGreaterThan(0);
      // The plot range holds every point of every run.
      for (const p of fronts.flat()) {
        expect(p[0]).toBeGreaterThanOrEqual(a.extent.x[0]);
        expect(p[0]).toBeLessThan(a.extent.x[1]);
        expect(p[1]).toBeGreaterThanOrEqual(a.extent.y[0]);
        expect(p[1]).toBeLessThan(a.extent.y[1]);
      }
    }
  });

  it('holds the EAF difference of the baseline against the other solver: each cell the mean of the exact difference over it', () => {
    const a = data[MO].instances[0].attainment!;
    expect(a.differences.map((d) => [d.a, d.b, d.runsA, d.runsB])).toEqual([['random', 'nsga2_p20', 3, 3]]);
    const d = a.differences[0];
    const fa = storedFronts('mo2-n12', 'random');
    const fb = storedFronts('mo2-n12', 'nsga2_p20');
    const rectangles = eafDifference(fa, fb);
    expect(d.rectangles).toBe(rectangles.length);
    expect([d.min, d.max]).toEqual([Math.min(0, ...rectangles.map((r) => r.value)), Math.max(0, ...rectangles.map((r) => r.value))]);
    expect(d.xEdges[0]).toBe(a.extent.x[0]);
    expect(d.xEdges.at(-1)).toBeCloseTo(a.extent.x[1], 12);
    expect(d.yEdges[0]).toBe(a.extent.y[0]);
    expect(d.yEdges.at(-1)).toBeCloseTo(a.extent.y[1], 12);
    expect(d.cells).toHaveLength(d.yEdges.length - 1);
    for (const row of d.cells) expect(row).toHaveLength(d.xEdges.length - 1);

    // Independently of the grid code: a cell that no point's coordinate cuts through lies in one
    // cell of the EAFs' own grid, where both are constant, so its mean is alpha_a - alpha_b at
    // its centre (eafAt); every other cell's mean is the rectangles clipped to it, summed.
    const xs = fa
      .concat(fb)
      .flat()
      .map((p) => p[0]);
    const ys = fa
      .concat(fb)
      .flat()
      .map((p) => p[1]);
    let constant = 0;
    let nonZero = 0;
    d.cells.forEach((row, r) =>
      row.forEach((value, c) => {
        const [x0, x1, y0, y1] = [d.xEdges[c], d.xEdges[c + 1], d.yEdges[r], d.yEdges[r + 1]];
        if (value !== 0) nonZero++;
        if (!xs.some((x) => x > x0 && x < x1) && !ys.some((y) => y > y0 && y < y1)) {
          constant++;
          const centre = [(x0 + x1) / 2, (y0 + y1) / 2];
          expect(value, `cell ${r},${c}`).toBeCloseTo(eafAt(fa, centre) - eafAt(fb, centre), 9);
        } else {
          let integral = 0;
          for (const q of rectangles)
            integral += q.value * Math.max(0, Math.min(x1, q.x1) - Math.max(x0, q.x0)) * Math.max(0, Math.min(y1, q.y1) - Math.max(y0, q.y0));
          expect(value, `cell ${r},${c}`).toBeCloseTo(integral / ((x1 - x0) * (y1 - y0)), 8);
        }
      }),
    );
    expect(constant).toBeGreaterThan(d.cells.length * d.cells[0].length * 0.5);
    expect(nonZero).toBeGreaterThan(0);
  });

  it("draws each solver's surfaces and the difference in the HTML, within the hook", () => {
    const html = renderHtml(data[MO]);
    const start = html.indexOf('<div class="block attainment" data-hook="attainment-surfaces">');
    expect(start).toBeGreaterThan(0);
    const block = html.slice(start, html.indexOf('<h3>Best solution</h3>', start));
    expect(block.match(/data-chart="attainment"/g)).toHaveLength(2);
    expect(block.match(/data-chart="eaf-difference"/g)).toHaveLength(1);
    const d = data[MO].instances[0].attainment!.differences[0];
    expect(block).toContain(`(${d.rectangles.toLocaleString('en-US')} rectangles, from ${formatValue(d.min)} to ${formatValue(d.max)})`);
    for (const label of ['random', 'nsga2_p20']) expect(block).toContain(`>${label} median</text>`);
  });
});

describe('CSV', () => {
  it('quotes by RFC 4180', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(parseCsv('a,"b,""c""\r\nd",\r\n1,2,3\r\n')).toEqual([
      ['a', 'b,"c"\r\nd', ''],
      ['1', '2', '3'],
    ]);
  });

  it('neutralises formulas in every text field (the error of a failed run, names), never in numbers', () => {
    const hostile = '=HYPERLINK("http://evil.example","x")';
    const base = data[SO];
    const failed = base.runs.find((r) => r.status === 'failed')!;
    const runs = base.runs.map((r) => (r === failed ? { ...r, error: hostile, instance: '+SUM(1,1)', solver: '@SUM(1)', solverName: '-cmd' } : r));
    const solutions = base.solutions.map((s, i) => (i === 0 ? { ...s, solver: '=1+1', instance: '\tx' } : s));
    const csv = renderCsv({ ...base, runs, solutions });
    const row = csvObjects(csv.runs).find((r) => r.run === failed.id)!;
    expect(row).toMatchObject({ error: `'${hostile}`, instance: "'+SUM(1,1)", solver: "'@SUM(1)", solver_name: "'-cmd" });
    const sol = csvObjects(csv.solutions)[0];
    expect(sol).toMatchObject({ solver: "'=1+1", instance: "'\tx" });
    // No cell of either file starts a formula; every numeric cell still parses to its number.
    for (const text of [csv.runs, csv.solutions]) for (const cells of parseCsv(text)) for (const cell of cells) expect(cell).not.toMatch(/^[=+@\t\r]/);
    expect(Number(sol.f1)).toBe(base.solutions[0].objectives[0]);
  });

  it('names its two files from --out', () => {
    expect(csvPaths('out/report.csv', 'mo', false)).toEqual({ runs: 'out/report-runs.csv', solutions: 'out/report-solutions.csv' });
    expect(csvPaths('out/report', 'mo', false)).toEqual({ runs: 'out/report-runs.csv', solutions: 'out/report-solutions.csv' });
    expect(csvPaths('out', 'mo', true)).toEqual({ runs: path.join('out', 'mo-runs.csv'), solutions: path.join('out', 'mo-solutions.csv') });
    expect(csvPaths('out/', 'mo', false)).toEqual({ runs: path.join('out', 'mo-runs.csv'), solutions: path.join('out', 'mo-solutions.csv') });
  });

  it('parses back into the stored numbers', async () => {
    const r = await cli(['report', 'p.saikoro', SO, '--format', 'csv', '--out', 'so.csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('report: wrote so-runs.csv (csv,');
    const runsText = fs.readFileSync(path.join(fx.cwd, 'so-runs.csv'), 'utf8');
    expect(runsText.endsWith('\r\n')).toBe(true);
    const runs = csvObjects(runsText);
    expect(Object.keys(runs[0])).toEqual([
      'run',
      'instance',
      'solver',
      'solver_name',
      'seed',
      'status',
      'best',
      'feasibility',
      'evaluations',
      'seconds',
      'error',
    ]);
    expect(runs).toHaveLength(18);
    for (const row of runs) {
      const stored = records.find((x) => x.id === row.run)!;
      expect(row).toMatchObject({ instance: stored.instance, solver: stored.label, solver_name: stored.solver, status: stored.status });
      expect(Number(row.seed)).toBe(stored.seed);
      expect(Number(row.seconds)).toBe(stored.elapsedMs / 1000);
      if (stored.status === 'failed') {
        expect(row).toMatchObject({ error: FAILURE, evaluations: '', best: '', feasibility: '' });
        continue;
      }
      expect(Number(row.evaluations)).toBe(stored.evaluations);
      const best = stored.result!.best!;
      expect(row.best === '' ? null : Number(row.best)).toBe(best.feasible ? best.objectives[0] : null);
      expect(Number(row.feasibility)).toBe(stored.result!.firstFeasibleAt !== null || best.feasible ? 1 : 0);
    }

    const solutions = csvObjects(fs.readFileSync(path.join(fx.cwd, 'so-solutions.csv'), 'utf8'));
    expect(solutions).toHaveLength(17);
    for (const row of solutions) {
      const best = records.find((x) => x.id === row.run)!.result!.best!;
      expect(row.kind).toBe('best');
      expect(row.sequence).toBe(best.x);
      expect(Number(row.f1)).toBe(best.objectives[0]);
      expect(row.feasible).toBe(String(best.feasible));
      expect(Number(row.violation)).toBe(best.violation);
      for (let d = 1; d <= 12; d++) expect(Number(row[`g${d}`])).toBe(best.constraints[d - 1]);
    }
  });

  it('writes the normalised hypervolume of each run and every front member (MO)', () => {
    const { runs, solutions } = renderCsv(data[MO]);
    const project = Project.open(fx.file, { readOnly: true });
    const spec = project.experiment(MO)!.spec;
    project.close();
    for (const row of csvObjects(runs)) {
      const stored = records.find((x) => x.id === row.run)!;
      const norm = spec.instances.find((i) => i.name === row.instance)!.normalisation!;
      const hv = normalisedHypervolume(
        stored.result!.front.map((s) => s.objectives),
        { ideal: norm.ideal, nadir: norm.nadir, reference: normalisedReferencePoint(norm.ideal.length), method: '' },
      );
      expect(Number(row.hv)).toBe(hv);
    }
    const rows = csvObjects(solutions);
    expect(Object.keys(rows[0]).slice(0, 9)).toEqual(['run', 'instance', 'solver', 'seed', 'kind', 'sequence', 'f1', 'f2', 'f3']);
    for (const stored of records.filter((r) => data[MO].runs.some((x) => x.id === r.id))) {
      const mine = rows.filter((r) => r.run === stored.id);
      expect(mine.map((r) => r.sequence)).toEqual(stored.result!.front.map((s) => s.x));
      mine.forEach((r, k) => {
        const s = stored.result!.front[k];
        expect([r.f1, r.f2, r.f3].filter((v) => v !== '').map(Number)).toEqual(s.objectives);
      });
    }
  });
});

describe('JSON', () => {
  it('validates against docs/report.schema.json', async () => {
    const schema = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../../docs/report.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    for (const name of [MO, SO]) {
      const r = await cli(['report', 'p.saikoro', name, '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      const json = JSON.parse(r.stdout);
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
      expect(JSON.parse(renderJson(data[name]))).toEqual({ ...json, generatedAt: data[name].generatedAt });
    }
    // The schema is strict: an unknown field or a wrong type fails.
    const json = JSON.parse(renderJson(data[SO]));
    expect(validate({ ...json, extra: 1 })).toBe(false);
    expect(validate({ ...json, runs: [{ ...json.runs[0], seed: 'one' }] })).toBe(false);
  });
});

describe('HTML', () => {
  let html: string;
  beforeAll(async () => {
    const r = await cli(['report', 'p.saikoro', MO, '--metric', 'hv,igd+', '--metric', 'feasibility', '--out', 'mo.html']);
    expect(r.code, r.stderr).toBe(0);
    html = fs.readFileSync(path.join(fx.cwd, 'mo.html'), 'utf8');
  });

  /** The HTML of the results table of one metric. */
  const section = (page: string, metric: string) => {
    const start = page.indexOf(`<section class="metric" id="metric-${metric.replace('+', '_2b')}">`);
    expect(start).toBeGreaterThan(0);
    return page.slice(start, page.indexOf('</section>', start));
  };
  const row = (table: string, instance: string) => {
    const start = table.indexOf(`<tr><th scope="row">${instance}</th>`);
    expect(start, instance).toBeGreaterThan(0);
    return table.slice(start, table.indexOf('</tr>', start));
  };

  it('holds the numbers of saikoro compare --json', async () => {
    for (const [page, experiment, metrics] of [
      [html, MO, ['hv', 'igd+', 'feasibility']],
      [renderHtml(data[SO]), SO, ['best']],
    ] as const) {
      for (const metric of metrics) {
        const c = await compareJson(experiment, metric);
        const table = section(page, metric);
        for (const inst of c.instances) {
          const cells = [...row(table, inst.instance).matchAll(/<span class="v">([^<]*)<\/span>/g)].map((m) => m[1]);
          expect(cells).toEqual(
            inst.solvers.map((s) => formatCell({ median: s.summary?.median ?? null, iqr: s.summary?.iqr ?? null, mean: s.summary?.mean ?? null }, c.aggregate)),
          );
          for (const s of inst.solvers) expect(row(table, inst.instance)).toContain(`n = ${s.summary?.n ?? 0}`);
          for (const p of inst.pairs) {
            const pairRow = `<tr><th scope="row">${inst.instance}</th><td>${p.a} vs ${p.b}</td><td>${formatValue(p.u)}</td><td>${formatValue(p.p)}</td><td>${formatValue(p.pHolm)}</td><td>${p.method}</td><td>${formatValue(p.a12)}</td>`;
            expect(table).toContain(pairRow);
          }
        }
        if (c.friedman) {
          const ranks = [...table.slice(table.indexOf('<tfoot>'), table.indexOf('</tfoot>')).matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
          expect(ranks).toEqual(c.friedman.averageRanks.map(formatValue));
          expect(table).toContain(`χ²<sub>F</sub> = ${formatValue(c.friedman.chiSquare)}, p = ${formatValue(c.friedman.p)}`);
        }
      }
    }
  });

  it('holds the charts as inline SVG, in a light and a dark rendering', () => {
    const figures = [...html.matchAll(/<figure class="chart" data-chart="([^"]+)"/g)].map((m) => m[1]);
    // Per instance: 3 box plots, convergence, fronts, for M = 2 the attainment surfaces of each
    // solver and the EAF difference of the baseline against the other, features, constraints.
    const mo = ['boxplot-hv', 'boxplot-igd+', 'boxplot-feasibility', 'convergence', 'fronts'];
    expect(figures).toEqual([...mo, 'attainment', 'attainment', 'eaf-difference', 'features', 'constraints', ...mo, 'features', 'constraints']);
    expect(html.match(/<svg /g)).toHaveLength(2 * figures.length);
    expect(html.match(/<div class="svg light"><svg /g)).toHaveLength(figures.length);
    expect(html.match(/<div class="svg dark" aria-hidden="true"><svg /g)).toHaveLength(figures.length);
    const ids = [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    // The attainment block of the M = 2 instance keeps the hook; M = 3 says why it has none.
    expect(html.match(/data-hook="attainment-surfaces"/g)).toHaveLength(1);
    expect(html).toContain('<p class="note">Attainment surfaces: for two objectives only.</p>');
    // Every SVG's attributes are whole (ECharts writes quoted font names into style="..."), so
    // each chart also parses as an XML document of its own.
    for (const svg of html.match(/<svg [\s\S]*?<\/svg>/g)!) expect(svg).not.toMatch(/="[^"]*"(?![\s/>])/);
  });

  it('references nothing outside itself', () => {
    for (const page of [html, renderHtml(data[SO])]) {
      const ids = new Set([...page.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]));
      expect(page).not.toMatch(/<(link|iframe|object|embed|img|audio|video|source)\b/i);
      expect(page).not.toMatch(/@import/i);
      expect(page).not.toMatch(/\bsrc\s*=/i);
      for (const m of page.matchAll(/\b(?:xlink:)?href\s*=\s*["']?([^"'\s>]*)/gi)) {
        expect(m[1], m[0]).toMatch(/^(#|data:)/);
        if (m[1].startsWith('#')) expect(ids.has(m[1].slice(1)), m[0]).toBe(true);
      }
      for (const m of page.matchAll(/url\(\s*["']?([^)"']*)/gi)) {
        expect(m[1], m[0]).toMatch(/^(#|data:)/);
        if (m[1].startsWith('#')) expect(ids.has(m[1].slice(1)), m[0]).toBe(true);
      }
      expect(page).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
      );
    }
  });

  it('shows the setup, the best sequences, and the failed runs with their reasons', () => {
    const so = renderHtml(data[SO]);
    expect(so).toContain(data[SO].source.runsHash);
    expect(so).toContain('2026-01-02 03:04:05 UTC');
    expect(so).toContain('d = 1: [0.05, 0.9]');
    expect(so).toContain('<td class="reason">worker crashed, &quot;out of memory&quot; &lt;at&gt; 95% &amp; more\nsecond line</td>');
    for (const inst of data[SO].instances) for (const b of inst.bestBySolver) expect(so).toContain(`>${b.x}</code><button type="button" class="copy"`);
    expect(html).toContain('No run failed.');
    expect(html).toContain('random against NSGA-II on two and three objectives');
    expect(html).toContain('populationSize = 20');
  });
});

describe('LaTeX text', () => {
  it('escapes every special character and writes numbers in math mode', () => {
    expect(escapeLatex('a_b&c%d#e$f{g}h~i^j\\k<l>m|n')).toBe(
      'a\\_b\\&c\\%d\\#e\\$f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k\\textless{}l\\textgreater{}m\\textbar{}n',
    );
    expect(escapeLatex('χ² ok')).toBe('?? ok');
    expect(latexValue(-0.25)).toBe('$-$0.25');
    expect(latexValue(0.0001234)).toBe('$1.23\\times 10^{-4}$');
    expect(latexValue(null)).toBe('--');
  });
});

describe('saikoro report', () => {
  it('writes html, json and latex to stdout without --out, and infers the format from --out', async () => {
    const html = await cli(['report', 'p.saikoro', SO]);
    expect(html.code).toBe(0);
    expect(html.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
    const tex = await cli(['report', 'p.saikoro', SO, '--format', 'latex']);
    expect(tex.stdout).toContain('\\begin{tabular}{lrrr}');
    // (so.json is the spec the experiment came from: a report is never written over it, output-target.test.ts)
    const inferred = await cli(['report', 'p.saikoro', SO, '--out', 'so-report.json']);
    expect(inferred.stderr).toContain('report: wrote so-report.json (json,');
    expect(JSON.parse(fs.readFileSync(path.join(fx.cwd, 'so-report.json'), 'utf8')).format).toBe('saikoro-report');
    // Every ending of REPORT_FORMATS chooses its format, in any case.
    for (const [file, format] of [
      ['so.tex', 'latex'],
      ['so.HTM', 'html'],
    ])
      expect((await cli(['report', 'p.saikoro', SO, '--out', file])).stderr).toContain(`report: wrote ${file} (${format},`);
    fs.mkdirSync(path.join(fx.cwd, 'csv'));
    const dir = await cli(['report', 'p.saikoro', SO, '--format', 'csv', '--out', 'csv']);
    expect(dir.code, dir.stderr).toBe(0);
    expect(fs.readdirSync(path.join(fx.cwd, 'csv')).sort()).toEqual([`${SO}-runs.csv`, `${SO}-solutions.csv`]);
  });

  it.each([
    [['report', 'p.saikoro', 'nope'], 1, `p.saikoro: no experiment named "nope"`],
    [['report', 'missing.saikoro', SO], 1, 'missing.saikoro: no such file'],
    [['report', 'p.saikoro', SO, '--metric', 'speed'], 2, '--metric: must be one of hv, igd+, epsilon, spacing, feasibility, best, got "speed"'],
    [['report', 'p.saikoro', SO, '--metric', 'hv'], 1, 'metric hv applies to no instance'],
    [['report', 'p.saikoro', SO, '--baseline', 'simplex'], 1, `experiment ${SO} has no solver "simplex" for --baseline (solvers: random, hill-climbing, ils)`],
    [['report', 'p.saikoro', EMPTY], 1, `experiment ${EMPTY} has no finished runs`],
    [['report', 'p.saikoro', SO, '--format', 'docx'], 2, '--format: must be one of html, pdf, csv, json, latex, got "docx"'],
    [['report', 'p.saikoro', SO, '--format', 'csv'], 2, '--format csv needs --out PATH'],
    [['report', 'p.saikoro', SO, '--format', 'pdf'], 2, '--format pdf needs --out PATH'],
    [['report', 'p.saikoro', SO, '--out', 'no-such-dir/r.html'], 1, '--out no-such-dir/r.html: cannot write there: no directory no-such-dir'],
    [['report', 'p.saikoro', SO, '--out', 'p.saikoro/r.html'], 1, '--out p.saikoro/r.html: cannot write there'],
    [['report', 'p.saikoro', SO, '--format', 'pdf', '--out', 'r.pdf', '--chromium', 'no-such-chromium'], 1, '--chromium no-such-chromium: no such file'],
    [['report', 'p.saikoro', SO, '--chromium', 'x'], 2, '--chromium is for --format pdf'],
    [['report', 'p.saikoro'], 2, 'missing EXPERIMENT'],
  ])('%j exits %i: %s', async (argv, code, message) => {
    const r = await cli(argv);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
