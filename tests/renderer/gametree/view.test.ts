// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, nextTick, type App as VueApp } from 'vue';
import { createPinia } from 'pinia';
import GameTreeView from '../../../src-renderer/views/gametree/GameTreeView.vue';
import { alphaBeta, nimRuleEval, nimTree, treeSource } from '../../../src-shared/problems/gametree/index.ts';
import { waitFor } from '../../main/processes.ts';

let app: VueApp;
let root: HTMLElement;

const q = <T extends Element = HTMLElement>(sel: string) => root.querySelector<T>(sel);
const text = (testid: string) => q(`[data-testid="${testid}"]`)?.textContent?.trim() ?? null;
/**
 * After an edit: the view shows "computing…" while its debounce runs, then recomputes. Waits for
 * that (to a deadline) rather than sleeping past the debounce.
 */
const settle = async () => {
  await nextTick();
  expect(text('busy'), 'an edit shows the busy indicator').toBe('computing…');
  await waitFor('the game tree to recompute (the busy indicator to go)', () => text('busy') === null);
  await nextTick();
};
const rowKeys = () => [...root.querySelectorAll('[role="treeitem"]')].map((el) => el.getAttribute('data-key'));
const setValue = (el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string) => {
  el.value = value;
  el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input'));
};
const click = (el: Element | null) => (el as HTMLElement).dispatchEvent(new MouseEvent('click', { bubbles: true }));

beforeEach(() => {
  document.body.innerHTML = '<div id="app"></div>';
  root = document.getElementById('app')!;
  app = createApp(GameTreeView);
  app.use(createPinia());
  app.mount(root);
});
afterEach(() => app.unmount());

describe('GameTreeView', () => {
  it('starts on nim(6), last stone wins: A first wins, the PV expanded and highlighted', async () => {
    await nextTick();
    expect([text('my-turn'), text('his-turn')]).toEqual(['1', '0']);
    expect(text('count-plain')).toBe('52');
    expect(text('count-memo')).toBe('12');
    // 6 -> 5 -> 4 ... A takes 2 to leave 4 (a multiple of 4): the first best move is "take 2".
    expect(text('pv')).toBe('6 → 4 → 3 → 0');
    // Root expanded along the PV: root, its 3 children, 4's 3 children, 3's 3 children.
    expect(rowKeys()).toEqual(['', '0', '1', '1.0', '1.0.0', '1.0.1', '1.0.2', '1.1', '1.2', '2']);
    expect(q('[data-key="1"]')!.classList.contains('pv')).toBe(true);
    expect(q('[data-key="0"]')!.classList.contains('pv')).toBe(false);
    expect(q('[data-key=""] .side')!.textContent!.trim()).toBe('A max');
    expect(q('[data-key="1"] .side')!.textContent!.trim()).toBe('B min');
  });

  it('greys exactly the branches alpha-beta prunes, and toggles nodes', async () => {
    await nextTick();
    const more = [...root.querySelectorAll('.toolbar button')].find((b) => b.textContent!.includes('One more level'))!;
    for (let i = 0; i < 7; i++) {
      click(more);
      await nextTick();
    }
    // nim(6) fully expanded: all 52 nodes of the tree.
    expect(rowKeys().length).toBe(52);
    const ab = alphaBeta(treeSource, nimTree(6), nimRuleEval('last-wins'), 'A');
    expect(root.querySelectorAll('.row.cut').length).toBe(ab.prunedBranches);
    const searched = root.querySelectorAll('[role="treeitem"]:not(.cut):not(.inside)').length;
    expect(searched).toBe(ab.nodesVisited);
    expect(text('count-alphabeta')).toBe(String(ab.nodesVisited));
    click(q('[data-key="0"] .toggle'));
    await nextTick();
    expect(rowKeys()).not.toContain('0.0');
    click(q('[data-testid="node-0"] .toggle'));
    await nextTick();
    expect(rowKeys()).toContain('0.0');
  });

  it('switching to "Paste or load a tree" starts clean: the table, not the nim rule, and no error; back to nim, the rule again', async () => {
    await nextTick();
    click(q('[data-testid="source-text"]'));
    await settle();
    expect(text('lab-error')).toBeNull();
    expect(q<HTMLSelectElement>('[data-testid="eval-kind"]')!.value).toBe('table');
    expect([text('my-turn'), text('his-turn')]).toEqual(['3', '6']);
    click(q('[data-testid="source-nim"]'));
    await settle();
    expect(text('lab-error')).toBeNull();
    expect(q<HTMLSelectElement>('[data-testid="eval-kind"]')!.value).toBe('rule');
    expect([text('my-turn'), text('his-turn')]).toEqual(['1', '0']);
  });

  it('a pasted tree with a table (AIMA Fig. 5.2), then a syntax error shown with line and column', async () => {
    click(q('[data-testid="source-text"]'));
    setValue(q<HTMLSelectElement>('[data-testid="eval-kind"]')!, 'table');
    await settle();
    expect([text('my-turn'), text('his-turn')]).toEqual(['3', '6']);
    expect([text('count-plain'), text('count-alphabeta'), text('count-memo')]).toEqual(['13', '11', '13']);
    expect(rowKeys()).not.toContain('1.1');
    click(q('[data-key="1"] .toggle'));
    await nextTick();
    expect(q('[data-key="1.1"]')!.classList.contains('cut')).toBe(true);
    setValue(q<HTMLTextAreaElement>('[data-testid="tree-text"]')!, '(a\n  (b ()))');
    await settle();
    expect(text('lab-error')).toBe('Tree: line 2, column 6: empty list (): a node needs a position');
    expect(q('[data-testid="tree-text"]')!.getAttribute('aria-invalid')).toBe('true');
  });

  it("the notes' constant 1 gives 1 for both estimates", async () => {
    setValue(q<HTMLSelectElement>('[data-testid="eval-kind"]')!, 'constant');
    await settle();
    expect([text('my-turn'), text('his-turn')]).toEqual(['1', '1']);
  });

  it('nim(5) under last stone loses: the mover loses (5 mod 4 = 1)', async () => {
    setValue(q<HTMLInputElement>('[data-testid="nim-n"]')!, '5');
    setValue(q<HTMLSelectElement>('[data-testid="rule"]')!, 'last-loses');
    await settle();
    expect([text('my-turn'), text('his-turn')]).toEqual(['0', '1']);
    setValue(q<HTMLInputElement>('[data-testid="nim-n"]')!, '99');
    await settle();
    expect(text('lab-error')).toMatch(/^nim\(n\): n must be a whole number from 0 to 25/);
  });
});
