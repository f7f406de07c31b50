import { defineStore } from 'pinia';
import { computed, nextTick, ref, shallowRef, watch } from 'vue';
import type { DiceEvaluation } from '../../src-shared/api.ts';
import {
  ConfigError,
  DEFAULT_ALPHA,
  DEFAULT_BETA,
  DEFAULT_GAMMA,
  DEFAULT_LOWER,
  DEFAULT_N,
  DEFAULT_UPPER,
  MAX_BLOCK_LENGTH,
  TRACK_OBJECTIVES,
  validateConfig,
  type DiceConfig,
  type TrackName,
} from '../../src-shared/problems/dice/config.ts';
import { parseSequence, SequenceError } from '../../src-shared/problems/dice/sequence.ts';
import { DiceEvaluator } from '../../src-shared/problems/dice/evaluate.ts';
import { DiceState } from '../../src-shared/problems/dice/incremental.ts';
import { useApi } from '../api/index.ts';

export interface ConstraintSetting {
  d: number;
  enabled: boolean;
  /** Percent point p_d. */
  lower: number;
  /** Percent point P_d. */
  upper: number;
}

export interface FieldError {
  field: string;
  rule: string;
}

export interface SequenceProblem {
  message: string;
  /** 0-based position (in the cleaned sequence) of the offending character, when there is one. */
  position?: number;
  /** Set when the only problem is the length: the sequence's own length, to offer "set N". */
  length?: number;
}

