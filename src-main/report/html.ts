/**
 * The HTML report: one self-contained file (inline CSS, inline SVG charts, a few lines of inline
 * script for the copy buttons; no network: a Content-Security-Policy forbids every fetch). Light
 * on screen and in print, dark under prefers-color-scheme: dark (each chart is rendered in both
 * themes and CSS shows one). The PDF is this page printed by Chromium.
 */
import { HIDDEN_TEXT } from '../../src-shared/competition/hidden.ts';
import {
  attainmentOption,
  blend,
  boxplotOption,
  constraintOption,
  convergenceOption,
  DIFFERENCE_OPACITY,
  eafDifferenceOption,
  featureOption,
  frontOption,
  renderSvg,
} from './charts.ts';
import { DARK_PALETTE, LIGHT_PALETTE, seriesColor, type ChartPalette } from '../../src-shared/charts/palette.ts';
import { formatCell, formatValue, metricTitle } from './format.ts';
import type { InstanceReport, MetricTable, ReportData, SetupInstance } from './types.ts';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';

/**
 * Text for HTML: the five specials as entities, and every control character but tab and LF as a
 * character reference (ESC as &#x1b;), so the page printed to a terminal (`report` without
 * --out) cannot drive it, while a browser shows the same text.
 */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"'\x00-\x08\x0b-\x1f\x7f-\x9f]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? `&#x${c.charCodeAt(0).toString(16)};`,
  );
}

const e = escapeHtml;
const MINUS = '−';

/** Ids must be unique and safe in attributes and CSS: instance names are [A-Za-z0-9._+-]. */
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);

export interface ChartCounter {
  next: number;
}

export function figure(
  counter: ChartCounter,
  kind: string,
  build: (theme: ChartPalette) => Record<string, unknown>,
  size: { width: number; height: number },
  caption: string,
): string {
  const id = `c${counter.next++}`;
  const svg = (theme: ChartPalette) => renderSvg(build(theme), size, `${id}${theme.name[0]}`);
  return `<figure class="chart" data-chart="${e(kind)}" style="max-width:${size.width}px">
<div class="svg light">${svg(LIGHT_PALETTE)}</div>
<div class="svg dark" aria-hidden="true">${svg(DARK_PALETTE)}</div>
<figcaption>${caption}</figcaption>
</figure>`;
}

export function tableHtml(header: string[], rows: string[][], options: { className?: string; caption?: string } = {}): string {
  return `<table${options.className ? ` class="${options.className}"` : ''}>${options.caption ? `<caption>${options.caption}</caption>` : ''}
<thead><tr>${header.map((h) => `<th>${h}</th>`).join('')}</tr></thead>
<tbody>
${rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${c}</th>` : `<td>${c}</td>`)).join('')}</tr>`).join('\n')}
</tbody></table>`;
}

const list = (values: readonly (number | string)[]) => values.map((v) => (typeof v === 'number' ? formatValue(v) : v)).join(', ');

function groupText(group: readonly number[]): string {
  const contiguous = group.every((f, i) => i === 0 || f === group[i - 1] + 1);
  return contiguous && group.length > 2 ? `F${group[0]}–F${group[group.length - 1]}` : group.map((f) => `F${f}`).join(', ');
}

function constraintsText(instance: SetupInstance): string {
  if (instance.defaultConstraints) return 'd = 1..12, p<sub>d</sub> = 0.1, P<sub>d</sub> = 0.9 (default)';
  if (!instance.constraints.length) return 'none';
  return instance.constraints.map((c) => `d = ${c.d}: [${formatValue(c.lower)}, ${formatValue(c.upper)}]`).join('; ');
}

function bandsText(instance: SetupInstance): string {
  if (instance.hidden) return HIDDEN_TEXT;
  if (!instance.bands) return 'default';
  const { alpha, beta, gamma } = instance.bands;
  return alpha.map((a, i) => `F${i + 1} [${formatValue(a)}, ${formatValue(beta[i])}] γ ${formatValue(gamma[i])}`).join('; ');
}

