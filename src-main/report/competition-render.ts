/**
 * The competition's standings in every form `competition standings` writes (docs/competition.md,
 * "Standings and reports"): a text table for the terminal, a self-contained HTML page (tables
 * and the runtime ECDF charts, with the report's CSS and chart machinery), CSV (RFC 4180, as the
 * experiment report's), LaTeX (booktabs) and the ECDFs as CSV. All from one CompetitionReport.
 */
import { csvField, type CsvValue } from '../../src-shared/base/csv.ts';
import type { RunScore } from '../../src-shared/competition/score.ts';
import { DARK_PALETTE, LIGHT_PALETTE, seriesColor } from '../../src-shared/charts/palette.ts';
import { ecdfOption } from './charts.ts';
import type { CompetitionReport } from './competition.ts';
import { formatValue } from './format.ts';
import { escapeHtml as e, figure, pageHead, tableHtml, type ChartCounter } from './html.ts';
import { escapeLatex } from './latex.ts';

const rankText = (r: number) => (Number.isInteger(r) ? String(r) : r.toFixed(1));
const scoreText = (v: number) => v.toFixed(3);

/** A run's score as a cell: f (or "infeasible") or HV, with the evaluation that first reached it. */
export function runScoreText(score: RunScore | null): string {
  if (score === null) return 'no run';
  if (score.kind === 'so') {
    if (score.f !== null) return `f ${formatValue(score.f)}${score.at !== null ? ` @${score.at}` : ''}`;
    return score.violation === null ? 'nothing evaluated' : `infeasible (violation ${formatValue(score.violation)})`;
  }
  return `HV ${formatValue(score.hv)}${score.at !== null ? ` @${score.at}` : ''}`;
}

function progressText(r: CompetitionReport): string {
  const { total, done, failed, live, missing } = r.runs;
  return `${done + failed}/${total} runs ended (${done} done, ${failed} failed${live ? `, ${live} playing on the server: scored on what they have evaluated so far` : ''}${missing ? `, ${missing} not run yet: scored as nothing until they are` : ''})`;
}

function padTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
}

/** The standings as the terminal shows them. */
export function standingsText(r: CompetitionReport): string {
  const tracks = r.definition.tracks;
  const out: string[] = [];
  out.push(`# ${r.file}: ${r.entrants.length} entrant(s) over ${r.problems.length} problem(s); ${progressText(r)}${r.revealed ? '; revealed' : ''}`);
  out.push('score = the problem ranks averaged over the suite (1 = best on every problem); per track the same over its problems', '');
  out.push(
    ...padTable(
      ['rank', 'entrant', 'score', ...tracks],
      r.standings.map((s) => [
        rankText(s.rank),
        s.entrant,
        scoreText(s.score),
        ...tracks.map((t) => (s.tracks[t] === undefined ? '-' : scoreText(s.tracks[t]))),
      ]),
    ),
  );
  if (r.friedman) {
    const f = r.friedman;
    out.push(
      '',
      `Friedman over ${f.problems} problems: chi2_F = ${f.chiSquare.toFixed(3)} (df ${f.entrants - 1}), p = ${formatP(f.p)}; Iman-Davenport F = ${Number.isFinite(f.imanDavenport) ? f.imanDavenport.toFixed(3) : 'inf'}, p = ${formatP(f.imanDavenportP)}`,
    );
    out.push(
      ...padTable(
        ['A', 'B', 'rank A - B', 'z', 'p', 'p (Holm)'],
        r.pairwise.map((p) => [p.a, p.b, p.rankDifference.toFixed(3), p.z.toFixed(3), formatP(p.p), formatP(p.pHolm)]),
      ),
    );
  } else out.push('', 'no Friedman test: it needs at least 2 problems and 2 entrants');
  if (r.contradictions.length)
    out.push('', `${r.contradictions.length} run(s) store numbers their own sequences contradict; scored from the sequences (--json lists them)`);
  return out.join('\n') + '\n';
}

function formatP(p: number): string {
  return p < 1e-4 ? p.toExponential(2) : p.toFixed(4);
}

/** The standings as CSV: rank, entrant, score, the average rank per track, then the problem rank per problem. */
export function renderStandingsCsv(r: CompetitionReport): string {
  const ids = r.problems.map((p) => p.id);
  const rows: CsvValue[][] = [['rank', 'entrant', 'score', ...r.definition.tracks.map((t) => `track_${t}`), ...ids]];
  for (const s of r.standings)
    rows.push([s.rank, s.entrant, s.score, ...r.definition.tracks.map((t) => s.tracks[t] ?? null), ...ids.map((id) => s.problems[id]?.rank ?? null)]);
  return rows.map((row) => row.map(csvField).join(',') + '\r\n').join('');
}

/** Every group's ECDF steps as CSV: group, solver, evaluations, fraction, reached, pairs. */
export function renderEcdfCsv(r: CompetitionReport): string {
  const rows: CsvValue[][] = [['group', 'solver', 'evaluations', 'fraction', 'reached', 'pairs']];
  for (const g of r.ecdfs)
    for (const x of g.ecdfs) for (const p of x.points) rows.push([g.group, x.solver, p.evaluations, p.fraction, Math.round(p.fraction * x.pairs), x.pairs]);
  return rows.map((row) => row.map(csvField).join(',') + '\r\n').join('');
}

