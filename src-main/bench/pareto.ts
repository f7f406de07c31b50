/**
 * `saikoro bench pareto [--points N]`: the Pareto explorer at scale, in headless Chromium. It
 * serves the renderer (out/renderer, built if stale as `saikoro serve` does it; or the build in
 * SAIKORO_BENCH_RENDERER_DIR, used as it is) with a seeded synthetic front of N points (M = 3, 20 runs; src-shared/charts/
 * synthetic-front.ts) and measures, inside the page, from the input event's own time stamp to
 * the second animation frame after the page shows the answer (so the frame with the change has
 * been produced):
 *   renderMs      the front's data ready -> the 2-D scatter's first complete draw (ECharts 'finished');
 *   hoverMs       a mouse move onto a point -> its values in the tooltip;
 *   brushMs       the mouse released after dragging a rectangle -> the selection list's new count;
 *   axisChangeMs  another objective picked for the horizontal axis -> the scatter redrawn.
 * Medians over repeats. Needs Chromium at /usr/bin/chromium (playwright-core drives it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../../src-shared/stats/summary.ts';
import { syntheticFront } from '../../src-shared/charts/synthetic-front.ts';
import { Random } from '../../src-shared/random.ts';
import { startAppServer } from '../server/app-server.ts';
import { DEFAULT_RENDERER_OUT, ensureRendererBuilt } from '../server/renderer-dir.ts';
import { CHROMIUM_ARGS, isExecutableFile, SYSTEM_CHROMIUM } from '../chromium.ts';
import type { PlotProbe as Plot } from '../../src-shared/charts/plot-probe.ts';
import type { BenchContext, BenchSuite, BenchTable } from './suite.ts';

const VIEWPORT = { width: 1280, height: 800 };
const OBJECTIVES = 3;
const SEED = 1;

/** What `--json` prints, exactly these keys. */
export interface ParetoBenchFigures {
  points: number;
  renderMs: number;
  hoverMs: number;
  brushMs: number;
  axisChangeMs: number;
}

// Installed in the page before its scripts: records input events' time stamps and the moments
// the page shows an answer, each two animation frames after the DOM changed.
const PROBE = `(() => {
  const probe = (window.__paretoProbe = { inputs: {}, shown: {} });
  for (const type of ['mousemove', 'mouseup', 'change']) window.addEventListener(type, (e) => { probe.inputs[type] = e.timeStamp; }, true);
  // The first time a key is shown counts (a chart that draws again later says the same).
  const seen = new Set();
  const after2Frames = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    requestAnimationFrame(() => requestAnimationFrame(() => { probe.shown[key] = performance.now(); }));
  };
  probe.forget = (prefix) => { for (const k of [...seen]) if (k.startsWith(prefix)) { seen.delete(k); delete probe.shown[k]; } };
  // When the first key with this prefix (other than 'except') was shown, or null.
  probe.first = (prefix, except) => { const k = Object.keys(probe.shown).find((key) => key.startsWith(prefix) && key !== except); return k ? probe.shown[k] : null; };
  probe.count = () => document.querySelector('[data-testid="selection-count"]')?.getAttribute('data-count');
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (!el) continue;
      if (r.type === 'attributes' && r.attributeName === 'data-rendered' && el.dataset.testid === 'explore-scatter') after2Frames('scatter:' + el.dataset.rendered);
      if (r.type === 'attributes' && r.attributeName === 'data-count' && el.dataset.testid === 'selection-count') after2Frames('selection:' + el.dataset.count);
      const tip = el.closest && el.closest('.explore-tooltip');
      if (tip && tip.textContent) { const m = /#(\\d+)/.exec(tip.textContent); if (m) after2Frames('tooltip:' + m[1]); }
    }
  }).observe(document, { subtree: true, attributes: true, childList: true, characterData: true });
})();`;

/** What PROBE puts on the page's window. */
interface ProbeWindow {
  __paretoProbe: { first(prefix: string, except: string): number | null; count(): string | null | undefined };
}