function setupSection(data: ReportData): string {
  const s = data.setup;
  // The normalisation column only where some instance has several objectives.
  const normalised = s.instances.some((i) => i.normalisation || (i.hidden && i.objectives.length >= 2));
  const instances = tableHtml(
    ['instance', 'track', 'N', 'objectives', 'bands [α, β] and weights γ', 'constraints', ...(normalised ? ['HV / IGD+ normalisation'] : [])],
    s.instances.map((i) => [
      e(i.name),
      `<span class="nw">${e(i.track)}</span>`,
      `<span class="nw">${i.n}</span>`,
      `M = ${i.objectives.length}: ${i.objectives.map(groupText).join(' | ')}`,
      bandsText(i),
      constraintsText(i),
      ...(normalised
        ? [
            i.hidden && i.objectives.length >= 2
              ? HIDDEN_TEXT
              : i.normalisation
                ? `ideal (${list(i.normalisation.ideal)}), nadir (${list(i.normalisation.nadir)}), reference 1.1${i.normalisation.method ? `<br><small>${e(i.normalisation.method)}</small>` : ''}`
                : '–',
          ]
        : []),
    ]),
    { className: 'setup' },
  );
  const solvers = tableHtml(
    ['solver', 'algorithm', 'parameters (defaults filled in)'],
    s.solvers.map((v, k) => [
      `<span class="swatch" style="--c:${seriesColor(LIGHT_PALETTE, k)};--cd:${seriesColor(DARK_PALETTE, k)}"></span>${e(v.label)}${v.label === data.baseline ? ' <span class="tag">baseline</span>' : ''}`,
      v.program
        ? `program: <code>${e(formatCommand(v.program.command))}</code>${v.program.cwd ? ` in ${e(v.program.cwd)}` : ''}${v.program.blind ? ' (blind)' : ''}`
        : e(v.name),
      v.program
        ? Object.entries(v.program.hashes ?? {})
            .map(([file, hash]) => `sha256 of ${e(file)}: <code>${e(hash)}</code>`)
            .join('<br>') || '–'
        : v.params.length
          ? v.params
              .map((p) =>
                p.byInstance
                  ? `${e(p.name)} = ${p.byInstance.map((b) => `${e(String(b.value))} (${e(b.instance)})`).join(', ')}`
                  : `${e(p.name)} = ${e(String(p.value))}`,
              )
              .join('<br>')
          : '–',
    ]),
    { className: 'setup' },
  );
  const budget = [`${s.budget.evaluations.toLocaleString('en-US')} evaluations per run`];
  if (s.budget.target !== undefined) budget.push(`target f ≤ ${formatValue(s.budget.target)}`);
  if (s.budget.stallEvaluations !== undefined) budget.push(`stop after ${s.budget.stallEvaluations.toLocaleString('en-US')} evaluations without improvement`);
  return `<section id="setup">
<h2>Setup</h2>
<dl class="facts">
<dt>Seeds</dt><dd>${s.seeds.length} (${compactSeeds(s.seeds)})</dd>
<dt>Budget</dt><dd>${e(budget.join('; '))}</dd>
<dt>Runs</dt><dd>${s.runs.total} in the grid: ${s.runs.done} done, ${s.runs.failed} failed, ${s.runs.missing} not run</dd>
<dt>Runs made by</dt><dd>${e(s.runVersions.join(', ') || '–')}</dd>
</dl>
<h3>Instances</h3>
${instances}
<h3>Solvers</h3>
${solvers}
</section>`;
}

/** "1–30" for consecutive seeds, else the list. */
function compactSeeds(seeds: readonly number[]): string {
  const consecutive = seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1);
  return consecutive && seeds.length > 2 ? `${seeds[0]}–${seeds[seeds.length - 1]}` : seeds.join(', ');
}

/** Up to this many pair tests per indicator are shown (and printed) open; more start folded. */
const OPEN_PAIRS = 12;

const markText = (m: string | null) => (m === '+' ? '+' : m === '-' ? MINUS : m === '=' ? '=' : '');
const markClass = (m: string | null) => (m === '+' ? 'plus' : m === '-' ? 'minus' : 'same');