/** Spaces, line breaks, commas and quotes are ignored, so a pasted JSON string or wrapped text works. */
export function cleanSequence(text: string): string {
  return text.replace(/[\s"',]/g, '');
}

/**
 * The text with roll p (0-based, counting rolls, not the spaces and quotes cleanSequence drops)
 * set to `face`, keeping the rest of the text as it was typed. Unchanged when there is no roll p.
 */
export function replaceRoll(text: string, p: number, face: number): string {
  if (!/[\s"',]/.test(text)) return p < text.length ? text.slice(0, p) + String(face) + text.slice(p + 1) : text;
  let seen = -1;
  for (let i = 0; i < text.length; i++) {
    if (/[\s"',]/.test(text[i])) continue;
    if (++seen === p) return text.slice(0, i) + String(face) + text.slice(i + 1);
  }
  return text;
}

/** Positions where two strings of one length differ, up to `limit` of them (then it stops counting). */
export function differingPositions(a: string, b: string, limit: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < a.length && out.length < limit; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) out.push(i);
  return out;
}

/**
 * Checks a cleaned sequence against N with the evaluator's own parser, characters first (the
 * message names the position), then the length. Null when it can be evaluated.
 */
export function checkSequence(x: string, n: number): SequenceProblem | null {
  if (x === '') return null;
  try {
    parseSequence(x, x.length);
  } catch (e) {
    if (e instanceof SequenceError) return { message: e.message, position: e.position };
    throw e;
  }
  if (x.length !== n) return { message: `the sequence has ${x.length} rolls, but N = ${n}`, length: x.length };
  return null;
}

const defaultConstraints = (): ConstraintSetting[] =>
  Array.from({ length: MAX_BLOCK_LENGTH }, (_, i) => ({ d: i + 1, enabled: true, lower: DEFAULT_LOWER, upper: DEFAULT_UPPER }));

export const AUTO_EVALUATE_DELAY_MS = 120;
export const MAX_UNDO = 50;
/**
 * A sequence at most this many rolls away from the one evaluated (same N and config) is reached
 * by single-roll changes on the renderer's own incremental evaluator, at once: an edit, its
 * undo, a digit typed over another. Anything further goes to the main side, debounced.
 */
export const LOCAL_CHANGE_LIMIT = 64;

/** A second sequence to hold against the one inspected, evaluated under the same bands and groups (its own N). */
export interface Comparison {
  /** Where it came from: "pasted", "before roll 17: 3 → 5", ... */
  label: string;
  x: string;
  evaluation: DiceEvaluation | null;
  config: DiceConfig | null;
  /** Why it could not be evaluated under the current config. */
  error: string | null;
}

/** A sequence "Compare with…" offers: one the undo history holds. */
export interface ComparisonCandidate {
  label: string;
  x: string;
}

/**
 * Where a sequence opened in the evaluator came from (the Pareto explorer, Solve): shown above
 * its numbers while the sequence on screen is that one, or that one with a few rolls edited.
 */
export interface SolutionOrigin {
  /** Where, in words: 'experiment "fronts", instance mo2-n200', 'Solve: nsga2 on mo2, N = 200'. */
  source: string;
  solver: string | null;
  seed: number | null;
  /** The run's id: a stored run's content hash, or an app run's id. */
  run: string | null;
  /** What of the run: "a solution of its final front", "its best solution". */
  what: string | null;
  /** The sequence as it was opened. */
  x: string;
}

/** The origin of the sequence on screen, and how many rolls were edited since it was opened. */
export interface OriginNow extends SolutionOrigin {
  edited: number;
}

/** What the last roll edit did: the numbers before it, shown beside the numbers after. */
export interface LastEdit {
  label: string;
  /** The sequence the edit made (the change is shown while this is the sequence evaluated). */
  x: string;
  objectives: number[];
  satisfied: number;
  feasible: boolean;
}

/** Everything the user edits; undo restores one of these. */
interface Snapshot {
  label: string;
  origin: SolutionOrigin | null;
  sequenceText: string;
  n: number;
  track: TrackName;
  alpha: number[];
  beta: number[];
  gamma: number[];
  constraints: ConstraintSetting[];
  seed: number;
  /** The rolls of sequenceText when they form a sequence (any length), else '': what "Compare with…" offers. */
  rolls: string;
}

/** The dice evaluator: the sequence and config being edited, and the last evaluation. */
export const useDiceStore = defineStore('dice', () => {
  const api = useApi();

  const sequenceText = ref('');
  const n = ref<number>(DEFAULT_N);
  const track = ref<TrackName>('so');
  const alpha = ref<number[]>([...DEFAULT_ALPHA]);
  const beta = ref<number[]>([...DEFAULT_BETA]);
  const gamma = ref<number[]>([...DEFAULT_GAMMA]);
  const constraints = ref<ConstraintSetting[]>(defaultConstraints());
  /** The seed of the next random sequence. */
  const seed = ref<number>(1);
  /** Where the sequence opened last came from (set by whoever opens it, after the sequence). */
  const origin = shallowRef<SolutionOrigin | null>(null);
  /** The last roll edit's numbers before (setRoll). */
  const lastEdit = shallowRef<LastEdit | null>(null);

  // Results are replaced whole, never mutated: shallowRef keeps them out of Vue's deep reactivity.
  const evaluation = shallowRef<DiceEvaluation | null>(null);
  const evaluatedConfig = shallowRef<DiceConfig | null>(null);
  const evaluatedSequence = ref('');
  const serverSequenceProblem = ref<SequenceProblem | null>(null);
  const serverConfigError = ref<FieldError | null>(null);
  const failure = ref<string | null>(null);
  const busy = ref(false);

  const sequence = computed(() => cleanSequence(sequenceText.value));
  const sequenceProblem = computed<SequenceProblem | null>(() => checkSequence(sequence.value, n.value) ?? serverSequenceProblem.value);

  /** A plain (non-reactive) config: it is sent through IPC, which cannot clone Vue proxies. */
  const config = computed<DiceConfig>(() => {
    const enabled = constraints.value.filter((c) => c.enabled);
    return {
      n: n.value,
      alpha: [...alpha.value],
      beta: [...beta.value],
      gamma: [...gamma.value],
      objectives: TRACK_OBJECTIVES[track.value].map((g) => [...g]),
      constraints: enabled.map((c) => c.d),
      lowerBounds: enabled.map((c) => c.lower),
      upperBounds: enabled.map((c) => c.upper),
    };
  });
  const configKey = computed(() => JSON.stringify(config.value));

  const configError = computed<FieldError | null>(() => {
    try {
      validateConfig(config.value);
      return serverConfigError.value;
    } catch (e) {
      if (e instanceof ConfigError) return { field: e.field, rule: e.rule };
      throw e;
    }
  });

  /** The evaluation on screen belongs to another sequence or config than the one being edited. */
  const stale = computed(
    () => evaluation.value !== null && (evaluatedSequence.value !== sequence.value || JSON.stringify(evaluatedConfig.value) !== configKey.value),
  );

  let requestId = 0;
  /** JSON of evaluatedConfig. */
  let evaluatedKey = '';
  /** Calls to the main side awaited (evaluations, current or dropped; random sequences). */
  let evaluating = 0;
  let idleWaiters: (() => void)[] = [];
  /** Resolves once no evaluation is scheduled or awaited: the numbers shown are final for now. */
  function whenIdle(): Promise<void> {
    return new Promise((resolve) => {
      idleWaiters.push(resolve);
      settleIdle();
    });
  }
  function settleIdle(): void {
    if (timer !== undefined || evaluating > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((w) => w());
  }
  async function evaluate(): Promise<void> {
    evaluating++;
    try {
      await evaluateOnce();
    } finally {
      evaluating--;
      settleIdle();
    }
  }
  async function evaluateOnce(): Promise<void> {
    const x = sequence.value;
    const cfg = config.value;
    const token = ++requestId;
    failure.value = null;
    serverSequenceProblem.value = null;
    if (x === '') {
      evaluation.value = null;
      evaluatedSequence.value = '';
      return;
    }
    // Local checks name the problem at once; the last good evaluation stays (dimmed) meanwhile.
    if (checkSequence(x, cfg.n) || configError.value) return;
    busy.value = true;
    try {
      const result = await api.evaluateDice({ x, config: cfg });
      if (token !== requestId) return;
      evaluation.value = result;
      evaluatedConfig.value = cfg;
      evaluatedKey = JSON.stringify(cfg);
      evaluatedSequence.value = x;
      serverConfigError.value = null;
    } catch (e) {
      if (token !== requestId) return;
      const err = e as Error & { position?: number; field?: string; rule?: string };
      if (err.name === 'SequenceError') serverSequenceProblem.value = { message: err.message, position: err.position };
      else if (err.name === 'ConfigError' && err.field) serverConfigError.value = { field: err.field, rule: err.rule ?? err.message };
      else failure.value = err.message;
    } finally {
      if (token === requestId) busy.value = false;
    }
  }

  // --- Undo: every programmatic change (random, clear, reset, set N) is undoable. Typing is
  // left to the text field's own undo.
  const history = shallowRef<Snapshot[]>([]);
  function snapshot(label: string): Snapshot {
    return {
      label,
      origin: origin.value,
      sequenceText: sequenceText.value,
      n: n.value,
      track: track.value,
      alpha: [...alpha.value],
      beta: [...beta.value],
      gamma: [...gamma.value],
      constraints: constraints.value.map((c) => ({ ...c })),
      seed: seed.value,
      rolls: sequence.value !== '' && checkSequence(sequence.value, sequence.value.length) === null ? sequence.value : '',
    };
  }
  function checkpoint(label: string): void {
    history.value = [...history.value, snapshot(label)].slice(-MAX_UNDO);
  }
  const canUndo = computed(() => history.value.length > 0);
  /** What undo would take back, e.g. "random sequence (seed 3)". */
  const undoLabel = computed(() => history.value.at(-1)?.label ?? null);
  function undo(): boolean {
    const last = history.value.at(-1);
    if (!last) return false;
    history.value = history.value.slice(0, -1);
    origin.value = last.origin;
    sequenceText.value = last.sequenceText;
    n.value = last.n;
    track.value = last.track;
    alpha.value = last.alpha;
    beta.value = last.beta;
    gamma.value = last.gamma;
    constraints.value = last.constraints;
    seed.value = last.seed;
    return true;
  }

  /** Replaces the sequence by n uniform rolls from the seed, then moves to the next seed. */
  async function generate(useSeed = seed.value): Promise<void> {
    failure.value = null;
    evaluating++;
    try {
      const x = await api.randomSequence(n.value, useSeed);
      checkpoint(`random sequence (seed ${useSeed})`);
      sequenceText.value = x;
      seed.value = useSeed + 1;
    } catch (e) {
      failure.value = (e as Error).message;
    } finally {
      // The new sequence's watcher (which schedules its evaluation) runs first.
      await nextTick();
      evaluating--;
      settleIdle();
    }
  }

  function clearSequence(): void {
    if (sequenceText.value === '') return;
    checkpoint('clear');
    sequenceText.value = '';
  }

  function adoptSequenceLength(): void {
    if (sequence.value.length === 0 || sequence.value.length === n.value) return;
    checkpoint(`N = ${sequence.value.length}`);
    n.value = sequence.value.length;
  }

  /**
   * After a paste (or a drop) into the sequence field: when the field now holds a whole sequence
   * of another length than N, N follows it (undoable), since a sequence pasted is the one to
   * inspect; while typing, the length passes through every value and N stays ("Set N = length").
   */
  function adoptPastedLength(): boolean {
    const x = sequence.value;
    if (x.length === 0 || x.length === n.value || checkSequence(x, x.length) !== null) return false;
    checkpoint(`N = ${x.length} (the pasted sequence's length)`);
    n.value = x.length;
    return true;
  }

  function resetConfig(): void {
    checkpoint('reset the config');
    n.value = DEFAULT_N;
    track.value = 'so';
    alpha.value = [...DEFAULT_ALPHA];
    beta.value = [...DEFAULT_BETA];
    gamma.value = [...DEFAULT_GAMMA];
    constraints.value = defaultConstraints();
  }

  // --- The inspector's edits: a DiceState in the renderer, built from the evaluation on screen
  // when first needed, moves with single-roll changes in O(1) each, so every number follows an
  // edit at once, with no round trip. Plain object, never reactive: it holds typed arrays.
  let local: { state: DiceState; key: string; x: string } | null = null;
  function editor(): DiceState {
    const cfg = evaluatedConfig.value!;
    const x = evaluatedSequence.value;
    if (!local || local.key !== evaluatedKey || local.x !== x) local = { state: new DiceState(cfg, x), key: evaluatedKey, x };
    return local.state;
  }
  /** Shows the editor's evaluation, and drops any full evaluation pending or in flight. */
  function publish(state: DiceState): void {
    clearTimeout(timer);
    timer = undefined;
    requestId++;
    busy.value = false;
    failure.value = null;
    const x = state.toString();
    evaluation.value = state.evaluation();
    evaluatedSequence.value = x;
    local!.x = x;
  }

  /** Sets roll p (0-based) of the sequence on screen to `face` 1..6, undoable; false when there is nothing to change. */
  function setRoll(p: number, face: number): boolean {
    const x = evaluatedSequence.value;
    if (!evaluation.value || stale.value || !Number.isInteger(p) || p < 0 || p >= x.length) return false;
    if (!Number.isInteger(face) || face < 1 || face > 6 || x.charCodeAt(p) - 48 === face) return false;
    const label = `roll ${p + 1}: ${x[p]} → ${face}`;
    const before = evaluation.value;
    checkpoint(label);
    sequenceText.value = replaceRoll(sequenceText.value, p, face);
    const state = editor();
    state.set(p, face);
    publish(state);
    lastEdit.value = {
      label,
      x: evaluatedSequence.value,
      objectives: [...before.objectives],
      satisfied: before.constraints.filter((g) => g <= 0).length,
      feasible: before.feasible,
    };
    return true;
  }

  /** Reaches the current sequence from the one evaluated by a few single-roll changes, when it can. */
  function applyLocally(): boolean {
    const x = sequence.value;
    const from = evaluatedSequence.value;
    if (!evaluation.value || x.length !== from.length || configKey.value !== evaluatedKey || checkSequence(x, n.value)) return false;
    const changes = differingPositions(from, x, LOCAL_CHANGE_LIMIT + 1);
    if (changes.length > LOCAL_CHANGE_LIMIT) return false;
    const state = editor();
    for (const p of changes) state.set(p, x.charCodeAt(p) - 48);
    publish(state);
    return true;
  }

  // Evaluate shortly after the last edit; a newer request makes older answers stale. What is on
  // screen already needs nothing; a few rolls changed are applied locally at once.
  let timer: ReturnType<typeof setTimeout> | undefined;
  watch([sequence, configKey], () => {
    serverConfigError.value = null;
    serverSequenceProblem.value = null;
    clearTimeout(timer);
    timer = undefined;
    if (evaluation.value && !stale.value) {
      requestId++;
      busy.value = false;
      settleIdle();
      return;
    }
    if (!applyLocally())
      timer = setTimeout(() => {
        timer = undefined;
        void evaluate();
      }, AUTO_EVALUATE_DELAY_MS);
    settleIdle();
  });

  // --- Diff: a second sequence, evaluated here under the current config (at its own N).
  const comparison = shallowRef<Comparison | null>(null);
  function evaluateComparison(label: string, x: string): Comparison {
    const cfg: DiceConfig = { ...config.value, n: x.length };
    try {
      validateConfig(cfg);
      return { label, x, evaluation: new DiceEvaluator(cfg).evaluate(x), config: cfg, error: null };
    } catch (e) {
      if (e instanceof ConfigError) return { label, x, evaluation: null, config: null, error: `${e.field}: ${e.rule}` };
      throw e;
    }
  }
  /**
   * Holds `text` (cleaned as the sequence field is) against the sequence inspected. Returns the
   * problem, naming the position, when it is not a sequence; the comparison stays as it was then.
   */
  function compareWith(text: string, label = 'pasted'): SequenceProblem | null {
    const x = cleanSequence(text);
    if (x === '') return { message: 'the sequence to compare with is empty' };
    const problem = checkSequence(x, x.length);
    if (problem) return problem;
    comparison.value = evaluateComparison(label, x);
    return null;
  }
  function clearComparison(): void {
    comparison.value = null;
  }
  watch(configKey, () => {
    const c = comparison.value;
    if (c) comparison.value = evaluateComparison(c.label, c.x);
  });
  /**
   * Sequences the undo history holds (other than the one on screen), newest first: what was
   * shown before the last edit, before the last solution opened, before a random one, ...
   */
  const comparisonCandidates = computed<ComparisonCandidate[]>(() => {
    const seen = new Set([sequence.value]);
    const out: ComparisonCandidate[] = [];
    for (let k = history.value.length - 1; k >= 0 && out.length < 10; k--) {
      const s = history.value[k];
      const x = s.rolls;
      if (x === '' || seen.has(x)) continue;
      seen.add(x);
      out.push({ label: `before ${s.label}`, x });
    }
    return out;
  });

  const feasibleCount = computed(() => evaluation.value?.constraints.filter((g) => g <= 0).length ?? 0);

  /** The last roll edit, while the evaluation on screen is the one it made. */
  const editShown = computed<LastEdit | null>(() => {
    const e = lastEdit.value;
    return e && evaluation.value && !stale.value && evaluatedSequence.value === e.x ? e : null;
  });

  /**
   * Where the sequence on screen came from: while it is the one opened, or that one with at most
   * half its rolls edited (a sequence of another length, or mostly other rolls, is another one).
   */
  const originNow = computed<OriginNow | null>(() => {
    const o = origin.value;
    const x = sequence.value;
    if (!o || x.length !== o.x.length) return null;
    const edited = differingPositions(o.x, x, Math.floor(x.length / 2) + 1).length;
    return edited > x.length / 2 ? null : { ...o, edited };
  });

  return {
    sequenceText,
    sequence,
    sequenceProblem,
    n,
    track,
    alpha,
    beta,
    gamma,
    constraints,
    seed,
    config,
    configError,
    evaluation,
    evaluatedConfig,
    evaluatedSequence,
    stale,
    failure,
    busy,
    feasibleCount,
    origin,
    originNow,
    editShown,
    canUndo,
    undoLabel,
    evaluate,
    whenIdle,
    generate,
    clearSequence,
    adoptSequenceLength,
    adoptPastedLength,
    resetConfig,
    checkpoint,
    undo,
    setRoll,
    comparison,
    comparisonCandidates,
    compareWith,
    clearComparison,
  };
});
