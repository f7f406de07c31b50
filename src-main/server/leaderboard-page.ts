/**
 * The live leaderboard of a competition server (GET /competition): the standings of
 * `competition standings` (src-main/report/competition.ts, with the remote runs still playing
 * scored as they stand), how far each entrant is, each problem's ranks, the runtime ECDFs per
 * track and over the suite (SVG drawn on the server by the report's charts: the page runs no
 * script), and, for an entrant who opens it with its token, its own runs (evaluations used and
 * left, the best so far). It reloads itself every few seconds. Nothing on it names a file or
 * shows a hidden instance's bands: ids, ranks and scores.
 */
import { LIGHT_PALETTE } from '../../src-shared/charts/palette.ts';
import type { Competition } from '../../src-shared/competition/competition.ts';
import type { EntrantView, LiveStandings } from '../app/competition-service.ts';
import { ecdfOption, renderSvg } from '../report/charts.ts';
import { runScoreText } from '../report/competition-render.ts';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const rankText = (r: number) => (Number.isInteger(r) ? String(r) : r.toFixed(1));
const pText = (p: number) => (p < 1e-4 ? p.toExponential(2) : p.toFixed(4));

const STYLE = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #0f172a; margin: 2em auto; max-width: 72em; padding: 0 1em; line-height: 1.4 }
h1 { font-size: 1.5em; margin-bottom: 0.2em } h2 { font-size: 1.15em; margin-top: 1.6em }
.muted { color: #475569; font-size: 0.9em }
table { border-collapse: collapse; margin: 0.5em 0; font-variant-numeric: tabular-nums }
th, td { border-bottom: 1px solid #e2e8f0; padding: 0.25em 0.7em; text-align: left; vertical-align: top }
th { font-weight: 600; background: #f8fafc } td.num { text-align: right }
tr.first td { font-weight: 600 }
.charts { display: flex; flex-wrap: wrap; gap: 1em } .charts figure { margin: 0 }
`;

export interface LeaderboardOptions {
  /** The entrant's own runs, when an entrant opened the page with its token. */
  own?: EntrantView | null;
  /** Reload every this many seconds (0: never). */
  refreshSeconds?: number;
  at?: Date;
}

/** The page: the standings, problems and ECDFs when `live` is given (public, or the organiser's), and the entrant's own runs when `own` is. */
export function renderLeaderboard(competition: Competition, live: LiveStandings | null, options: LeaderboardOptions = {}): string {
  const { definition } = competition;
  const refresh = options.refreshSeconds ?? 10;
  const title = `Competition: ${definition.tracks.join(', ')} at N = ${definition.ns.join(', ')}`;
  const parts: string[] = [];
  parts.push(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>`);
  if (refresh > 0) parts.push(`<meta http-equiv="refresh" content="${refresh}">`);
  parts.push(`<style>${STYLE}</style></head><body>`);
  parts.push(`<h1>${escape(title)}</h1>`);
  const hidden = competition.problems.filter((p) => p.hidden).length;
  parts.push(
    `<p class="muted">${competition.problems.length} problem(s) (${hidden} secret), ${definition.evaluations.toLocaleString('en-US')} evaluations per run, ${definition.seeds} seed(s) per problem and entrant, every entrant blind. ${
      competition.secret === null ? 'Live' : 'Revealed: final'
    } standings${options.at ? `, as of ${escape(options.at.toISOString().replace('T', ' ').slice(0, 19))} UTC` : ''}${refresh > 0 ? `; this page reloads every ${refresh} s` : ''}.</p>`,
  );

  if (live) {
    const r = live.report;
    const progress = new Map(live.progress.map((p) => [p.entrant, p]));
    parts.push('<h2>Standings</h2>');
    parts.push(
      `<table id="standings"><thead><tr><th>Rank</th><th>Entrant</th><th>Score</th>${definition.tracks.map((t) => `<th>${escape(t)}</th>`).join('')}<th>Runs done</th><th>Playing</th><th>Not yet</th><th>Evaluations</th></tr></thead><tbody>`,
    );
    r.standings.forEach((s, i) => {
      const p = progress.get(s.entrant)!;
      parts.push(
        `<tr${i === 0 ? ' class="first"' : ''}><td class="num">${rankText(s.rank)}</td><td>${escape(s.entrant)}</td><td class="num">${s.score.toFixed(3)}</td>${definition.tracks
          .map((t) => `<td class="num">${s.tracks[t] === undefined ? '–' : s.tracks[t].toFixed(3)}</td>`)
          .join(
            '',
          )}<td class="num">${p.done}${p.failed ? ` (+${p.failed} failed)` : ''}</td><td class="num">${p.live}</td><td class="num">${p.missing}</td><td class="num">${p.evaluations.toLocaleString('en-US')}</td></tr>`,
      );
    });
    parts.push('</tbody></table>');
    const f = r.friedman;
    parts.push(
      `<p class="muted">Score: the entrant's problem ranks averaged over the suite (1 = best on every problem), per track the same over its problems; a run not played yet counts as one that found nothing. ${
        f
          ? `Friedman over ${f.problems} problems and ${f.entrants} entrants: χ² = ${f.chiSquare.toFixed(2)}, p = ${pText(f.p)}; Iman-Davenport p = ${pText(f.imanDavenportP)}.`
          : 'No Friedman test with fewer than 2 problems or 2 entrants.'
      }</p>`,
    );
    parts.push('<h2>Problems</h2>');
    parts.push(`<table id="problems"><thead><tr><th>Problem</th>${r.standings.map((s) => `<th>${escape(s.entrant)}</th>`).join('')}</tr></thead><tbody>`);
    for (const problem of r.problems) {
      const cells = r.standings.map((s) => {
        const on = s.problems[problem.id];
        return on ? `<td>${rankText(on.rank)}: ${escape(runScoreText(on.best))}</td>` : '<td>–</td>';
      });
      parts.push(`<tr><td>${escape(problem.id)}</td>${cells.join('')}</tr>`);
    }
    parts.push(
      '</tbody></table><p class="muted">Each cell: the entrant\'s rank on the problem, then its best run (the evaluation that first reached it after @).</p>',
    );
    parts.push('<h2>Runtime ECDFs</h2><div class="charts">');
    const order = r.entrants.map((e) => e.name);
    r.ecdfs.forEach((g, i) => {
      const ordered = [...g.ecdfs].sort((a, b) => order.indexOf(a.solver) - order.indexOf(b.solver));
      parts.push(
        `<figure>${renderSvg(ecdfOption({ group: g.group, ecdfs: ordered, end: definition.evaluations }, LIGHT_PALETTE), { width: 520, height: 320 }, `ecdf${i}`)}</figure>`,
      );
    });
    parts.push(
      '</div><p class="muted">COCO\'s runtime ECDFs: for targets of each problem from the best value any run reached, the fraction of (run, target) pairs an entrant reached by each evaluation, per track and over the suite.</p>',
    );
  } else parts.push('<p class="muted">The standings are the organiser\'s on this server; here are your own runs.</p>');

  const own = options.own;
  if (own) {
    parts.push(`<h2>Your runs (${escape(own.entrant)})</h2>`);
    parts.push(
      '<table id="own"><thead><tr><th>Problem</th><th>Seed</th><th>State</th><th>Evaluations</th><th>Left</th><th>Best so far</th></tr></thead><tbody>',
    );
    for (const p of own.problems)
      for (const run of p.runs)
        parts.push(
          `<tr><td>${escape(p.id)}</td><td class="num">${run.seed}</td><td>${run.state}</td><td class="num">${run.evaluations.toLocaleString('en-US')}</td><td class="num">${run.remaining.toLocaleString('en-US')}</td><td>${escape(run.best ? runScoreText(run.best) : '–')}</td></tr>`,
        );
    parts.push('</tbody></table>');
  }
  parts.push('</body></html>');
  return parts.join('\n');
}