function resultsTable(table: MetricTable, data: ReportData): string {
  const comparison = data.comparisons.find((c) => c.metric === table.metric)!;
  const solvers = table.rows[0]?.cells.map((c) => c.solver) ?? [];
  const stat = table.aggregate === 'mean' ? 'mean (the share of runs that found a feasible solution)' : 'median (IQR)';
  const caption = `${e(metricTitle(table.metric))}: ${stat} per solver and instance, ${table.higherIsBetter ? 'higher' : 'lower'} is better; <b>bold</b>: best of the row; +/${MINUS}/= against ${e(data.baseline)} (Mann-Whitney U, Holm-corrected over the instance's ${Math.max(solvers.length - 1, 1)} comparisons with ${e(data.baseline)}, α = ${data.significance}) with A12 = P(solver better than ${e(data.baseline)}).${table.fewRuns ? ` <span class="few-runs">${e(table.fewRuns)}</span>` : ''}`;
  const body = table.rows.map((row) => {
    const cells = row.cells.map((c) => {
      const title = `n = ${c.n}${c.withoutValue ? `, ${c.withoutValue} without a value` : ''}${c.missing ? `, ${c.missing} not done` : ''}${c.p !== null ? `; p = ${formatValue(c.p)}, p (Holm) = ${formatValue(c.pHolm)}` : ''}`;
      const mark = c.vsBaseline
        ? ` <span class="mark ${markClass(c.vsBaseline)}">${markText(c.vsBaseline)}</span>`
        : c.solver === data.baseline
          ? ' <span class="mark base">base</span>'
          : '';
      const a12 = c.a12 !== null ? `<span class="a12">A12 ${formatValue(c.a12)}</span>` : '';
      return `<td class="${c.best ? 'best' : ''}" title="${e(title)}"><span class="v">${formatCell(c, table.aggregate)}</span>${mark}${a12}<span class="n">n = ${c.n}</span></td>`;
    });
    return `<tr><th scope="row">${e(row.instance)}</th>${cells.join('')}</tr>`;
  });
  let foot = '';
  if (table.friedman) {
    const f = table.friedman;
    const bestRank = Math.min(...f.ranks.map((r) => r.averageRank));
    foot = `<tfoot><tr><th scope="row">Friedman rank</th>${solvers
      .map((s) => {
        const r = f.ranks.find((x) => x.solver === s)!;
        return `<td class="${r.averageRank === bestRank ? 'best' : ''}">${formatValue(r.averageRank)}</td>`;
      })
      .join('')}</tr></tfoot>`;
  }
  const friedmanText = table.friedman
    ? `Friedman over ${table.friedman.instances.length} instances (${e(table.friedman.instances.join(', '))}) on the per-instance ${table.aggregate}s: χ²<sub>F</sub> = ${formatValue(table.friedman.chiSquare)}, p = ${formatValue(table.friedman.p)}; Iman-Davenport F = ${table.friedman.imanDavenport === null ? '∞' : formatValue(table.friedman.imanDavenport)}, p = ${formatValue(table.friedman.imanDavenportP)}. Average ranks, 1 = best.`
    : `Friedman ranks: not computed (${e(table.friedmanNote ?? 'no instances')}).`;
  const norms = comparison.instances
    .filter((i) => i.normalisation && ['hv', 'igd+', 'epsilon', 'spacing'].includes(table.metric))
    .map((i) => `${e(i.instance)}: ideal (${list(i.normalisation!.ideal)}), nadir (${list(i.normalisation!.nadir)}), reference 1.1`);
  const pairs = comparison.instances.flatMap((i) =>
    i.pairs.map((p) => [
      e(i.instance),
      `${e(p.a)} vs ${e(p.b)}`,
      formatValue(p.u),
      formatValue(p.p),
      formatValue(p.pHolm),
      e(p.method),
      formatValue(p.a12),
      e(p.magnitude),
    ]),
  );
  return `<section class="metric" id="metric-${slug(table.metric)}">
<div class="block">
<h3>${e(metricTitle(table.metric))} <code>${e(table.metric)}</code></h3>
<p class="note">${caption}</p>
<div class="table-wrap"><table class="results">
<thead><tr><th>instance</th>${solvers.map((s) => `<th>${e(s)}</th>`).join('')}</tr></thead>
<tbody>
${body.join('\n')}
</tbody>${foot}</table></div>
<p class="note">${friedmanText}</p>
</div>
${table.skipped.length ? `<p class="note">Not applicable: ${e(table.skipped.map((s) => s.reason).join('; '))}.</p>` : ''}
${norms.length ? `<p class="note">Normalisation: ${norms.join('; ')}.</p>` : ''}
${pairs.length ? `<details class="pairs"${pairs.length <= OPEN_PAIRS ? ' open' : ''}><summary>All pairwise tests (${pairs.length}), as saikoro compare: Holm over all pairs of the instance</summary><div class="table-wrap">${tableHtml(['instance', 'pair', 'U', 'p', 'p (Holm)', 'test', 'A12 (first better)', 'effect'], pairs, { className: 'pairs' })}</div></details>` : ''}
</section>`;
}