/** The standings as a LaTeX table (booktabs; `standalone`: a whole article pdflatex compiles). */
export function renderStandingsLatex(r: CompetitionReport, options: { standalone?: boolean } = {}): string {
  const tracks = r.definition.tracks;
  const lines = [
    `% ${r.file.replace(/[\r\n]/g, ' ')}: standings (Saikoro competition report; needs \\usepackage{booktabs})`,
    '\\begin{table}[ht]',
    '\\centering',
    `\\caption{Standings of ${escapeLatex(r.file)}: the problem ranks averaged over the suite (score) and per track; lower is better.}`,
    `\\begin{tabular}{rl${'r'.repeat(1 + tracks.length)}}`,
    '\\toprule',
    `Rank & Entrant & Score & ${tracks.map(escapeLatex).join(' & ')} \\\\`,
    '\\midrule',
    ...r.standings.map(
      (s) =>
        `${rankText(s.rank)} & ${escapeLatex(s.entrant)} & ${scoreText(s.score)} & ${tracks.map((t) => (s.tracks[t] === undefined ? '--' : scoreText(s.tracks[t]))).join(' & ')} \\\\`,
    ),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
  ];
  if (r.friedman) lines.push(`% Friedman over ${r.friedman.problems} problems: chi2_F = ${r.friedman.chiSquare.toFixed(3)}, p = ${formatP(r.friedman.p)}`);
  const body = lines.join('\n') + '\n';
  return options.standalone ? `\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n${body}\\end{document}\n` : body;
}

/** The standings and the ECDF charts as one self-contained HTML page. */
export function renderStandingsHtml(r: CompetitionReport): string {
  const tracks = r.definition.tracks;
  const counter: ChartCounter = { next: 0 };
  const swatch = (k: number) => `<span class="swatch" style="--c:${seriesColor(LIGHT_PALETTE, k)};--cd:${seriesColor(DARK_PALETTE, k)}"></span>`;
  const order = r.entrants.map((x) => x.name);
  const standings = tableHtml(
    ['rank', 'entrant', 'score', ...tracks.map(e)],
    r.standings.map((s) => [
      rankText(s.rank),
      `${swatch(order.indexOf(s.entrant))}${e(s.entrant)}`,
      scoreText(s.score),
      ...tracks.map((t) => (s.tracks[t] === undefined ? '–' : scoreText(s.tracks[t]))),
    ]),
    { caption: "score: the entrant's problem ranks averaged over the suite (1 = best on every problem); per track the same over its problems" },
  );
  const problems = tableHtml(
    ['problem', ...r.standings.map((s) => e(s.entrant))],
    r.problems.map((p) => [
      `${e(p.id)}${p.hidden && !r.revealed ? ' <small>(hidden)</small>' : ''}`,
      ...r.standings.map((s) => {
        const q = s.problems[p.id];
        return q ? `${rankText(q.rank)} <small>best ${e(runScoreText(q.best))}; median ${e(runScoreText(q.median))}</small>` : '–';
      }),
    ]),
    { caption: "per problem: the entrant's rank among the entrants (by the mean rank of its runs), its best and median run" },
  );
  const tests = r.friedman
    ? `<p>Friedman over ${r.friedman.problems} problems: χ²<sub>F</sub> = ${r.friedman.chiSquare.toFixed(3)}, p = ${formatP(r.friedman.p)}; Iman-Davenport F = ${Number.isFinite(r.friedman.imanDavenport) ? r.friedman.imanDavenport.toFixed(3) : '∞'}, p = ${formatP(r.friedman.imanDavenportP)}.</p>
${tableHtml(
  ['A', 'B', 'rank A − B', 'z', 'p', 'p (Holm)'],
  r.pairwise.map((p) => [e(p.a), e(p.b), p.rankDifference.toFixed(3), p.z.toFixed(3), formatP(p.p), formatP(p.pHolm)]),
)}`
    : '<p class="note">No Friedman test: it needs at least 2 problems and 2 entrants.</p>';
  const end = r.definition.evaluations;
  const charts = r.ecdfs
    .map((g) => {
      const ordered = [...g.ecdfs].sort((a, b) => order.indexOf(a.solver) - order.indexOf(b.solver));
      const notes = [
        ...(g.withoutTargets.length ? [`no targets on ${g.withoutTargets.map(e).join(', ')} (no run found anything to start the ladder from)`] : []),
        ...g.inexact.map(e),
      ];
      return figure(
        counter,
        'ecdf',
        (t) => ecdfOption({ group: g.group, ecdfs: ordered, end }, t),
        { width: 900, height: 380 },
        `Runtime ECDF of ${e(g.group)}: targets per problem from the best value any run reached (docs/competition.md).${notes.length ? ` ${notes.join('; ')}.` : ''}`,
      );
    })
    .join('\n');
  return `${pageHead(`${r.file}: competition standings`, r.appVersion)}
<main>
<header id="top">
<h1>${e(r.file)}: standings</h1>
<p class="lead">${r.entrants.length} entrant(s), ${r.problems.length} problem(s) (${tracks.map(e).join(', ')} at N = ${r.definition.ns.join(', ')}; ${r.definition.evaluations} evaluations x ${r.definition.seeds} seed(s) a problem), every solver blind; ${e(progressText(r))}${r.revealed ? '; revealed' : '; the hidden instances are named by their ids'}.</p>
</header>
<section id="standings"><h2>Standings</h2>${standings}
${tests}</section>
<section id="problems"><h2>Problems</h2>${problems}
<p class="note">Scores are recomputed from the stored solutions with the exact evaluator; several objectives: hypervolume against the track's fixed reference (${e(r.scoreNormalisation)}).</p></section>
<section id="ecdf"><h2>Runtime ECDFs</h2>${charts || '<p class="note">No run has finished.</p>'}</section>
<footer>Made by ${e(r.appVersion)} from ${e(r.file)}. The same data: <code>saikoro competition standings ${e(r.file)} --json</code>.</footer>
</main>
</body>
</html>
`;
}
