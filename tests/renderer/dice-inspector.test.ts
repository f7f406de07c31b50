// @vitest-environment happy-dom
// The solution inspector (the Dice evaluator view) against the real evaluator: edits go through
// the renderer's incremental state and equal a fresh full evaluation after every one, with no
// call to the main side; undo gives back exactly the numbers before; the panels show what the
// evaluator computes (pattern occurrences, transitions, face counts, objective shares,
// constraint status, the diff of two sequences); the rolls are driven by mouse and keyboard.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia, setActivePinia } from 'pinia';
import DiceView from '../../src-renderer/views/dice/DiceView.vue';
import { provideApi } from '../../src-renderer/api/index.ts';
import { useDiceStore } from '../../src-renderer/stores/dice.ts';
import { apiFromBridge, type SaikoroBridge } from '../../src-shared/api.ts';
import { createApi } from '../../src-main/api/implementation.ts';
import { dispatchCall } from '../../src-main/api/dispatch.ts';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import { diceConfig, type DiceConfig } from '../../src-shared/problems/dice/config.ts';
import { Random } from '../../src-shared/random.ts';
import { formatNumber } from '../../src-renderer/logic/dice/labels.ts';

const SAMPLE = '31552264665432613134314646226624645162511461153216';
const randomSequence = (rng: Random, n: number) => Array.from({ length: n }, () => String(rng.int(1, 6))).join('');

let app: VueApp;
let store: ReturnType<typeof useDiceStore>;
let calls: string[];
/** While set, the main side holds its answers to evaluateDice until the test releases them (a request in flight). */
let held: { promise: Promise<void>; release: () => void } | null = null;
/** Called at the next evaluateDice request. */
let requested: (() => void)[] = [];
function hold() {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  held = { promise, release };
  return held;
}
const nextRequest = () => new Promise<void>((r) => requested.push(r));

beforeEach(async () => {
  document.body.innerHTML = '<div id="app"></div>';
  const impl = createApi({ name: 'saikoro', version: '0.0.0-test', platform: 'test', runtime: 'web' });
  calls = [];
  held = null;
  requested = [];
  const bridge = {
    evaluateDice: async (...args: unknown[]) => {
      calls.push('evaluateDice');
      requested.splice(0).forEach((r) => r());
      const answer = dispatchCall(impl, 'evaluateDice', args);
      if (held) await held.promise;
      return answer;
    },
    randomSequence: (...args: unknown[]) => dispatchCall(impl, 'randomSequence', args),
  } as unknown as SaikoroBridge;
  app = createApp(DiceView);
  provideApi(app, apiFromBridge(bridge));
  const pinia = createPinia();
  app.use(pinia);
  setActivePinia(pinia);
  app.mount('#app');
  store = app.runWithContext(() => useDiceStore());
});
afterEach(() => app.unmount());

/** Waits until the store has no evaluation scheduled or awaited (its watchers have run first), and the page shows it. */
const settle = async () => {
  await nextTick();
  await store.whenIdle();
  await nextTick();
};
const el = (testid: string) => document.querySelector<HTMLElement>(`[data-testid="${testid}"]`);
const text = (testid: string) => el(testid)?.textContent?.replace(/\s+/g, ' ').trim() ?? null;
const key = (target: EventTarget, k: string, init: KeyboardEventInit = {}) => {
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(e);
  return e;
};
/** The numbers on screen, as the store holds them. */
const numbers = () => {
  const e = store.evaluation!;
  return { features: e.features, errors: e.errors, objectives: e.objectives, chi: e.chi, constraints: e.constraints, feasible: e.feasible };
};
const fresh = (x: string, config: DiceConfig) => {
  const e = evaluateDice(x, config);
  return { features: e.features, errors: e.errors, objectives: e.objectives, chi: e.chi, constraints: e.constraints, feasible: e.feasible };
};

async function open(x: string, setup: () => void = () => undefined) {
  setup();
  store.n = x.length;
  store.sequenceText = x;
  await settle();
  expect(store.evaluatedSequence).toBe(x);
}

