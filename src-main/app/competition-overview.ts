/**
 * The app's view of a competition file (the API's getCompetition and getCompetitionStandings;
 * docs/app.md, "Competition"): its problems by id, its entrants, how far each entrant's runs
 * have got on each track, and the standings, which are `saikoro competition standings --json`
 * exactly (buildCompetitionReport, src-main/report/competition.ts, builds both).
 *
 * Hidden instances: the overview is built field by field from the competition's problems and
 * entrants, never from a config, so no band, weight or normalisation of a problem can reach it;
 * the standings carry what the CLI prints, which docs/competition.md ("Hidden until revealed")
 * keeps free of them.
 */
import type {
  CompetitionEntrant,
  CompetitionOverview,
  CompetitionProgress,
  CompetitionProgressCounts,
  CompetitionStandings,
} from '../../src-shared/projects/competition-api.ts';
import type { ExperimentSession } from '../../src-shared/projects/project-api.ts';
import type { Entrant } from '../../src-shared/competition/competition.ts';
import type { TrackName } from '../../src-shared/problems/dice/config.ts';
import { expandGrid } from '../../src-shared/experiments/grid.ts';
import type { Project } from '../project/store.ts';
import { buildCompetitionReport, type CompetitionReport } from '../report/competition.ts';
import { competitionOf } from './competition.ts';
import { sandboxRefusal } from './competition-run.ts';

/** An entrant as the view lists it. */
export function entrantSummary(entrant: Entrant): CompetitionEntrant {
  const { entry } = entrant;
  const kind = entry.kind === 'builtin' ? 'built-in' : entry.kind;
  const what = entry.kind === 'builtin' ? entry.solver : entry.kind === 'program' ? entry.command.join(' ') : null;
  return { name: entrant.name, kind, what, createdAt: entrant.createdAt };
}

function zero(): CompetitionProgressCounts {
  return { total: 0, done: 0, failed: 0, running: 0, left: 0 };
}

/**
 * The competition of an open project, or null when the project is not a competition file.
 * `display`: the file as the app shows it; `running`: content id -> API run id of the runs in
 * flight in this app; `sessions`: the newest session of each experiment, by name;
 * `sandbox`: the sandbox's check (injected for tests), asked only when an entrant is a program.
 */
export function competitionOverview(
  project: Project,
  display: string,
  running: ReadonlyMap<string, string>,
  sessions: ReadonlyMap<string, ExperimentSession>,
  sandbox: () => string | null = sandboxRefusal,
): CompetitionOverview | null {
  const competition = project.competition();
  if (!competition) return null;
  const { definition } = competition;
  const entrants = project.entrants();
  const specs = new Map(project.experiments().map((e) => [e.name, e.spec]));
  const statuses = project.runStatuses();
  const counts = new Map<string, CompetitionProgressCounts>();
  const key = (entrant: string, track: string) => `${track}\u0000${entrant}`;
  for (const track of definition.tracks) for (const e of entrants) counts.set(key(e.name, track), zero());
  for (const track of definition.tracks) {
    const spec = specs.get(track);
    if (!spec) continue;
    for (const run of expandGrid(spec)) {
      const c = counts.get(key(run.label, track));
      if (!c) continue;
      c.total++;
      const status = statuses.get(run.id);
      if (status === 'done') c.done++;
      else if (running.has(run.id)) c.running++;
      else if (status === 'failed') c.failed++;
      else c.left++;
    }
  }
  const progress: CompetitionProgress[] = [];
  const totals = zero();
  for (const e of entrants)
    for (const track of definition.tracks) {
      const c = counts.get(key(e.name, track))!;
      progress.push({ entrant: e.name, track, ...c });
      for (const k of Object.keys(totals) as (keyof CompetitionProgressCounts)[]) totals[k] += c[k];
    }
  const trackSessions: Partial<Record<TrackName, ExperimentSession>> = {};
  for (const track of definition.tracks) {
    const s = sessions.get(track);
    if (s) trackSessions[track] = s;
  }
  const programs = entrants.filter((e) => e.entry.kind === 'program');
  return {
    file: display,
    definition: structuredClone(definition),
    revealed: competition.secret !== null,
    revealedAt: competition.revealedAt,
    createdAt: competition.createdAt,
    problems: competition.problems.map(({ id, track, n, instance, hidden }) => ({ id, track, n, instance, hidden })),
    entrants: entrants.map(entrantSummary),
    progress,
    totals,
    sandboxRefusal: programs.length ? programsRefusal(programs, sandbox) : null,
    readOnly: project.readOnly,
    sessions: trackSessions,
  };
}

/** Why the program entrants cannot run here (the words `competition run` uses), or null. */
export function programsRefusal(programs: readonly Entrant[], sandbox: () => string | null = sandboxRefusal): string | null {
  const refusal = sandbox();
  return refusal === null ? null : `${programs.length} program entrant(s) (${programs.map((e) => e.name).join(', ')}) cannot run here: ${refusal}`;
}

/**
 * The standings of `saikoro competition standings FILE --json` on the same file: the same
 * report, so the same numbers (a test compares them). CompetitionError when the project is not
 * a competition file.
 */
export function competitionStandings(project: Project): CompetitionStandings {
  const report: CompetitionReport = buildCompetitionReport(project, competitionOf(project));
  // The report's type is the API's (a compile-time check that the two stay one shape).
  const answer: CompetitionStandings = report;
  // The JSON the CLI prints: a statistic that is infinite (Iman-Davenport when the entrants'
  // ranks never tie) is null there, and an answer carries no Infinity (src-shared/api.ts).
  return JSON.parse(JSON.stringify(answer)) as CompetitionStandings;
}
