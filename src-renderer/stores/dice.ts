import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
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

/** Everything the user edits; undo restores one of these. */
interface Snapshot {
  label: string;
  sequenceText: string;
  n: number;
  track: TrackName;
  alpha: number[];
  beta: number[];
  gamma: number[];
  constraints: ConstraintSetting[];
  seed: number;
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
  async function evaluate(): Promise<void> {
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
      sequenceText: sequenceText.value,
      n: n.value,
      track: track.value,
      alpha: [...alpha.value],
      beta: [...beta.value],
      gamma: [...gamma.value],
      constraints: constraints.value.map((c) => ({ ...c })),
      seed: seed.value,
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
    try {
      const x = await api.randomSequence(n.value, useSeed);
      checkpoint(`random sequence (seed ${useSeed})`);
      sequenceText.value = x;
      seed.value = useSeed + 1;
    } catch (e) {
      failure.value = (e as Error).message;
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

  function resetConfig(): void {
    checkpoint('reset the config');
    n.value = DEFAULT_N;
    track.value = 'so';
    alpha.value = [...DEFAULT_ALPHA];
    beta.value = [...DEFAULT_BETA];
    gamma.value = [...DEFAULT_GAMMA];
    constraints.value = defaultConstraints();
  }

  // Evaluate shortly after the last edit; a newer request makes older answers stale.
  let timer: ReturnType<typeof setTimeout> | undefined;
  watch([sequence, configKey], () => {
    serverConfigError.value = null;
    serverSequenceProblem.value = null;
    clearTimeout(timer);
    timer = setTimeout(() => void evaluate(), AUTO_EVALUATE_DELAY_MS);
  });

  const feasibleCount = computed(() => evaluation.value?.constraints.filter((g) => g <= 0).length ?? 0);

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
    canUndo,
    undoLabel,
    evaluate,
    generate,
    clearSequence,
    adoptSequenceLength,
    resetConfig,
    checkpoint,
    undo,
  };
});