function resultsSection(data: ReportData): string {
  return `<section id="results">
<h2>Results</h2>
${data.tables.map((t) => resultsTable(t, data)).join('\n')}
</section>`;
}

/** Swatches of a solver's colour at the heatmap's shades of 0.25, 0.5 and 1, in both themes. */
function shadeKey(k: number): string {
  const swatches = [0.25, 0.5, 1]
    .map((v) => {
      const o = v * DIFFERENCE_OPACITY;
      return `<span class="swatch" title="${v}" style="--c:${blend(seriesColor(LIGHT_PALETTE, k), LIGHT_PALETTE.surface, o)};--cd:${blend(seriesColor(DARK_PALETTE, k), DARK_PALETTE.surface, o)}"></span>`;
    })
    .join('');
  return `<span class="key">${swatches}</span>`;
}

/**
 * The empirical attainment (M = 2): each solver's best, median and worst attainment surfaces,
 * then the EAF difference of the baseline against each other solver. Marked with
 * data-hook="attainment-surfaces" (the place the report kept for them).
 */
function attainmentFigure(instance: InstanceReport, counter: ChartCounter, labels: readonly string[]): string {
  const a = instance.attainment;
  if (a === null) return instance.objectives > 2 ? '<p class="note">Attainment surfaces: for two objectives only.</p>' : '';
  const colour = (label: string) => labels.indexOf(label);
  const surfaces = a.solvers.map((s, k) =>
    figure(
      counter,
      'attainment',
      (t) => attainmentOption(a, k, colour(s.solver), t),
      { width: 440, height: 340 },
      `${e(s.solver)}: dashed best (attained by at least 1 of ${s.runs} runs), solid median (${s.median.level}), dotted worst (all ${s.runs}).`,
    ),
  );
  const differences = a.differences.map((d) => {
    return figure(
      counter,
      'eaf-difference',
      (t) => eafDifferenceOption(a, d, { a: colour(d.a), b: colour(d.b) }, t),
      { width: 900, height: 440 },
      `The fraction of ${e(d.a)}'s runs that attain a point minus that of ${e(d.b)}'s: ${shadeKey(colour(d.a))} ${e(d.a)} attains it more often, ${shadeKey(colour(d.b))} ${e(d.b)} does (shades for differences of 0.25, 0.5 and 1). The exact difference (${d.rectangles.toLocaleString('en-US')} rectangles, from ${formatValue(d.min)} to ${formatValue(d.max)}) is shown as its mean over each cell of a ${d.cells[0]?.length ?? 0} × ${d.cells.length} grid.`,
    );
  });
  return `<div class="block attainment" data-hook="attainment-surfaces"><h3>Attainment surfaces</h3>
<p class="note">${e(a.caption)}</p>
<div class="chart-grid">${surfaces.join('\n')}</div>
${differences.length ? `<h3>Differences of the attainment functions</h3>\n${differences.join('\n')}` : ''}
</div>`;
}