describe('editing through the incremental evaluator', () => {
  it('after each of 400 random edits the numbers equal a fresh evaluateDice of the edited sequence, with no call to the main side', async () => {
    const rng = Random.fromSeed(17);
    const cases: Array<{ n: number; setup: () => void }> = [
      { n: 50, setup: () => (store.track = 'so') },
      { n: 840, setup: () => (store.track = 'mo3') },
      {
        n: 211,
        setup: () => {
          store.track = 'mo7';
          store.constraints.forEach((c, k) => {
            c.enabled = k % 3 !== 1;
            c.lower = k % 2 ? 0 : 0.3;
            c.upper = k % 4 ? 1 : 0.7;
          });
        },
      },
    ];
    for (const { n, setup } of cases) {
      let x = randomSequence(rng, n);
      await open(x, setup);
      const config = store.config;
      const before = calls.length;
      for (let t = 0; t < 400 / cases.length; t++) {
        const p = rng.int(0, n - 1);
        let face = rng.int(1, 6);
        if (String(face) === x[p]) face = (face % 6) + 1;
        expect(store.setRoll(p, face)).toBe(true);
        x = x.slice(0, p) + face + x.slice(p + 1);
        // At once: no await between the edit and the check.
        expect(store.evaluatedSequence).toBe(x);
        expect(store.sequence).toBe(x);
        expect(numbers(), `N = ${n}, edit ${t}: roll ${p + 1} -> ${face}`).toEqual(fresh(x, config));
      }
      await settle();
      expect(calls.length).toBe(before);
      expect(store.stale).toBe(false);
    }
  });

  it('undo gives back exactly the numbers shown before each edit, at once and without the main side', async () => {
    const rng = Random.fromSeed(5);
    await open(randomSequence(rng, 300), () => (store.track = 'mo5'));
    const shown: Array<{ x: string; numbers: ReturnType<typeof numbers> }> = [];
    for (let t = 0; t < 30; t++) {
      shown.push({ x: store.evaluatedSequence, numbers: numbers() });
      const p = rng.int(0, 299);
      store.setRoll(p, ((store.evaluatedSequence.charCodeAt(p) - 48) % 6) + 1);
    }
    const before = calls.length;
    for (let t = shown.length - 1; t >= 0; t--) {
      expect(store.undoLabel).toMatch(/^roll \d+: [1-6] → [1-6]$/);
      expect(store.undo()).toBe(true);
      await nextTick();
      expect(store.evaluatedSequence).toBe(shown[t].x);
      expect(numbers()).toEqual(shown[t].numbers);
    }
    expect(calls.length).toBe(before);
  });

  it('keeps the text as typed (spaces, quotes), refuses what is not an edit, and a digit typed over another is applied locally', async () => {
    store.sequenceText = `"${SAMPLE.slice(0, 25)} ${SAMPLE.slice(25)}"`;
    await settle();
    expect(store.setRoll(30, 6)).toBe(true);
    expect(store.sequenceText).toBe(`"${SAMPLE.slice(0, 25)} ${SAMPLE.slice(25, 30)}6${SAMPLE.slice(31)}"`);
    expect(store.setRoll(30, 6)).toBe(false); // already 6
    expect(store.setRoll(50, 1)).toBe(false); // no roll 51
    expect(store.setRoll(0, 7)).toBe(false);
    const before = calls.length;
    store.sequenceText = store.sequenceText.replace('"3155', '"3255');
    await nextTick();
    expect(store.evaluatedSequence).toBe(store.sequence);
    expect(numbers()).toEqual(fresh(store.sequence, store.config));
    await settle();
    expect(calls.length).toBe(before);
  });

  it('an edit drops a full evaluation still in flight, so an older answer never replaces it', async () => {
    const rng = Random.fromSeed(8);
    const x = randomSequence(rng, 500);
    await open(x);
    const gate = hold();
    const sent = nextRequest();
    store.sequenceText = randomSequence(rng, 500); // hundreds of rolls away: the main side evaluates it, and holds the answer
    await sent; // the request is on its way
    expect(store.busy).toBe(true);
    store.sequenceText = x; // back to what is on screen
    expect(store.setRoll(0, x[0] === '6' ? 1 : 6)).toBe(true);
    const edited = store.evaluatedSequence;
    gate.release(); // the old answer comes back now
    await settle();
    expect(store.evaluatedSequence).toBe(edited);
    expect(store.busy).toBe(false);
    expect(numbers()).toEqual(fresh(edited, store.config));
  });
});

