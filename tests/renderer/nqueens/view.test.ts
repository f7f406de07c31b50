// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia } from 'pinia';
import NqueensView from '../../../src-renderer/views/nqueens/NqueensView.vue';
import { NeuralNet, defaultNeuralParams } from '../../../src-shared/problems/nqueens/neural.ts';

let app: VueApp;
let root: HTMLElement;

const q = <T extends Element = HTMLElement>(sel: string) => root.querySelector<T>(sel);
const byId = <T extends Element = HTMLElement>(id: string) => q<T>(`[data-testid="${id}"]`)!;
const stat = (name: string) => [...root.querySelectorAll('[data-testid="nq-stats"] div')].find((d) => d.querySelector('dt')!.textContent === name)!.querySelector('dd')!.textContent!.trim();
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
    expect(byId('nq-baseline').textContent).toMatch(/^Min-conflicts on the same N and seed: solved in \d+ repair steps/);
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

  it('loads the slides\' weights for N with the preset', async () => {
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
});