function instanceSection(instance: InstanceReport, counter: ChartCounter, labels: readonly string[]): string {
  const parts: string[] = [];
  const boxes = instance.boxplots.map((b) =>
    figure(
      counter,
      `boxplot-${b.metric}`,
      (t) => boxplotOption(b, t),
      { width: 440, height: 300 },
      `${e(metricTitle(b.metric))} per run on ${e(instance.instance)}.`,
    ),
  );
  if (boxes.length) parts.push(`<div class="block"><h3>Indicators per run</h3><div class="chart-grid">${boxes.join('\n')}</div></div>`);
  if (instance.convergence) {
    const c = instance.convergence;
    parts.push(
      `<div class="block"><h3>Convergence</h3>${figure(counter, 'convergence', (t) => convergenceOption(c, t), { width: 900, height: 380 }, e(c.caption))}</div>`,
    );
  }
  if (instance.fronts) {
    const f = instance.fronts;
    parts.push(`<div class="block"><h3>Fronts</h3>${f.solvers.length ? figure(counter, 'fronts', (t) => frontOption(f, t), { width: 900, height: 420 }, e(f.caption)) : '<p class="note">No front: no run has finished.</p>'}</div>
${attainmentFigure(instance, counter, labels)}`);
  }
  if (instance.best) {
    const b = instance.best;
    const status = b.feasible ? 'feasible' : `infeasible (total violation ${formatValue(b.violation)})`;
    parts.push(`<div class="block"><h3>Best solution</h3>
<p class="note">${e(b.solver)}, seed ${b.seed}, objectives (${list(b.objectives)}), ${status}; ${e(b.rule)}.</p>
${figure(counter, 'features', (t) => featureOption(b, t), { width: 900, height: 320 }, b.hidden ? `F1..F15 of the best solution (its bands are ${HIDDEN_TEXT}).` : 'F1..F15 of the best solution against their bands [α, β].')}</div>
${figure(counter, 'constraints', (t) => constraintOption(b, t), { width: 900, height: 300 }, 'χ<sub>d</sub> of the best solution against [q(p<sub>d</sub>), q(P<sub>d</sub>)] for each constrained block length d.')}`);
  }
  return `<section class="instance" id="instance-${slug(instance.instance)}">
<h2>${e(instance.instance)} <small>M = ${instance.objectives}</small></h2>
${parts.join('\n')}
</section>`;
}

function sequencesSection(data: ReportData): string {
  let k = 0;
  const blocks = data.instances.map((inst) => {
    if (!inst.bestBySolver.length) return '';
    const rows = inst.bestBySolver.map((b) => {
      const id = `seq-${k++}`;
      const overall = inst.best && inst.best.run === b.run && inst.best.x === b.x;
      return `<tr><th scope="row">${e(b.solver)}${overall ? ' <span class="tag">best</span>' : ''}</th><td>${b.seed}</td><td>${list(b.objectives)}</td><td>${b.feasible ? 'yes' : `no (${formatValue(b.violation)})`}</td>
<td class="seq-cell"><code class="seq" id="${id}">${e(b.x)}</code><button type="button" class="copy" data-copy="${id}">Copy</button></td></tr>`;
    });
    return `<h3>${e(inst.instance)}</h3>
<div class="table-wrap"><table class="sequences"><thead><tr><th>solver</th><th>seed</th><th>objectives</th><th>feasible</th><th>sequence (N = ${inst.bestBySolver[0].x.length})</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>`;
  });
  return `<section id="sequences">
<h2>Best sequences</h2>
<p class="note">The best solution of each solver per instance (the same rule as the best solution above). Click a sequence to select it, or use Copy.</p>
${blocks.join('\n')}
</section>`;
}

function failedSection(data: ReportData): string {
  const failed = data.runs.filter((r) => r.status === 'failed');
  const missing = data.runs.filter((r) => r.status === 'missing').length;
  const table = failed.length
    ? `<div class="table-wrap"><table class="failed"><thead><tr><th>instance</th><th>solver</th><th>seed</th><th>run</th><th>reason</th></tr></thead><tbody>
${failed.map((r) => `<tr><th scope="row">${e(r.instance)}</th><td>${e(r.solver)}</td><td>${r.seed}</td><td><code>${e(r.id.slice(0, 12))}</code></td><td class="reason">${e(r.error ?? '')}</td></tr>`).join('\n')}
</tbody></table></div>`
    : '<p>No run failed.</p>';
  return `<section id="failed">
<h2>Failed runs</h2>
${table}
${missing ? `<p class="note">${missing} run(s) of the grid have not been run; they are left out of every table and chart.</p>` : ''}
</section>`;
}