describe('the panels show what the evaluator computes', () => {
  it('picking a pattern feature highlights exactly as many occurrences as its value', async () => {
    await open(SAMPLE);
    for (let f = 6; f <= 15; f++) {
      el(`pick-F${f}`)!.click();
      await nextTick();
      expect(text('occurrence-count'), `F${f}`).toBe(String(store.evaluation!.features[f - 1]));
      expect(el(`pick-F${f}`)!.getAttribute('aria-pressed')).toBe('true');
    }
    // F7 of the sample: 55 at 3, 22 at 5, 66 at 9, 22 at 27, 66 at 29, 11 at 40, 11 at 44: 14 faces make the patterns.
    el('pick-F7')!.click();
    await nextTick();
    expect(text('picked-info')).toContain('Starting at roll 3, 5, 9, 27, 29, 40, 44.');
    expect(document.querySelectorAll('[data-testid="sequence-grid"] .line .die.key')).toHaveLength(14);
    // F3: its window, rolls 12..26, and its face counts.
    el('pick-F3')!.click();
    await nextTick();
    expect(text('picked-info')).toContain('rolls 12–26 (15 rolls)');
    expect(document.querySelectorAll('[data-testid="sequence-grid"] .line .die.key')).toHaveLength(15);
    el('pick-F3')!.click();
    await nextTick();
    expect(el('picked-info')).toBeNull();
  });

  it('transitions and face counts equal direct counts; objective shares equal the errors (M = 3)', async () => {
    const x = randomSequence(Random.fromSeed(21), 120);
    await open(x, () => (store.track = 'mo3'));
    for (let a = 1; a <= 6; a++)
      for (let b = 1; b <= 6; b++) {
        let direct = 0;
        for (let i = 0; i + 1 < x.length; i++) if (x[i] === String(a) && x[i + 1] === String(b)) direct++;
        expect(text(`transition-${a}-${b}`)?.replace(/[▲▼]/, '')).toBe(String(direct));
      }
    const totals = [1, 2, 3, 4, 5, 6].map((f) => [...x].filter((c) => c === String(f)).length);
    expect([...el('face-totals')!.querySelectorAll('li')].map((li) => li.textContent)).toEqual(totals.map((c, k) => `${k + 1}${c}`));
    const e = evaluateDice(x, store.config);
    for (let m = 0; m < 3; m++) {
      const row = text(`shares-${m}`)!;
      expect(row).toContain(formatNumber(e.objectives[m]));
      for (const f of store.config.objectives[m]) {
        if (e.errors[f - 1] > 0)
          expect(row).toContain(`F${f} ${formatNumber(e.errors[f - 1])} · ${formatNumber(Math.round((e.errors[f - 1] / e.objectives[m]) * 1000) / 10)} %`);
      }
    }
  });

  it('constraint status says pass or fail in words, as the evaluator decides', async () => {
    const x = '1'.repeat(10) + SAMPLE.slice(10);
    await open(x);
    const e = evaluateDice(x, store.config);
    for (let d = 1; d <= 12; d++) expect(text(`constraint-status-${d}`)).toBe(e.constraints[d - 1] <= 0 ? 'satisfied' : 'violated');
    expect(text('constraints-summary')).toBe(`${e.constraints.filter((g) => g <= 0).length} / 12 satisfied`);
  });

  it('for d >= 9 the row tells chi from its bounds: whole numbers, where chi sits in the band and how far from each end', async () => {
    await open(SAMPLE);
    const e = evaluateDice(SAMPLE, store.config);
    const row = (d: number) => el(`constraint-row-${d}`)!;
    const inRow = (d: number, testid: string) => row(d).querySelector(`[data-testid="${testid}"]`)?.textContent?.replace(/\s+/g, ' ').trim();
    // d = 12: chi_12 = 2,176,782,332 in [2,176,697,776.67, 2,176,866,894.18] (the evaluator's); it read 2.177e+9 three times.
    expect([e.chi[11], ...e.bounds[11].map((b) => Math.round(b!))]).toEqual([2176782332, 2176697777, 2176866894]);
    expect(inRow(12, 'constraint-chi')).toBe('2,176,782,332');
    expect(row(12).textContent).toContain('2,176,697,777');
    expect(row(12).textContent).toContain('2,176,866,894');
    expect(inRow(12, 'band-percent')).toBe('50 %');
    expect(inRow(12, 'band-distances')).toBe('84,555 above q(p) · 84,562 below q(P)');
    for (let d = 9; d <= 12; d++) {
      const [lower, upper] = e.bounds[d - 1] as [number, number];
      const t = (e.chi[d - 1] - lower) / (upper - lower);
      expect(Number(inRow(d, 'band-percent')!.replace(' %', ''))).toBe(Number((t * 100).toPrecision(3)));
      // Whole numbers from 10^4 on, 3 significant digits below.
      const fmt = (v: number) => (v >= 1e4 ? Math.round(v).toLocaleString('en-US') : formatNumber(Number(v.toPrecision(3))));
      expect(inRow(d, 'band-distances')).toBe(`${fmt(e.chi[d - 1] - lower)} above q(p) · ${fmt(upper - e.chi[d - 1])} below q(P)`);
    }
  });

  it('the rolls of a long sequence are rendered only where they are seen', async () => {
    await open(randomSequence(Random.fromSeed(2), 20_000));
    const cells = document.querySelectorAll('[data-testid="sequence-grid"] .die').length;
    expect(cells).toBeGreaterThan(50);
    expect(cells).toBeLessThan(3000);
  });
});

