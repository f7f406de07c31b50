// @vitest-environment happy-dom
// The comparison view against the real main side, on experiments run on real workers: every
// number the statistics tables show is compareExperiment's for that file (medians, IQRs, p-values,
// Holm p, A12, Friedman ranks and p), the +/−/= marks follow the report's rule (said under the table), the box plots carry
// compareExperiment's quartiles and every run's value, the convergence chart's median line equals
// a computation from the stored traces made here from scratch, and the fronts are those of each
// solver's median-HV run.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { getInstanceByDom } from 'echarts/core';
import CompareView from '../../../src-renderer/views/compare/CompareView.vue';
import { formatP, formatStat } from '../../../src-renderer/views/compare/compare.ts';
import type { Comparison, ExperimentRunResult } from '../../../src-shared/api.ts';
import { hypervolume, normalise, normalisedReferencePoint } from '../../../src-shared/metrics/hypervolume.ts';
import { summarize } from '../../../src-shared/stats/summary.ts';
import { realApp, runExperimentToEnd, type RealApp } from '../real-app.ts';
import { mountView, type Mounted } from '../project/mount.ts';
import { waitFor } from '../../main/processes.ts';

// One instance, two solvers, three seeds, a small budget: runs of well under a second.
const SMALL = {
  name: 'small',
  instances: [{ name: 'mo2-n24', track: 'mo2', n: 24 }],
  solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }],
  seeds: [1, 2, 3],
  budget: { evaluations: 600 },
};
// Two instances, so that there is a Friedman test (three solvers: three post-hoc pairs).
const PAIR = {
  name: 'pair',
  instances: [
    { name: 'mo2-n24', track: 'mo2', n: 24 },
    { name: 'mo2-n30', track: 'mo2', n: 30 },
  ],
  solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }, { name: 'moead-ls' }],
  seeds: [1, 2, 3],
  budget: { evaluations: 600 },
};

let env: RealApp;
let view: Mounted | null = null;

async function runToEnd(name: string) {
  const session = await runExperimentToEnd(env.api, name);
  expect(session).toMatchObject({ status: 'done', failed: 0, progress: 1 });
}

beforeAll(async () => {
  env = realApp({ parallelism: 2 });
  await env.api.createProject('compare.saikoro');
  await env.api.addExperiment(SMALL);
  await env.api.addExperiment(PAIR);
  await env.api.addExperiment({ ...SMALL, name: 'idle', seeds: [7] });
  await runToEnd('small');
  await runToEnd('pair');
}, 120_000);
afterAll(() => env.dispose());
afterEach(() => {
  view?.unmount();
  view = null;
});

function mount(experiment: string) {
  view = mountView(CompareView, env.api, `#/compare/${experiment}`);
}

const all = (selector: string, root: ParentNode = document) => [...root.querySelectorAll<HTMLElement>(selector)];
const q = (testid: string, root: ParentNode = document) => root.querySelector<HTMLElement>(`[data-testid="${testid}"]`);
const textOf = (el: Element | null) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
const valueOf = (el: HTMLElement) => Number(el.dataset.value);
function option(testid: string): { series: { name: string; type: string; data: unknown[] }[] } {
  const el = q(testid)?.querySelector<HTMLElement>('.echart') ?? (q(testid)?.classList.contains('echart') ? q(testid) : null);
  const chart = el && getInstanceByDom(el);
  if (!chart) throw new Error(`no chart in ${testid}`);
  return chart.getOption() as never;
}
async function select(testid: string, value: string) {
  const el = q(testid) as HTMLSelectElement;
  el.value = value;
  el.dispatchEvent(new Event('change'));
  await nextTick();
}

/** The view's table is shown and reads the comparison of `metric`. */
async function shown(metric: string, c: Comparison) {
  const expected = c.instances.flatMap((inst) => inst.solvers.map((s) => s.summary![c.aggregate]));
  await waitFor(
    `the ${metric} table`,
    () =>
      (q('compare-metric') as HTMLSelectElement | null)?.value === metric &&
      JSON.stringify(all('[data-testid="stat-aggregate"]').map(valueOf)) === JSON.stringify(expected),
  );
}