export const CSS = `
:root{--bg:#fff;--fg:#1f2937;--muted:#4b5563;--line:#d1d5db;--soft:#f3f4f6;--best:#fef9c3;--plus:#15803d;--minus:#b91c1c;--accent:#1d4ed8;color-scheme:light dark}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1180px;margin:0 auto;padding:24px 32px 48px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:36px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}h3{font-size:16px;margin:22px 0 8px}
h2 small{font-weight:400;color:var(--muted);font-size:14px}
a{color:var(--accent)}
.lead{color:var(--muted);margin:0 0 12px}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}
.facts dt{color:var(--muted)}.facts dd{margin:0;overflow-wrap:anywhere}
nav ol{columns:3;margin:8px 0;padding-left:20px}
table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}
caption{caption-side:top;text-align:left;color:var(--muted);font-size:13px;padding-bottom:6px}
th,td{border-bottom:1px solid var(--line);padding:5px 10px;text-align:left;vertical-align:top}
thead th{border-bottom:2px solid var(--fg);white-space:nowrap}
tfoot th,tfoot td{border-top:2px solid var(--fg)}
.table-wrap{overflow-x:auto}
table.results td{text-align:right;white-space:nowrap}
table.results td .v{font-weight:500}
table.results td.best .v,tfoot td.best{font-weight:700}
table.results td.best{background:var(--best)}
.mark{display:inline-block;min-width:1.1em;text-align:center;font-weight:700;margin-left:4px}
.mark.plus{color:var(--plus)}.mark.minus{color:var(--minus)}.mark.same{color:var(--muted)}.mark.base{font-weight:400;color:var(--muted);font-size:11px}
.few-runs{display:block;margin-top:4px;color:#b45309}
.a12,.n{display:block;font-size:11px;color:var(--muted)}
table.pairs,table.setup{font-size:13px}
table.setup td{max-width:420px;overflow-wrap:anywhere}
table.setup th,.nw{white-space:nowrap}
details.pairs summary{cursor:pointer;color:var(--muted)}
.note{color:var(--muted);font-size:13px;margin:4px 0 10px}
.tag{font-size:11px;border:1px solid var(--line);border-radius:4px;padding:0 4px;color:var(--muted);font-weight:400}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;background:var(--c)}
.key{white-space:nowrap}.key .swatch{margin-right:1px;vertical-align:-1px}
.chart{margin:8px 0 16px;width:100%}
.chart .svg svg{width:100%;height:auto;display:block}
figcaption{color:var(--muted);font-size:12px;margin-top:2px}
.chart-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(360px,1fr));gap:8px 24px}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:12.5px}
.seq-cell{min-width:320px}
code.seq{display:block;user-select:all;overflow-wrap:anywhere;word-break:break-all;background:var(--soft);padding:4px 6px;border-radius:4px;max-height:9em;overflow:auto}
button.copy{margin-top:4px;font:inherit;font-size:12px;padding:1px 10px;border:1px solid var(--line);border-radius:4px;background:var(--soft);color:var(--fg);cursor:pointer}
td.reason{white-space:pre-wrap;overflow-wrap:anywhere;max-width:560px}
footer{margin-top:40px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:8px}
.svg.dark{display:none}
/* After the base rules, so that it wins over them. */
@media (prefers-color-scheme:dark){:root{--bg:#111827;--fg:#e5e7eb;--muted:#9ca3af;--line:#374151;--soft:#1f2937;--best:#3f3a12;--plus:#4ade80;--minus:#f87171;--accent:#93c5fd}
.svg.light{display:none}.svg.dark{display:block}.swatch{background:var(--cd)!important}}
@media print{
:root{--bg:#fff;--fg:#000;--muted:#374151;--line:#9ca3af;--soft:#f3f4f6;--best:#fef9c3;--plus:#166534;--minus:#991b1b;--accent:#000}
.svg.light{display:block!important}.svg.dark{display:none!important}.swatch{background:var(--c)!important}
body{font-size:10.5pt}main{max-width:none;padding:0}
nav,button.copy{display:none}
details.pairs summary{display:none}
h2{break-after:avoid;page-break-after:avoid}h3{break-after:avoid;page-break-after:avoid}
figure,table,.chart,.block{break-inside:avoid;page-break-inside:avoid}
tr{break-inside:avoid;page-break-inside:avoid}
/* A table longer than a page breaks, but never leaves a row alone: its first two rows and its last two stay together. */
tbody tr:nth-child(2),tbody tr:last-child{break-before:avoid;page-break-before:avoid}
.table-wrap{overflow:visible}
code.seq{max-height:none;overflow:visible}
section.instance{break-before:page;page-break-before:always}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}
`;

