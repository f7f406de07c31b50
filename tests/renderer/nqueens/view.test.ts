// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia } from 'pinia';
import NqueensView from '../../../src-renderer/views/nqueens/NqueensView.vue';
import { NeuralNet, defaultNeuralParams, slidesNeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';
import { waitFor } from '../../main/processes.ts';

let app: VueApp;
let root: HTMLElement;

const q = <T extends Element = HTMLElement>(sel: string) => root.querySelector<T>(sel);
const byId = <T extends Element = HTMLElement>(id: string) => q<T>(`[data-testid="${id}"]`)!;
const stat = (name: string) =>
  [...root.querySelectorAll('[data-testid="nq-stats"] div')]
    .find((d) => d.querySelector('dt')!.textContent === name)!
    .querySelector('dd')!
    .textContent!.trim();
const click = (el: Element) => (el as HTMLElement).dispatchEvent(new MouseEvent('click', { bubbles: true }));
const key = (k: string) => window.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
const setValue = (el: HTMLInputElement, value: string) => {
  el.value = value;
  el.dispatchEvent(new Event('input'));
};

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  root = document.getElementById('app')!;
  app = createApp(NqueensView);
  app.use(createPinia());
  app.mount(root);
});
afterEach(() => app.unmount());

describe('NqueensView', () => {
  it('starts on N = 8 with the lab defaults and steps with the button and the right arrow', async () => {
    await nextTick();
    // The same start as the shared network with seed 1.
    const net = new NeuralNet(defaultNeuralParams(8), 1);
    expect(stat('queens')).toBe(String(net.state.queens));
    expect(byId('nq-status').textContent).toMatch(/^Ready/);
    // Without the app's API (the board alone) there is no baseline: it is a run of the app (baseline.test.ts).
    expect(q('[data-testid="nq-baseline"]')).toBeNull();
    click(byId('nq-step'));
    await nextTick();
    const s1 = net.step();
    expect(q('.card-title .sub')!.textContent).toBe('step 1');
    expect(stat('queens')).toBe(String(s1.queens));
    expect(stat('conflicts')).toBe(String(s1.conflicts));
    key('ArrowRight');
    await nextTick();
    expect(q('.card-title .sub')!.textContent).toBe('step 2');
    expect(stat('energy')).toBe(net.step().energy.toFixed(1));
  });

  it('plays and pauses with the space bar', async () => {
    await nextTick();
    expect(byId('nq-play').textContent).toBe('Play');
    key(' ');
    await nextTick();
    expect(byId('nq-play').textContent).toBe('Pause');
    key(' ');
    await nextTick();
    expect(byId('nq-play').textContent).toBe('Play');
  });

  it('names a bad parameter and keeps the last valid board', async () => {
    await nextTick();
    setValue(byId<HTMLInputElement>('nq-A'), '-2');
    await nextTick();
    expect(byId('nq-error').textContent).toBe('A: must be a positive number, got -2');
    expect(byId('nq-A').getAttribute('aria-invalid')).toBe('true');
    expect((byId('nq-reset') as HTMLButtonElement).disabled).toBe(true);
  });

  it("loads the slides' weights for N with the preset", async () => {
    await nextTick();
    setValue(byId<HTMLInputElement>('nq-n'), '15');
    const select = byId<HTMLSelectElement>('nq-preset');
    select.value = 'slides';
    select.dispatchEvent(new Event('change'));
    await nextTick();
    await nextTick();
    expect(byId<HTMLInputElement>('nq-A').value).toBe('0.6');
    expect(byId<HTMLSelectElement>('nq-update').value).toBe('sync');
    expect(byId<HTMLInputElement>('nq-kick-every').value).toBe('50');
  });

  const val = (id: string) => byId<HTMLInputElement>(id).value;
  const setN = async (n: number) => {
    setValue(byId<HTMLInputElement>('nq-n'), String(n));
    await nextTick();
    await nextTick();
  };
  const choosePreset = async (name: string) => {
    const select = byId<HTMLSelectElement>('nq-preset');
    select.value = name;
    select.dispatchEvent(new Event('change'));
    await nextTick();
    await nextTick();
  };

  it('follows N on the lab default and shows what the slides suggest for that N', async () => {
    await nextTick();
    expect(byId('nq-suggest').textContent!.replace(/\s+/g, ' ').trim()).toBe('Slides for N = 8: A = 1, B = 1');
    await setN(100);
    const d = defaultNeuralParams(100);
    expect([val('nq-A'), val('nq-B'), val('nq-kick-every'), val('nq-update')]).toEqual([String(d.A), String(d.B), 'auto', 'seq']);
    // The slides' weight for N = 100 is 0.5 (slidesWeight: 0.5 beyond N = 20), shown beside the lab default's 1.
    const s = slidesNeuralParams(100);
    expect(s.A).toBe(0.5);
    expect(byId('nq-suggest-A').textContent).toBe(String(s.A));
    expect(byId('nq-suggest-B').textContent).toBe(String(s.B));
    expect(q('[data-testid="nq-defaults"]')).toBeNull();
    expect(byId('nq-follow').textContent).toContain('follow N');
  });

  it('follows N on the slides preset: the weights per N from slidesNeuralParams', async () => {
    await nextTick();
    await choosePreset('slides');
    expect(val('nq-A')).toBe('1');
    for (const n of [50, 12, 17, 9]) {
      await setN(n);
      const p = slidesNeuralParams(n);
      expect([Number(val('nq-A')), Number(val('nq-B'))], `N = ${n}`).toEqual([p.A, p.B]);
      expect(val('nq-kick-every')).toBe('50');
      expect(val('nq-update')).toBe('sync');
    }
    // Published in the slides: 0.8 for 11..14 queens, 0.6 for 15, 0.5 for large N.
    expect([slidesNeuralParams(12).A, slidesNeuralParams(17).A, slidesNeuralParams(50).A]).toEqual([0.8, 0.6, 0.5]);
  });

  it('keeps weights edited by hand when N changes, and reloads the preset with the button', async () => {
    await nextTick();
    await choosePreset('slides');
    setValue(byId<HTMLInputElement>('nq-A'), '0.7');
    await nextTick();
    await setN(40);
    expect(val('nq-A')).toBe('0.7');
    expect(val('nq-B')).toBe('1'); // the N = 8 value, kept with the rest of the user's set
    const button = byId<HTMLButtonElement>('nq-defaults');
    expect(button.textContent!.trim()).toBe('Defaults for N = 40');
    expect(byId('nq-follow').textContent).toContain('Edited by hand');
    click(button);
    await nextTick();
    const p = slidesNeuralParams(40);
    expect([Number(val('nq-A')), Number(val('nq-B'))]).toEqual([p.A, p.B]);
    expect(q('[data-testid="nq-defaults"]')).toBeNull();
    // Following N again after the reload.
    await setN(8);
    expect(val('nq-A')).toBe(String(slidesNeuralParams(8).A));
  });

  it('a preset change overrides edits; the right arrow steps the new N after the panel follows it', async () => {
    await nextTick();
    setValue(byId<HTMLInputElement>('nq-B'), '2');
    await nextTick();
    await choosePreset('slides');
    expect(val('nq-B')).toBe('1');
    expect(q('[data-testid="nq-defaults"]')).toBeNull();
    await setN(20);
    expect(val('nq-A')).toBe('0.6');
    // The board restarts 250 ms after the last edit: wait (to a deadline) until it shows the
    // start of the N = 20 network, checked on four counters at once.
    const net = new NeuralNet(slidesNeuralParams(20), 1);
    const start = net.state;
    const shown = () => ['queens', 'conflicts', 'empty rows + cols', 'energy'].map(stat);
    const expected = [String(start.queens), String(start.conflicts), String(start.emptyLines), start.energy.toFixed(1)];
    await waitFor('the board to restart on N = 20', () => shown().join() === expected.join());
    expect(shown()).toEqual(expected);
    expect(stat('queens')).toBe(String(net.state.queens));
    // An arrow typed in a field moves the caret, not the board.
    byId('nq-n').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    await nextTick();
    expect(q('.card-title .sub')!.textContent).toBe('step 0');
    key('ArrowRight');
    await nextTick();
    expect(q('.card-title .sub')!.textContent).toBe('step 1');
    expect(stat('conflicts')).toBe(String(net.step().conflicts));
  });
});