describe('comparison view', () => {
  it('an experiment with no run done says so and points to the run monitor, instead of empty tables', async () => {
    mount('idle');
    await waitFor('the empty state', () => q('compare-nothing'));
    expect(textOf(q('compare-nothing'))).toContain('No run of idle is done yet');
    expect(q('compare-nothing')!.querySelector('a')!.getAttribute('href')).toBe('#/monitor/idle');
    expect(q('stats-table')).toBeNull();
  });

  it('shows the medians, IQRs, p-values, Holm p and A12 of compareExperiment, and marks by its pair tests', async () => {
    const c = await env.api.compareExperiment('small', { metric: 'hv' });
    mount('small');
    await shown('hv', c);
    const [inst] = c.instances;
    // The statistics table: aggregate and IQR per solver, as numbers and as shown.
    const cells = all('[data-testid="stats-mo2-n24"] td[data-solver]');
    expect(cells.map((td) => td.dataset.solver)).toEqual(['random', 'nsga2']);
    cells.forEach((td, k) => {
      const s = inst.solvers[k].summary!;
      expect(valueOf(q('stat-aggregate', td)!)).toBe(s.median);
      expect(textOf(q('stat-aggregate', td))).toBe(formatStat(s.median));
      expect(valueOf(q('stat-iqr', td)!)).toBe(s.iqr);
      expect(textOf(q('stat-iqr', td))).toBe(formatStat(s.iqr));
    });
    // The marks: none on the baseline (random); the rule under the table is the report's (checked
    // against scipy with marks of every kind in tests/shared/experiments/baseline-marks.test.ts).
    expect(q('stat-mark', cells[0])).toBeNull();
    expect(textOf(q('mark-rule'))).toBe(
      "two-sided Mann-Whitney U against random, its p Holm-adjusted over the instance's comparisons with random (not over all pairs), below 0.05; the direction from A12",
    );
    // Three seeds: the rank-sum test's smallest p is 2 / C(6, 3) = 0.1, so the mark is "=" whatever
    // the runs found; the view says so (it said nothing), and how many seeds can tell.
    expect(textOf(q('stat-mark', cells[1]))).toBe('=');
    expect(textOf(q('stat-few', cells[1]))).toBe('*');
    expect(q('stat-few', cells[0])).toBeNull();
    expect(all('[data-testid="compare-unreachable"]').map(textOf)).toEqual([
      '* With 3 runs per solver, the rank-sum test cannot reach p < 0.05 (its smallest p is 0.1), so every mark on mo2-n24 is "=" whatever the runs found. 4 runs per solver (seeds) can show a difference at 0.05.',
    ]);
    // Best per row: the higher median (HV).
    const best = inst.solvers[0].summary!.median >= inst.solvers[1].summary!.median ? 0 : 1;
    expect(cells.map((td) => td.classList.contains('best'))).toEqual([best === 0, best === 1]);
    // The solvers' table repeats median and IQR with n, mean, sd.
    const solverRows = all('[data-testid="solvers-mo2-n24"] tbody tr');
    solverRows.forEach((tr, k) => {
      expect(valueOf(q('solver-median', tr)!)).toBe(inst.solvers[k].summary!.median);
      expect(valueOf(q('solver-iqr', tr)!)).toBe(inst.solvers[k].summary!.iqr);
    });
    // Mann-Whitney of the one pair: p, Holm p, A12.
    const pairRows = all('[data-testid="pairs-mo2-n24"] tbody tr');
    expect(pairRows.map((tr) => tr.dataset.pair)).toEqual(inst.pairs.map((p) => `${p.a}|${p.b}`));
    pairRows.forEach((tr, k) => {
      const p = inst.pairs[k];
      expect([valueOf(q('pair-p', tr)!), valueOf(q('pair-p-holm', tr)!), valueOf(q('pair-a12', tr)!)]).toEqual([p.p, p.pHolm, p.a12]);
      expect([textOf(q('pair-p', tr)), textOf(q('pair-p-holm', tr)), textOf(q('pair-a12', tr))]).toEqual([formatP(p.p), formatP(p.pHolm), formatStat(p.a12)]);
    });
    // One instance: no Friedman test, and the view says why.
    expect(textOf(q('friedman-note'))).toBe(`No Friedman test: ${c.friedmanNote}.`);

    // Another baseline turns the marks round; another metric shows that metric's numbers.
    await select('compare-baseline', 'nsga2');
    await nextTick();
    // Three seeds: "=" whichever way round (the smallest p is 0.1).
    expect(textOf(q('stat-mark', cells[0]))).toBe('=');
    expect(q('stat-mark', all('[data-testid="stats-mo2-n24"] td[data-solver]')[1])).toBeNull();
    expect(textOf(q('totals-nsga2'))).toBe('baseline');
    const igd = await env.api.compareExperiment('small', { metric: 'igd+' });
    await select('compare-metric', 'igd+');
    await shown('igd+', igd);
    all('[data-testid="stats-mo2-n24"] td[data-solver]').forEach((td, k) => expect(valueOf(q('stat-iqr', td)!)).toBe(igd.instances[0].solvers[k].summary!.iqr));
    expect(all('[data-testid="pair-p"]').map(valueOf)).toEqual(igd.instances[0].pairs.map((p) => p.p));
  });

  it("the box plot carries compareExperiment's quartiles and every run's value; the fronts are the median-HV runs'", async () => {
    const c = await env.api.compareExperiment('small', { metric: 'hv' });
    const results = await env.api.getExperimentResults('small');
    const norm = (await env.api.getProject())!.experiments.find((e) => e.name === 'small')!.spec.instances[0].normalisation!;
    mount('small');
    await shown('hv', c);
    await waitFor('the box plot', () => {
      try {
        return option('boxplot-mo2-n24').series[1].data.length === 6;
      } catch {
        return false;
      }
    });
    const box = option('boxplot-mo2-n24');
    const [inst] = c.instances;
    expect(box.series[0].type).toBe('boxplot');
    expect((box.series[0].data as { value: number[] }[]).map((d) => d.value)).toEqual(
      inst.solvers.map((s) => [s.summary!.min, s.summary!.q1, s.summary!.median, s.summary!.q3, s.summary!.max]),
    );
    // Every run's value, computed here from its stored front: the HV of the normalised front.
    const hvOf = (r: ExperimentRunResult) =>
      hypervolume(
        normalise(
          r.result!.front.map((s) => s.objectives),
          norm.ideal,
          norm.nadir,
        ),
        normalisedReferencePoint(2),
      );
    const points = box.series[1].data as { value: [number, number]; label: string; seed: number }[];
    for (const [k, s] of inst.solvers.entries()) {
      const mine = results.filter((r) => r.label === s.label).sort((a, b) => a.seed - b.seed);
      const shownValues = points.filter((p) => p.label === s.label).sort((a, b) => a.seed - b.seed);
      expect(shownValues.map((p) => p.seed)).toEqual(mine.map((r) => r.seed));
      shownValues.forEach((p, j) => expect(p.value[1]).toBeCloseTo(hvOf(mine[j]), 12));
      // Beside their own box.
      expect(shownValues.every((p) => Math.abs(p.value[0] - k) < 0.5)).toBe(true);
      // And they are the values compareExperiment summarised.
      expect(summarize(shownValues.map((p) => p.value[1]))).toEqual(s.summary);
    }
    // Fronts: each solver's run at rank ceil(3/2) = 2 by HV, its front as stored.
    await waitFor('the fronts chart', () => {
      try {
        return option('fronts-mo2-n24').series.length === 2;
      } catch {
        return false;
      }
    });
    const fronts = option('fronts-mo2-n24');
    for (const [k, label] of ['random', 'nsga2'].entries()) {
      const ranked = results.filter((r) => r.label === label).sort((a, b) => hvOf(a) - hvOf(b) || a.seed - b.seed);
      const middle = ranked[1];
      expect(fronts.series[k].name).toBe(`${label} (seed ${middle.seed})`);
      expect(fronts.series[k].data).toEqual(middle.result!.front.map((s) => [s.objectives[0], s.objectives[1]]));
      // The caption counts the points and runs, in words that agree with the numbers.
      const n = middle.result!.front.length;
      expect(document.querySelector('[data-testid="fronts-mo2-n24"] .picks')?.textContent).toContain(`${label}: seed ${middle.seed}, HV `);
      expect(document.querySelector('[data-testid="fronts-mo2-n24"] .picks')?.textContent).toContain(`(${n} point${n === 1 ? '' : 's'}, 3 runs)`);
    }
  });

  it("the convergence chart: median and quartiles over seeds of the hypervolume each run's front log gives at each point", async () => {
    const results = await env.api.getExperimentResults('small');
    const norm = (await env.api.getProject())!.experiments.find((e) => e.name === 'small')!.spec.instances[0].normalisation!;
    mount('small');
    await waitFor('the convergence chart', () => {
      try {
        return option('convergence-mo2-n24').series.length === 6;
      } catch {
        return false;
      }
    });
    const chart = option('convergence-mo2-n24');
    // A run's hypervolume after e evaluations, from scratch: every point its archive took in by
    // then (the dominated ones add no volume), normalised as the table's values are.
    const hvAt = (r: ExperimentRunResult, e: number) => {
      const taken = r.result!.frontLog!.insertions.filter((row) => row[0] <= e).map((row) => row.slice(1));
      return hypervolume(normalise(taken, norm.ideal, norm.nadir), normalisedReferencePoint(2));
    };
    for (const [k, label] of ['random', 'nsga2'].entries()) {
      const median = chart.series[3 * k] as { name: string; data: [number, number | null][] };
      const q1 = chart.series[3 * k + 1] as { data: [number, number | null][] };
      const width = chart.series[3 * k + 2] as { data: [number, number | null][] };
      expect(median.name).toBe(label);
      const runs = results.filter((r) => r.label === label);
      expect(runs).toHaveLength(3);
      expect(median.data.length).toBeGreaterThan(3);
      for (const [j, [e, shownMedian]] of median.data.entries()) {
        const values = runs.map((r) => hvAt(r, e)).sort((a, b) => a - b);
        // Three seeds: the median is the middle value; q1 and q3 are halfway to the outer ones.
        expect(shownMedian).toBeCloseTo(values[1], 12);
        expect(q1.data[j][1]).toBeCloseTo(values[0] + 0.5 * (values[1] - values[0]), 12);
        expect(width.data[j][1]).toBeCloseTo(values[1] + 0.5 * (values[2] - values[1]) - q1.data[j][1]!, 12);
      }
      // The x values are the runs' own trace points and archive insertions (every solver's).
      const traced = new Set(results.flatMap((r) => [...r.result!.trace.map((t) => t.evaluations), ...r.result!.frontLog!.insertions.map((row) => row[0])]));
      expect(median.data.every(([e]) => traced.has(e))).toBe(true);
      expect(median.data.at(-1)![0]).toBe(Math.max(...traced));
    }
  });

  it("box plots on a log scale: the hypervolume's gap to its maximum, best up (good solvers flattened next to a random search); an HV at 1.331 is named the maximum and explained", async () => {
    // M = 3 at N = 40: nsga2 reaches the ideal, every objective 0, an HV of 1.1^3; random does not.
    await env.api.addExperiment({
      name: 'ideal',
      instances: [{ name: 'mo3-n40', track: 'mo3', n: 40 }],
      solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }],
      seeds: [1, 2, 3],
      budget: { evaluations: 3000 },
    });
    await runToEnd('ideal');
    const c = await env.api.compareExperiment('ideal', { metric: 'hv' });
    const [inst] = c.instances;
    const nsga2 = inst.solvers.find((s) => s.label === 'nsga2')!.summary!;
    const random = inst.solvers.find((s) => s.label === 'random')!.summary!;
    expect(nsga2.median).toBeCloseTo(1.331, 12);
    expect(random.max).toBeLessThan(1.331);
    mount('ideal');
    await shown('hv', c);
    // The value 1.331 is named and explained.
    const cell = q('stats-mo3-n40')!.querySelector<HTMLElement>('[data-solver="nsga2"]')!;
    expect(textOf(q('stat-aggregate', cell))).toBe('1.331');
    expect(textOf(q('stat-at-max', cell))).toBe('max');
    expect(q('stat-at-max', q('stats-mo3-n40')!.querySelector<HTMLElement>('[data-solver="random"]')!)).toBeNull();
    expect(textOf(q('hv-explained'))).toContain(
      'It is at most 1.1M: 1.331 for M = 3, reached only when the front holds a solution at the ideal, every objective 0',
    );
    // Linear: the values themselves.
    await waitFor('the box plot', () => {
      try {
        return option('boxplot-mo3-n40').series[1].data.length === 6;
      } catch {
        return false;
      }
    });
    expect((option('boxplot-mo3-n40') as unknown as { yAxis: { type: string }[] }).yAxis[0].type).toBe('value');
    q('box-scale-log')!.click();
    await waitFor('the log box plot', () => (option('boxplot-mo3-n40') as unknown as { yAxis: { type: string }[] }).yAxis[0].type === 'log');
    const log = option('boxplot-mo3-n40') as unknown as {
      yAxis: { type: string; inverse: boolean; min: number; name: string }[];
      series: { data: { value: number[]; raw?: number[] }[] }[];
    };
    expect(log.yAxis[0]).toMatchObject({ inverse: true, name: '1.331 − Hypervolume (HV) (log, best up)' });
    // Each box: the gaps 1.331 - HV of compare's quartiles, ascending, the maximum's gap (0) at the axis floor.
    for (const [k, s] of inst.solvers.entries()) {
      const want = [s.summary!.min, s.summary!.q1, s.summary!.median, s.summary!.q3, s.summary!.max]
        .map((v) => 1.1 ** 3 - v)
        .map((g) => Math.max(log.yAxis[0].min, g))
        .sort((a, b) => a - b);
      log.series[0].data[k].value.forEach((v, j) => expect(v).toBeCloseTo(want[j], 12));
      expect(log.series[0].data[k].raw).toEqual([s.summary!.min, s.summary!.q1, s.summary!.median, s.summary!.q3, s.summary!.max]);
    }
    expect(log.yAxis[0].min).toBeLessThan(
      Math.min(
        ...inst.solvers
          .flatMap((s) => [s.summary!.min, s.summary!.max])
          .map((v) => 1.331 - v)
          .filter((g) => g > 1e-12),
      ),
    );
    const atMax = (await env.api.getExperimentResults('ideal')).filter((r) => r.label === 'nsga2').length;
    expect(textOf(q('boxplot-floor-mo3-n40'))).toMatch(new RegExp(`^\\d+ runs? at the maximum, 1\\.331, drawn at the top edge`));
    expect(Number(textOf(q('boxplot-floor-mo3-n40'))!.split(' ')[0])).toBeLessThanOrEqual(atMax);
    // A rate has no log scale.
    await select('compare-metric', 'feasibility');
    await waitFor('feasibility', () => (q('box-scale-log') as HTMLButtonElement).disabled);
  }, 180_000);

  it('Friedman across instances: average ranks, p and the Holm post-hoc p of compareExperiment', async () => {
    const c = await env.api.compareExperiment('pair', { metric: 'hv' });
    expect(c.friedman).not.toBeNull();
    mount('pair');
    await shown('hv', c);
    const f = c.friedman!;
    const ranks = all('[data-testid="friedman-rank"]');
    expect(Object.fromEntries(ranks.map((el) => [el.dataset.solver, valueOf(el)]))).toEqual(Object.fromEntries(f.labels.map((l, i) => [l, f.averageRanks[i]])));
    // Best rank first.
    expect(ranks.map(valueOf)).toEqual([...f.averageRanks].sort((a, b) => a - b));
    expect(valueOf(q('friedman-p')!)).toBe(f.p);
    expect(all('[data-testid="posthoc-p-holm"]').map(valueOf)).toEqual(f.pairwise.map((p) => p.pHolm));
    // Two instances, three solvers: three pairs each, Holm over the instance's three.
    for (const inst of c.instances)
      expect(all(`[data-testid="pairs-${inst.instance}"] [data-testid="pair-p-holm"]`).map(valueOf)).toEqual(inst.pairs.map((p) => p.pHolm));
    // The +/−/= totals against the baseline (the first solver) count the marks of both
    // instances: with three seeds each, "=" on both (smallest p 0.1, 0.2 after Holm over the two
    // comparisons with random).
    for (const label of ['nsga2', 'moead-ls']) expect(textOf(q(`totals-${label}`))).toBe('0 / 0 / 2');
  });
});
