/**
 * The Solve view's form (track, N, solver, parameters, budget, seed) and which dice run it
 * shows: the one it started last, or, after a reload, the newest dice run the main side still
 * has. The runs themselves live in the runs store.
 */
import { defineStore } from 'pinia';
import { computed, markRaw, ref, shallowRef, watch } from 'vue';
import type { DiceRunStarted, ParamValue, SolverDescriptor, StartDiceRun } from '../../src-shared/api.ts';
import { defaultProgramName, splitCommandLine } from '../../src-shared/solvers/program/command-line.ts';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';
import { DEFAULT_N, TRACK_OBJECTIVES, type TrackName } from '../../src-shared/problems/dice/config.ts';
import { handlesObjectives } from '../../src-shared/solvers/objective-support.ts';
import { useApi } from '../api/index.ts';
import { useRunsStore, type LiveRun } from './runs.ts';

export const useSolveStore = defineStore('solve', () => {
  const api = useApi();
  const runs = useRunsStore();

  const solvers = shallowRef<SolverDescriptor[]>([]);
  const track = ref<TrackName>('so');
  const n = ref<number>(DEFAULT_N);
  /** '' = the default solver for the track. */
  const solver = ref('');
  const params = ref<Record<string, ParamValue>>({});
  const evaluations = ref(20_000);
  const seed = ref(1);
  /** Single objective: run the whole budget instead of stopping at f = 0. */
  const wholeBudget = ref(false);
  /**
   * The solver is a program of the user's (docs/external-solvers.md): its command line as typed
   * (split into words as a shell would, no shell runs), its name (by default its script's file
   * name), its working folder, and whether it runs blind (no bands in its first line).
   */
  const useProgram = ref(false);
  const programCommand = ref('');
  const programName = ref('');
  const programCwd = ref('');
  const programBlind = ref(false);

  /** The run shown: an id, null (nothing, e.g. after a failed start), or undefined (the newest dice run). */
  const selected = ref<string | null | undefined>(undefined);
  const starting = ref(false);
  /** Why the last start failed (the API's message names the field). */
  const startError = ref<string | null>(null);
  /** The form field the last refusal is about ('n', 'solver', 'params.<name>', ...), shown there; null when it is about none. */
  const startErrorField = ref<string | null>(null);
  const solversError = ref<string | null>(null);

  const objectiveCount = computed(() => TRACK_OBJECTIVES[track.value].length);
  const compatibleSolvers = computed(() => solvers.value.filter((s) => handlesObjectives(s.objectives, objectiveCount.value)));
  const selectedSolver = computed(() => (useProgram.value ? null : (solvers.value.find((s) => s.name === solver.value) ?? null)));
  /** The program's words, or why the command line cannot be split. */
  const programArgv = computed<{ argv: string[]; error: null } | { argv: null; error: string }>(() => {
    try {
      return { argv: splitCommandLine(programCommand.value), error: null };
    } catch (e) {
      return { argv: null, error: (e as Error).message };
    }
  });
  const programDefaultName = computed(() => (programArgv.value.argv ? defaultProgramName(programArgv.value.argv) : 'program'));

  /** The dice runs of this view: started here or in another tab, not an experiment session's (those are the monitor's). */
  const diceRuns = computed(() => runs.ofKind('dice').filter((r) => !(r.started.kind === 'dice' && r.started.experiment)));
  const current = computed<LiveRun | null>(() => (selected.value === undefined ? (diceRuns.value[0] ?? null) : runs.get(selected.value)));
  const started = computed(() => (current.value?.started ?? null) as DiceRunStarted | null);
  const running = computed(
    () =>
      starting.value ||
      (current.value !== null && (current.value.status === 'queued' || current.value.status === 'running' || current.value.status === 'paused')),
  );

  // A page that opens on a run it did not start (after a reload) shows that run's settings in
  // the form once, so what the form says and what runs agree; later runs leave the form alone.
  let formFollowsRun = true;
  watch(
    started,
    (s) => {
      if (!s || !formFollowsRun || selected.value !== undefined) return;
      formFollowsRun = false;
      if (s.track) track.value = s.track;
      n.value = s.n;
      useProgram.value = s.program !== undefined;
      solver.value = s.program ? '' : s.solver;
      if (s.program) {
        programCommand.value = formatCommand(s.program.command);
        programName.value = s.solver;
        programCwd.value = s.program.cwd ?? '';
        programBlind.value = s.program.blind === true;
      }
      params.value = {};
      evaluations.value = s.evaluations;
      seed.value = s.seed;
      wholeBudget.value = s.objectiveCount === 1 && s.target === null;
    },
    { immediate: true },
  );

  async function loadSolvers(): Promise<void> {
    if (solvers.value.length) return;
    try {
      solvers.value = markRaw(await api.listSolvers());
    } catch (e) {
      solversError.value = `could not list the solvers: ${(e as Error).message}`;
    }
  }

  function selectSolver(name: string): void {
    useProgram.value = false;
    solver.value = name;
    params.value = {};
  }

  function selectProgram(): void {
    useProgram.value = true;
    params.value = {};
  }

  /** What the form asks to run: a registered solver and its parameters, or the program. */
  function solverRequest(): Pick<StartDiceRun, 'solver' | 'params' | 'program'> {
    if (!useProgram.value) {
      const given = Object.fromEntries(Object.entries(params.value).filter(([, v]) => v !== '' && v !== null && v !== undefined));
      return { ...(solver.value ? { solver: solver.value } : {}), params: given };
    }
    // An empty or unsplittable command goes as typed words, so the main side's refusal names it.
    const argv = programArgv.value.argv ?? [programCommand.value];
    const cwd = programCwd.value.trim();
    return {
      solver: programName.value.trim() || programDefaultName.value,
      program: { command: argv, ...(cwd ? { cwd } : {}), ...(programBlind.value ? { blind: true } : {}) },
    };
  }

  async function start(): Promise<void> {
    if (running.value) return;
    formFollowsRun = false;
    starting.value = true;
    startError.value = null;
    startErrorField.value = null;
    try {
      const s = await runs.start({
        kind: 'dice',
        config: { n: n.value, objectives: TRACK_OBJECTIVES[track.value].map((g) => [...g]) },
        ...solverRequest(),
        seed: seed.value,
        evaluations: evaluations.value,
        ...(wholeBudget.value && objectiveCount.value === 1 ? { wholeBudget: true } : {}),
      });
      selected.value = s.runId;
    } catch (e) {
      // Nothing runs: show the reason, not the previous run's labels.
      selected.value = null;
      startError.value = (e as Error).message;
      startErrorField.value = formFieldOf(e as Error & { field?: string });
    } finally {
      starting.value = false;
    }
  }

  // Editing the form after a refusal: the message at the field has been read.
  watch([track, n, solver, params, evaluations, seed, wholeBudget, useProgram, programCommand, programName, programCwd, programBlind], () => {
    if (startErrorField.value === null) return;
    startErrorField.value = null;
    startError.value = null;
  });

  async function togglePause(): Promise<void> {
    const run = current.value;
    if (run && (run.status === 'running' || run.status === 'paused' || run.status === 'queued'))
      await runs.pause(run.runId, run.status !== 'paused' && !run.snapshot?.paused);
  }

  async function cancel(): Promise<void> {
    const run = current.value;
    if (run && running.value) await runs.cancel(run.runId);
  }

  return {
    solvers,
    track,
    n,
    solver,
    params,
    evaluations,
    seed,
    wholeBudget,
    useProgram,
    programCommand,
    programName,
    programCwd,
    programBlind,
    programArgv,
    programDefaultName,
    selected,
    starting,
    startError,
    startErrorField,
    solversError,
    objectiveCount,
    compatibleSolvers,
    selectedSolver,
    diceRuns,
    current,
    started,
    running,
    loadSolvers,
    selectSolver,
    selectProgram,
    start,
    togglePause,
    cancel,
  };
});

/**
 * The Solve form's field a refused start is about: the API's field (n, seed, evaluations), the
 * solver for an unknown or unfitting solver, the parameter a ParamError names.
 */
export function formFieldOf(error: { name?: string; message: string; field?: string }): string | null {
  const byField: Record<string, string> = {
    n: 'n',
    'config.n': 'n',
    seed: 'seed',
    evaluations: 'evaluations',
    wholeBudget: 'wholeBudget',
    solver: 'solver',
    // A program the app will not run (ProgramNotAllowedError) names "command".
    command: 'program.command',
    program: 'program.command',
    'program.command': 'program.command',
    'program.cwd': 'program.cwd',
  };
  if (error.field !== undefined) return byField[error.field] ?? (error.field.startsWith('program.command[') ? 'program.command' : null);
  const param = /^solver \S+: parameter (\S+) /.exec(error.message);
  if (param) return `params.${param[1]}`;
  if (error.name === 'SolverError' || /^(unknown solver|solver \S+ is )/.test(error.message)) return 'solver';
  return null;
}