describe('mouse and keyboard', () => {
  it('a click opens the face picker, a face sets the roll; Ctrl+Z takes it back', async () => {
    await open(SAMPLE);
    const objective = text('objective-0');
    const cell = document.querySelector<HTMLElement>('[data-testid="sequence-grid"] [data-i="4"]')!;
    cell.click();
    await nextTick();
    expect(el('face-picker')).not.toBeNull();
    el('face-6')!.click();
    await nextTick();
    const edited = SAMPLE.slice(0, 4) + '6' + SAMPLE.slice(5);
    expect(store.evaluatedSequence).toBe(edited);
    expect(text('objective-0')).toBe(formatNumber(evaluateDice(edited, store.config).objectives[0]));
    expect(el('face-picker')).toBeNull();
    key(window, 'z', { ctrlKey: true });
    await nextTick();
    await nextTick();
    expect(store.evaluatedSequence).toBe(SAMPLE);
    expect(text('objective-0')).toBe(objective);
  });

  it('arrows move the cursor, a digit sets the roll under it (and is not taken as a view switch), Esc closes the picker', async () => {
    await open(SAMPLE);
    const grid = el('sequence-grid')!;
    grid.focus();
    expect(key(grid, 'ArrowRight').defaultPrevented).toBe(true);
    key(grid, 'ArrowRight');
    await nextTick();
    expect(grid.getAttribute('aria-activedescendant')).toMatch(/-roll-2$/);
    const digit = key(grid, '4');
    expect(digit.defaultPrevented).toBe(true);
    expect(store.evaluatedSequence).toBe(SAMPLE.slice(0, 2) + '4' + SAMPLE.slice(3));
    key(grid, 'Enter');
    await nextTick();
    expect(el('face-picker')).not.toBeNull();
    key(grid, 'Escape');
    await nextTick();
    expect(el('face-picker')).toBeNull();
    // n / Shift+N step through the occurrences of the picked feature, wrapping around. Roll 3
    // is now 4, so F7's pairs start at 0-based 4, 8, 26, 28, 39, 43.
    el('pick-F7')!.click();
    await nextTick();
    const at = () => grid.getAttribute('aria-activedescendant')?.replace(/.*-roll-/, '');
    key(grid, 'n');
    await nextTick();
    expect(at()).toBe('4');
    key(grid, 'n');
    await nextTick();
    expect(at()).toBe('8');
    key(grid, 'N', { shiftKey: true });
    await nextTick();
    expect(at()).toBe('4');
    key(grid, 'N', { shiftKey: true });
    await nextTick();
    expect(at()).toBe('43');
  });
});