/** The median in ms, to 0.1 ms. */
function medianMs(values: number[]): number {
  return Math.round(median(values) * 10) / 10;
}

export async function measurePareto(
  context: BenchContext,
  options: { points: number; repeats: number; rendererDir: string; build: boolean },
): Promise<{ figures: ParetoBenchFigures; samples: Record<string, number[]> }> {
  if (!isExecutableFile(SYSTEM_CHROMIUM)) throw new Error(`Chromium not found at ${SYSTEM_CHROMIUM}; install it with apt-get install chromium`);
  const { chromium } = await import('playwright-core');
  context.progress(`pareto: renderer in ${options.rendererDir}`);
  if (options.build) await ensureRendererBuilt(options.rendererDir, { onBuild: (dir) => context.progress(`pareto: building the renderer into ${dir}...`) });
  const workspace = mkdtempSync(join(tmpdir(), 'saikoro-bench-pareto-'));
  const server = await startAppServer({ port: 0, rendererDir: options.rendererDir, build: 'never', workspace, parallelism: 1 });
  const browser = await chromium.launch({ executablePath: SYSTEM_CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  const samples: Record<string, number[]> = { renderMs: [], hoverMs: [], brushMs: [], axisChangeMs: [] };
  const errors: string[] = [];
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light' });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(PROBE);
    const hash = `#/explore/synthetic/${options.points}?m=${OBJECTIVES}&seed=${SEED}`;
    const scatter = page.getByTestId('explore-scatter');
    // The page's CSP forbids evaluating strings in waitForFunction: page-side code is written as
    // functions over globalThis (this file has no DOM types), without named inner functions.
    /** When the first key with this prefix (other than `except`) was shown, waiting up to `timeout` ms; null if none by then. */
    const shown = (prefix: string, timeout = 60_000, except = '') =>
      page
        .waitForFunction(([p, x]) => (globalThis as unknown as ProbeWindow).__paretoProbe.first(p, x), [prefix, except] as const, { timeout })
        .then((h) => h.jsonValue() as Promise<number>)
        .catch((e: Error) => {
          if (e.name === 'TimeoutError' && timeout < 60_000) return null;
          throw e;
        });
    const input = (type: string) => page.evaluate(`window.__paretoProbe.inputs[${JSON.stringify(type)}]`) as Promise<number>;
    const forget = (prefix: string) => page.evaluate(`window.__paretoProbe.forget(${JSON.stringify(prefix)})`);

    // First draw: a fresh page each time (the script and the chunks come from the cache).
    for (let r = 0; r < options.repeats; r++) {
      context.progress(`pareto: first draw ${r + 1}/${options.repeats}`);
      await page.goto(`${server.url.split('#')[0]}${hash}`);
      const drawnAt = (await shown('scatter:1'))!;
      const dataAt = (await page.evaluate(`performance.getEntriesByName('saikoro:explore-data').at(-1)?.startTime ?? NaN`)) as number;
      samples.renderMs.push(drawnAt - dataAt);
    }
    await page.waitForTimeout(300);
    const plot = JSON.parse((await scatter.getAttribute('data-plot')) ?? 'null') as Plot | null;
    if (!plot) throw new Error('the scatter reported no plot area');
    const box = (await scatter.locator('.echart').boundingBox())!;
    const front = syntheticFront({ points: options.points, objectives: OBJECTIVES, seed: SEED });
    /** Point i's position on the page (objectives f1 and f2). */
    const pixel = (i: number) => ({
      x: box.x + plot.x + ((front.objectives[i * OBJECTIVES] - plot.x0) / (plot.x1 - plot.x0)) * plot.width,
      y: box.y + plot.y + plot.height - ((front.objectives[i * OBJECTIVES + 1] - plot.y0) / (plot.y1 - plot.y0)) * plot.height,
    });

    // Hover: onto seeded random points, so the tooltip shows another solution each time.
    context.progress('pareto: hover');
    const random = Random.fromSeed(7);
    for (let r = 0; r < options.repeats * 3; r++) {
      const p = pixel(random.below(front.count));
      await forget('tooltip:');
      await page.mouse.move(p.x, p.y);
      const at = await shown('tooltip:', 3000);
      // None: the point lies under the one the tooltip already shows.
      if (at !== null) samples.hoverMs.push(at - (await input('mousemove')));
    }
    await page.mouse.move(box.x + 2, box.y + 2);

    // Brush: rectangles of growing size around the middle of the plot; Esc clears the
    // selection in between (a click on Clear would scroll the page under the next drag).
    context.progress('pareto: brush');
    for (let r = 0; r < options.repeats; r++) {
      const f = 0.15 + (0.5 * r) / Math.max(1, options.repeats);
      const cx = box.x + plot.x + plot.width * 0.5;
      const cy = box.y + plot.y + plot.height * 0.5;
      const w = (plot.width * f) / 2;
      const h = (plot.height * f) / 2;
      await forget('selection:');
      await page.mouse.move(cx - w, cy - h);
      await page.mouse.down();
      await page.mouse.move(cx, cy, { steps: 3 });
      await page.mouse.move(cx + w, cy + h, { steps: 3 });
      await page.mouse.up();
      const at = (await shown('selection:', 60_000, 'selection:0'))!;
      samples.brushMs.push(at - (await input('mouseup')));
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => (globalThis as unknown as ProbeWindow).__paretoProbe.count() === '0');
    }

    // A change of axis: the horizontal objective cycles through f2, f3, f1, ...
    context.progress('pareto: change of axis');
    for (let r = 0; r < options.repeats; r++) {
      const given = Number(await scatter.getAttribute('data-option'));
      await page.getByTestId('explore-x').selectOption(String((r + 1) % OBJECTIVES));
      const at = (await shown(`scatter:${given + 1}`))!;
      samples.axisChangeMs.push(at - (await input('change')));
    }
    if (errors.length) throw new Error(`the page failed: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
  }
  if (!samples.hoverMs.length) throw new Error('no hover showed a tooltip');
  return {
    samples,
    figures: {
      points: options.points,
      renderMs: medianMs(samples.renderMs),
      hoverMs: medianMs(samples.hoverMs),
      brushMs: medianMs(samples.brushMs),
      axisChangeMs: medianMs(samples.axisChangeMs),
    },
  };
}

export const paretoBench: BenchSuite = {
  async run(context) {
    const points = context.points ?? (context.quick ? 5_000 : 100_000);
    const repeats = context.quick ? 2 : 7;
    const given = process.env.SAIKORO_BENCH_RENDERER_DIR;
    const { figures, samples } = await measurePareto(context, { points, repeats, rendererDir: given || DEFAULT_RENDERER_OUT, build: !given });
    const range = (v: number[]) => (v.length ? `${Math.round(Math.min(...v))}-${Math.round(Math.max(...v))}` : '-');
    const table: BenchTable = {
      title: `Pareto explorer, ${points.toLocaleString('en-US')} points (headless Chromium)`,
      columns: ['measure', 'median ms', 'range ms', 'repeats'],
      rows: [
        ['first draw (renderMs)', figures.renderMs, range(samples.renderMs), samples.renderMs.length],
        ['hover to tooltip (hoverMs)', figures.hoverMs, range(samples.hoverMs), samples.hoverMs.length],
        ['brush to selection list (brushMs)', figures.brushMs, range(samples.brushMs), samples.brushMs.length],
        ['change of axis to redrawn (axisChangeMs)', figures.axisChangeMs, range(samples.axisChangeMs), samples.axisChangeMs.length],
      ],
      notes: [
        `Synthetic front (M = ${OBJECTIVES}, 20 runs, seed ${SEED}), 2-D scatter at ${VIEWPORT.width}x${VIEWPORT.height}; ${SYSTEM_CHROMIUM} ${CHROMIUM_ARGS.join(' ')}; times from the input event to two animation frames after the page shows the answer.`,
      ],
    };
    return { tables: [table], json: figures };
  },
};