const SCRIPT = `document.addEventListener('click',function(ev){var b=ev.target.closest&&ev.target.closest('button[data-copy]');if(!b)return;var c=document.getElementById(b.getAttribute('data-copy'));var select=function(){var r=document.createRange();r.selectNodeContents(c);var s=getSelection();s.removeAllRanges();s.addRange(r);b.textContent='Selected: press Ctrl+C';};if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(c.textContent).then(function(){b.textContent='Copied';},select);}else select();});`;

/** The whole report as one HTML document. */
/**
 * The head of a report page, through <body>: no network (the Content-Security-Policy allows
 * inline styles, data: images and, with `scripts`, inline scripts only), the report's CSS.
 */
export function pageHead(title: string, generator: string, options: { scripts?: boolean } = {}): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';${options.scripts ? " script-src 'unsafe-inline';" : ''} img-src data:">
<meta name="generator" content="${escapeHtml(generator)}">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>`;
}

export function renderHtml(data: ReportData): string {
  const counter: ChartCounter = { next: 0 };
  const labels = data.setup.solvers.map((s) => s.label);
  const instances = data.instances.map((i) => instanceSection(i, counter, labels));
  const toc = [
    ['setup', 'Setup'],
    ['results', 'Results'],
    ...data.instances.map((i) => [`instance-${slug(i.instance)}`, `Charts: ${i.instance}`]),
    ['sequences', 'Best sequences'],
    ['failed', 'Failed runs'],
  ];
  const date = data.generatedAt
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
    .replace(/Z$/, ' UTC');
  return `${pageHead(`${data.experiment.name}: Saikoro report`, data.appVersion, { scripts: true })}
<main>
<header id="top">
<h1>${e(data.experiment.name)}</h1>
<p class="lead">Saikoro experiment report${data.experiment.description ? `: ${e(data.experiment.description)}` : ''}</p>
<dl class="facts">
<dt>Project file</dt><dd>${e(data.source.file)}</dd>
<dt>Made</dt><dd>${e(date)} by ${e(data.appVersion)}</dd>
<dt>Runs hash</dt><dd><code>${e(data.source.runsHash)}</code> (SHA-256 over the ${data.source.runsHashed} stored runs)</dd>
<dt>Indicators</dt><dd>${data.metrics.map((m) => `<a href="#metric-${slug(m)}">${e(metricTitle(m))}</a>`).join(', ')}; baseline ${e(data.baseline)}</dd>
</dl>
<nav><ol>${toc.map(([id, text]) => `<li><a href="#${id}">${e(text)}</a></li>`).join('')}</ol></nav>
</header>
${setupSection(data)}
${resultsSection(data)}
${instances.join('\n')}
${sequencesSection(data)}
${failedSection(data)}
<footer>Made by ${e(data.appVersion)} from ${e(data.source.file)} (runs hash ${e(data.source.runsHash.slice(0, 16))}…). The same data: <code>saikoro report ${e(data.source.file)} ${e(data.experiment.name)} --format json</code>.</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