describe('diff two solutions', () => {
  it('compares with the sequence before the last edit: the changed rolls, and features, objectives and constraints side by side', async () => {
    await open(SAMPLE, () => (store.track = 'mo2'));
    store.setRoll(9, 1);
    store.setRoll(30, 5);
    const a = store.evaluatedSequence;
    const candidate = store.comparisonCandidates[0];
    expect(candidate.label).toBe('before roll 31: 2 → 5');
    expect(candidate.x).toBe(SAMPLE.slice(0, 9) + '1' + SAMPLE.slice(10));
    const b = store.comparisonCandidates[1].x;
    expect(b).toBe(SAMPLE);
    expect(store.compareWith(b, 'the original')).toBeNull();
    await nextTick();
    expect(text('compare-summary')).toContain('2 of 50 rolls differ (at 10, 31)');
    expect(document.querySelectorAll('[data-testid="compare-panel"] .line .die.changed')).toHaveLength(4);
    const ea = evaluateDice(a, store.config);
    const eb = evaluateDice(b, store.config);
    const rows = [...document.querySelectorAll('[data-testid="diff-features"] tbody tr')];
    rows.forEach((tr, i) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim());
      expect(cells.slice(0, 3)).toEqual([`F${i + 1}`, formatNumber(ea.features[i]), formatNumber(eb.features[i])]);
      expect(tr.classList.contains('changed')).toBe(ea.features[i] !== eb.features[i] || (ea.errors[i] === 0) !== (eb.errors[i] === 0));
    });
    const objectiveRows = [...document.querySelectorAll('[data-testid="diff-objectives"] tbody tr')].slice(0, 2);
    objectiveRows.forEach((tr, m) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim());
      expect(cells.slice(1, 3)).toEqual([formatNumber(ea.objectives[m]), formatNumber(eb.objectives[m])]);
    });
    const constraintRows = [...document.querySelectorAll('[data-testid="diff-constraints"] tbody tr')];
    // chi_d as whole numbers from 10^4 on (at d = 12 both read 2.177e+9 to 6 digits).
    constraintRows.forEach((tr, l) =>
      expect(tr.querySelectorAll('td')[2].textContent!.trim()).toBe(eb.chi[l] >= 1e4 ? Math.round(eb.chi[l]).toLocaleString('en-US') : formatNumber(eb.chi[l])),
    );
    // A pasted sequence with a bad roll is refused with its position.
    expect(store.compareWith(SAMPLE.slice(0, 7) + '9')?.message).toBe('character "9" at position 8 is not a die face 1-6');
  });

  it('follows a change of config, and "Inspect B" swaps the two (undoable)', async () => {
    await open(SAMPLE);
    const b = '6' + SAMPLE.slice(1);
    store.compareWith(b, 'pasted');
    store.track = 'mo3';
    await settle();
    expect(store.comparison!.evaluation!.objectives).toEqual(evaluateDice(b, diceConfig({ track: 'mo3', n: 50 })).objectives);
    el('compare-swap')!.click();
    await settle();
    expect(store.evaluatedSequence).toBe(b);
    expect(store.comparison!.x).toBe(SAMPLE);
    store.undo();
    await settle();
    expect(store.evaluatedSequence).toBe(SAMPLE);
  });
});

