/**
 * Plain helpers of the Competition view (docs/app.md, "Competition"): the entrants' progress as
 * table rows, the standings' numbers as the CLI's table writes them, a run score in words.
 */
import type { CompetitionOverview, CompetitionProgressCounts, CompetitionStandingLine, CompetitionStandings } from '../../../src-shared/api.ts';
import type { RunScore } from '../../../src-shared/competition/score.ts';

/** One entrant's row: its progress on each track (in the definition's order) and over all. */
export interface EntrantRow {
  name: string;
  kind: string;
  what: string | null;
  tracks: (CompetitionProgressCounts & { track: string })[];
  all: CompetitionProgressCounts;
}

export function entrantRows(o: CompetitionOverview): EntrantRow[] {
  return o.entrants.map((e) => {
    const tracks = o.definition.tracks.map((track) => {
      const p = o.progress.find((x) => x.entrant === e.name && x.track === track);
      return { track, total: p?.total ?? 0, done: p?.done ?? 0, failed: p?.failed ?? 0, running: p?.running ?? 0, left: p?.left ?? 0 };
    });
    const all = { total: 0, done: 0, failed: 0, running: 0, left: 0 };
    for (const t of tracks) for (const k of Object.keys(all) as (keyof CompetitionProgressCounts)[]) all[k] += t[k];
    return { name: e.name, kind: e.kind, what: e.what, tracks, all };
  });
}

/** The share of runs that have ended (done or failed), 0..1. */
export function endedShare(c: CompetitionProgressCounts): number {
  return c.total ? (c.done + c.failed) / c.total : 0;
}

/** "6/6 done", "3/6 done · 1 failed · 2 running". */
export function progressText(c: CompetitionProgressCounts): string {
  return [`${c.done}/${c.total} done`, c.failed ? `${c.failed} failed` : '', c.running ? `${c.running} running` : ''].filter(Boolean).join(' · ');
}

/** A rank or an average rank as the CLI's standings table writes it (three decimals). */
export function formatRank(r: number | undefined): string {
  return r === undefined ? '–' : r.toFixed(3);
}

/** A position: whole, or a shared one (2.5). */
export function formatPosition(r: number): string {
  return Number.isInteger(r) ? String(r) : r.toFixed(1);
}

/** A run's score in a few words: "f 12.5 at 180", "infeasible (violation 0.31)", "HV 0.812 at 240", "nothing". */
export function scoreText(s: RunScore | null): string {
  if (!s) return 'nothing';
  const at = s.at === null ? '' : ` at ${s.at}`;
  if (s.kind === 'so') {
    if (s.f !== null) return `f ${significant(s.f)}${at}`;
    return s.violation === null ? 'nothing' : `infeasible (violation ${significant(s.violation)})`;
  }
  return `HV ${significant(s.hv)}${at}`;
}

function significant(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(4)));
}

/** The standings' lines with each track's average rank in the definition's order. */
export function standingsRows(s: CompetitionStandings): (CompetitionStandingLine & { trackRanks: (number | undefined)[] })[] {
  return s.standings.map((line) => ({ ...line, trackRanks: s.definition.tracks.map((t) => line.tracks[t]) }));
}

/** The Friedman line under the standings, or why there is none. */
export function friedmanText(s: CompetitionStandings): string {
  const f = s.friedman;
  if (!f) return 'Friedman: needs at least 2 problems and 2 entrants.';
  const id =
    f.imanDavenport === null || !Number.isFinite(f.imanDavenport) ? '' : `; Iman-Davenport F = ${f.imanDavenport.toFixed(3)}, p = ${pText(f.imanDavenportP)}`;
  return `Friedman over ${f.problems} problems and ${f.entrants} entrants: χ² = ${f.chiSquare.toFixed(3)}, p = ${pText(f.p)}${id}.`;
}

export function pText(p: number | null): string {
  if (p === null) return '–';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}
