/**
 * The N-Queens lab's logic, kept out of the components so it can be tested without a DOM:
 * parameter presets and the form, a step-by-step player over the shared NeuralNet with its
 * history, and the board's cell states. The sweep is in sweep.ts, the charts in charts.ts.
 */
import {
  defaultNeuralParams,
  NeuralNet,
  slidesNeuralParams,
  validateNeuralParams,
  type NeuralParams,
  type NeuralSnapshot,
} from '../../../src-shared/problems/nqueens/neural.ts';

/** The animated board and its history are for N up to this (a step costs N*N updates). */
export const MAX_LAB_N = 200;

export type PresetName = 'default' | 'slides';

export const PRESETS: Record<PresetName, { title: string; make: (n: number) => NeuralParams }> = {
  default: { title: 'Lab default (sequential, A = B = 1, kick on repeat)', make: defaultNeuralParams },
  slides: { title: 'Slides (synchronous, A = B = 1 / 0.8 / 0.6 / 0.5 by N, kick every 50)', make: slidesNeuralParams },
};

/** The form's values: what the user edits, before validation. */
export interface LabForm {
  n: number;
  seed: number;
  A: number;
  B: number;
  C: number;
  kickValue: number;
  /** 'auto' or a number of steps as text (0 = never). */
  kickEvery: string;
  kickLength: number;
  threshold: number;
  update: 'sync' | 'seq';
  clamp: number;
  maxSteps: number;
}

export function formFromParams(p: NeuralParams, seed: number): LabForm {
  return {
    n: p.n,
    seed,
    A: p.A,
    B: p.B,
    C: p.C,
    kickValue: p.kick.value,
    kickEvery: String(p.kick.every),
    kickLength: p.kick.length,
    threshold: p.threshold,
    update: p.update,
    clamp: p.clamp,
    maxSteps: p.maxSteps,
  };
}

/** The preset's parameters for the form's N, keeping the form's seed. */
export function presetForm(preset: PresetName, n: number, seed: number): LabForm {
  return formFromParams(PRESETS[preset].make(n), seed);
}

/** The form's network parameters: everything but N and the seed (what a preset sets). */
export const PARAM_FIELDS = [
  'A',
  'B',
  'C',
  'kickValue',
  'kickEvery',
  'kickLength',
  'threshold',
  'update',
  'clamp',
  'maxSteps',
] as const satisfies readonly (keyof LabForm)[];

/** The parameters in `form` that differ from `applied` (the preset's values when last loaded): the user's own edits. */
export function editedFields(form: LabForm, applied: LabForm): (typeof PARAM_FIELDS)[number][] {
  return PARAM_FIELDS.filter((k) => form[k] !== applied[k]);
}

export type FormResult = { ok: true; params: NeuralParams; seed: number } | { ok: false; field: keyof LabForm | 'kick'; message: string };

/** Validates the form; errors name the field, as the shared validator words them. */
export function paramsFromForm(f: LabForm): FormResult {
  if (!Number.isInteger(f.n) || f.n < 4 || f.n > MAX_LAB_N)
    return { ok: false, field: 'n', message: `N must be an integer from 4 to ${MAX_LAB_N} here (the sweep and the CLI go further)` };
  if (!Number.isSafeInteger(f.seed)) return { ok: false, field: 'seed', message: 'the seed must be an integer' };
  const every = f.kickEvery.trim() === 'auto' ? 'auto' : Number(f.kickEvery);
  const base = defaultNeuralParams(f.n);
  const params: NeuralParams = {
    ...base,
    A: f.A,
    B: f.B,
    C: f.C,
    kick: { value: f.kickValue, every, length: f.kickLength },
    threshold: f.threshold,
    update: f.update,
    clamp: f.clamp,
    maxSteps: f.maxSteps,
  };
  try {
    validateNeuralParams(params);
  } catch (e) {
    const message = (e as Error).message;
    const key = message.split(':')[0];
    const field =
      ({ 'kick.value': 'kickValue', 'kick.every': 'kickEvery', 'kick.length': 'kickLength' } as Record<string, keyof LabForm>)[key] ?? (key as keyof LabForm);
    return { ok: false, field, message: message.slice(key.length + 2) };
  }
  return { ok: true, params, seed: f.seed };
}

// ---------------------------------------------------------------------------------------------
// The player

export interface History {
  step: number[];
  queens: number[];
  conflicts: number[];
  energy: number[];
  kick: boolean[];
}

/** Steps a NeuralNet and keeps one history row per step (plain arrays: never make them reactive). */
export class NeuralPlayer {
  readonly net: NeuralNet;
  readonly history: History = { step: [], queens: [], conflicts: [], energy: [], kick: [] };

  constructor(
    readonly params: NeuralParams,
    readonly seed: number,
  ) {
    this.net = new NeuralNet(params, seed);
    this.record(this.net.state);
  }

  get snapshot(): NeuralSnapshot {
    return this.net.state;
  }

  /** Finished: solved, or at the step limit. */
  get finished(): boolean {
    return this.net.solved || this.net.stepCount >= this.params.maxSteps;
  }

  /** Up to `k` steps (stops when finished); returns the last snapshot. */
  advance(k = 1): NeuralSnapshot {
    for (let i = 0; i < k && !this.finished; i++) this.record(this.net.step());
    return this.net.state;
  }

  private record(s: NeuralSnapshot): void {
    const h = this.history;
    h.step.push(s.step);
    h.queens.push(s.queens);
    h.conflicts.push(s.conflicts);
    h.energy.push(s.energy);
    h.kick.push(s.kickActive);
  }
}

/** Cell codes for drawing. */
export const CELL = { empty: 0, queen: 1, conflict: 2 } as const;

/**
 * Per square: 0 lowered, 1 raised and unattacked, 2 raised and sharing a row, column or diagonal
 * with another raised neuron (a queen in conflict). Uses the network's live counters.
 */
export function cellStates(net: NeuralNet, out: Uint8Array = new Uint8Array(net.n * net.n)): Uint8Array {
  const { n, V, rowCount, colCount, diagCount, antiCount } = net;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = r * n + c;
      if (!V[i]) out[i] = CELL.empty;
      else out[i] = rowCount[r] > 1 || colCount[c] > 1 || diagCount[r - c + n - 1] > 1 || antiCount[r + c] > 1 ? CELL.conflict : CELL.queen;
    }
  }
  return out;
}

/** Spans [first, last] of consecutive kicked steps, for shading. */
export function kickSpans(h: History): [number, number][] {
  const spans: [number, number][] = [];
  for (let i = 0; i < h.kick.length; i++) {
    if (!h.kick[i]) continue;
    const last = spans[spans.length - 1];
    if (last && last[1] === h.step[i] - 1) last[1] = h.step[i];
    else spans.push([h.step[i], h.step[i]]);
  }
  return spans;
}