describe('what the inspector says of a solution (issue 28)', () => {
  it('after an edit each objective shows its change and the value before, and the constraints what they were; Ctrl+Z takes the change away', async () => {
    await open(SAMPLE, () => (store.track = 'mo3'));
    const before = evaluateDice(SAMPLE, store.config);
    // Roll 31 from 2 to 5: the d = 4 constraint fails under M = 3.
    const edited = SAMPLE.slice(0, 30) + '5' + SAMPLE.slice(31);
    const after = evaluateDice(edited, store.config);
    expect(store.setRoll(30, 5)).toBe(true);
    await nextTick();
    for (let m = 0; m < 3; m++) {
      const delta = after.objectives[m] - before.objectives[m];
      const words = Math.abs(delta) < 1e-9 ? 'unchanged' : `${delta < 0 ? '▼ better by' : '▲ worse by'} ${formatNumber(Math.abs(delta))}`;
      expect(text(`objective-change-${m}`)).toBe(`${words} (was ${formatNumber(before.objectives[m])})`);
    }
    // At least one objective moved: the test is not about "unchanged" only.
    expect(after.objectives.some((v, m) => Math.abs(v - before.objectives[m]) > 1e-9)).toBe(true);
    const satisfied = (g: number[]) => g.filter((v) => v <= 0).length;
    expect(satisfied(after.constraints)).toBeLessThan(satisfied(before.constraints));
    expect(text('constraints-change')).toBe(`was ${satisfied(before.constraints)} / ${before.constraints.length}`);
    expect(text('edit-note')).toBe('After roll 31: 2 → 5 (Ctrl+Z takes it back).');
    key(window, 'z', { ctrlKey: true });
    await nextTick();
    await nextTick();
    expect(store.evaluatedSequence).toBe(SAMPLE);
    expect([el('objective-change-0'), el('constraints-change'), el('edit-note')]).toEqual([null, null, null]);
  });

  it('a whole sequence pasted with another length than N sets N to it (it kept N and asked for "Set N = 50"); typing does not', async () => {
    store.n = 120;
    await settle();
    const input = el('sequence-input') as HTMLTextAreaElement;
    input.value = SAMPLE;
    input.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
    await settle();
    await settle();
    expect(store.n).toBe(50);
    expect(store.evaluatedSequence).toBe(SAMPLE);
    expect(el('adopt-length')).toBeNull();
    expect(store.undoLabel).toBe("N = 50 (the pasted sequence's length)");
    // Typed, a sequence of another length leaves N alone and offers it.
    input.value = SAMPLE.slice(0, 40);
    input.dispatchEvent(new InputEvent('input', { inputType: 'insertText', data: '6', bubbles: true }));
    await settle();
    expect(store.n).toBe(50);
    expect(text('adopt-length')).toBe('Set N = 40');
    // A paste that is not a sequence changes nothing.
    input.value = SAMPLE.slice(0, 20) + '7';
    input.dispatchEvent(new InputEvent('input', { inputType: 'insertFromPaste', bubbles: true }));
    await settle();
    expect(store.n).toBe(50);
  });

  it('says where an opened solution came from (source, solver, seed, run, what) and how many rolls were edited since', async () => {
    const run = '0123456789abcdef0123456789abcdef';
    await open(SAMPLE, () => store.checkpoint('open from the explorer'));
    store.origin = { source: 'experiment fronts · mo3-n50', solver: 'nsga2', seed: 3, run, what: 'a solution of its final front', x: SAMPLE };
    await nextTick();
    expect(text('solution-origin')).toBe('Opened from experiment fronts · mo3-n50: nsga2, seed 3, run 01234567… · a solution of its final front');
    expect(el('solution-origin')!.querySelector('code')!.getAttribute('title')).toBe(run);
    store.setRoll(0, 6);
    store.setRoll(1, 6);
    await nextTick();
    expect(text('solution-origin')).toMatch(/ · 2 rolls edited since$/);
    // Another sequence is not that solution.
    store.sequenceText = SAMPLE.split('').reverse().join('');
    await settle();
    expect(el('solution-origin')).toBeNull();
    // Undo goes back through the two edits to the solution as opened, its origin with it.
    store.undo();
    store.undo();
    await settle();
    expect(store.sequence).toBe(SAMPLE);
    expect(text('solution-origin')).toBe('Opened from experiment fronts · mo3-n50: nsga2, seed 3, run 01234567… · a solution of its final front');
  });
});

describe('the chi-square panel at small N (issue 28)', () => {
  it('says what the large d mean: at N = 120 they only ask that no block repeats, and chi_d sits at its smallest value', async () => {
    const x = randomSequence(Random.fromSeed(120), 120);
    await open(x, () => (store.track = 'so'));
    const e = evaluateDice(x, store.config);
    // The evaluator's own numbers: 13 blocks of 6^9 kinds, all different, chi_9 = 6^9 - 13.
    expect(e.chi[8]).toBeCloseTo(6 ** 9 - 13, 3);
    expect(text('constraint-meaning-9')).toBe('means: no 9-block repeats · χd at its smallest possible');
    for (let d = 7; d <= 12; d++) expect(text(`constraint-meaning-${d}`), `d = ${d}`).toMatch(new RegExp(`^means: no ${d}-block repeats`));
    expect(el('constraint-meaning-1')).toBeNull();
    const note = text('block-reading-note')!;
    expect(note).toMatch(/^At N = 120, d = \d+–12 cut the sequence into far fewer blocks than their 6ᵈ kinds/);
    expect(note).toContain('the constraint then means only that no block repeats');
    expect(note).toMatch(/The χ² of d = [\d–, ]*12 is at its smallest possible value/);
    // With one 9-block repeated the row says it fails, as the evaluator does.
    const repeated = x.slice(0, 9) + x.slice(0, 9) + x.slice(18);
    store.sequenceText = repeated;
    await settle();
    expect(evaluateDice(repeated, store.config).constraints[8]).toBeGreaterThan(0);
    expect(text('constraint-status-9')).toBe('violated');
    expect(text('constraint-meaning-9')).toBe('means: no 9-block repeats');
  });
});
