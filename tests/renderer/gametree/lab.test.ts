import { describe, expect, it } from 'vitest';
import {
  buildEval,
  buildTree,
  chartNs,
  comparisonOption,
  comparisonRows,
  DEFAULT_INPUT,
  evalKindForSource,
  formatValue,
  MAX_LAB_NIM,
  runLab,
  type LabInput,
} from '../../../src-renderer/views/gametree/lab.ts';
import { nimTreeSize } from '../../../src-shared/problems/gametree/index.ts';

const input = (over: Partial<LabInput>): LabInput => ({ ...DEFAULT_INPUT, ...over });

describe('game-tree lab logic', () => {
  it("nim(n) under last-wins: A first loses exactly when n mod 4 = 0; the notes' constant 1 gives 1 and 1", () => {
    for (let n = 0; n <= 12; n++) {
      const out = runLab(input({ source: 'nim', nimN: n, evalKind: 'rule', rule: 'last-wins' }));
      if (!out.ok) throw new Error(out.error.message);
      expect([out.result.explorer.estimateMyTurn, out.result.explorer.estimateHisTurn]).toEqual(n % 4 === 0 ? [0, 1] : [1, 0]);
      expect(out.result.counts.plain).toBe(nimTreeSize(n));
    }
    const notes = runLab(input({ source: 'nim', nimN: 10, evalKind: 'constant', constant: 1 }));
    expect(notes.ok && [notes.result.explorer.estimateMyTurn, notes.result.explorer.estimateHisTurn]).toEqual([1, 1]);
  });

  it('the default pasted tree with its table is AIMA Fig. 5.2: 3 for A first, 6 for B first; counts 13 / 11 / 13', () => {
    const out = runLab(input({ source: 'text', evalKind: 'table' }));
    if (!out.ok) throw new Error(out.error.message);
    expect([out.result.explorer.estimateMyTurn, out.result.explorer.estimateHisTurn]).toEqual([3, 6]);
    expect(out.result.counts).toEqual({ plain: 13, alphabeta: 11, memo: 13 });
    expect(out.result.explorer.principalVariation).toEqual(['a', 'b', 'b1']);
    expect(out.result.memoAgrees).toBe(true);
    const b = runLab(input({ source: 'text', evalKind: 'table', rootSide: 'B' }));
    expect(b.ok && b.result.explorer.principalVariation).toEqual(['a', 'c', 'c3']);
  });

  it('flags a tree whose repeated labels make memoising on positions unsound', () => {
    // Two different subtrees headed by the same label p: x -> p -> u (0) and y -> p -> v (1).
    const base = { source: 'text' as const, text: '(r (x (p (u))) (y (p (v))))', evalKind: 'table' as const, tableText: '{"u": 0, "v": 1}' };
    const a = runLab(input({ ...base, rootSide: 'A' }));
    if (!a.ok) throw new Error(a.error.message);
    // A first: max(0, 1) = 1, but a memo keyed by "p" reuses x's value 0 for y's p.
    expect(a.result.explorer.root.value).toBe(1);
    expect(a.result.memoAgrees).toBe(false);
    // B first: min(0, 1) = 0, which the stale memo entry happens to give too.
    const b = runLab(input({ ...base, rootSide: 'B' }));
    if (!b.ok) throw new Error(b.error.message);
    expect(b.result.explorer.root.value).toBe(0);
    expect(b.result.memoAgrees).toBe(true);
  });

  it('labels are the text written: (r (01)) with {"01":0.2,"1":0.9} is worth 0.2 (issue 13)', () => {
    const out = runLab(input({ source: 'text', text: '(r (01))', evalKind: 'table', tableText: '{"01":0.2,"1":0.9}' }));
    if (!out.ok) throw new Error(out.error.message);
    expect([out.result.explorer.estimateMyTurn, out.result.explorer.estimateHisTurn]).toEqual([0.2, 0.2]);
    expect(out.result.explorer.principalVariation).toEqual(['r', '01']);
    expect(out.result.memoAgrees).toBe(true);
  });

  it('a label repeated along one line of play: exact values still, no memo count', () => {
    const out = runLab(input({ source: 'text', text: '(p (q (p (x))))', evalKind: 'constant', constant: 0.5 }));
    if (!out.ok) throw new Error(out.error.message);
    expect(out.result.explorer.root.value).toBe(0.5);
    expect(out.result.counts).toEqual({ plain: 4, alphabeta: 4, memo: null });
    expect(out.result.memoAgrees).toBe(false);
  });

  it('switching the tree source picks an evaluation that suits it, so the switch shows no error', () => {
    // The default pasted tree with its default table: the table.
    const pasted = input({ source: 'text', evalKind: 'rule' });
    expect(evalKindForSource(pasted)).toBe('table');
    expect(runLab({ ...pasted, evalKind: evalKindForSource(pasted) }).ok).toBe(true);
    // A loaded tree whose leaves the table lacks: the notes' constant, which scores any tree.
    const loaded = input({ source: 'text', evalKind: 'rule', text: '(x (y) (z))' });
    expect(evalKindForSource(loaded)).toBe('constant');
    expect(runLab({ ...loaded, evalKind: evalKindForSource(loaded) }).ok).toBe(true);
    // Back to nim: a table gives way to the rule; a constant suits both and stays.
    expect(evalKindForSource(input({ source: 'nim', evalKind: 'table' }))).toBe('rule');
    expect(evalKindForSource(input({ source: 'nim', evalKind: 'constant' }))).toBe('constant');
    expect(evalKindForSource(input({ source: 'text', evalKind: 'constant' }))).toBe('constant');
    expect(evalKindForSource(input({ source: 'text', evalKind: 'table', text: '(x (y))' }))).toBe('table');
  });

  it('errors name the field, with line and column for syntax errors', () => {
    const tree = buildTree(input({ source: 'text', text: '(a\n  (b c))' }));
    expect(tree).toEqual({ field: 'text', message: 'line 2, column 6: expected a subtree (a list) but found the atom c', line: 2, column: 6 });
    expect(buildTree(input({ source: 'nim', nimN: MAX_LAB_NIM + 1 }))).toMatchObject({ field: 'nimN' });
    expect(buildTree(input({ source: 'nim', nimN: 2.5 }))).toMatchObject({ field: 'nimN' });
    expect(buildEval(input({ evalKind: 'table', tableText: '((a . x))' }))).toMatchObject({ field: 'tableText', line: 1, column: 7 });
    expect(buildEval(input({ evalKind: 'constant', constant: Number.NaN }))).toMatchObject({ field: 'constant' });
    const missing = runLab(input({ source: 'text', evalKind: 'table', tableText: '{"b1": 1}' }));
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toMatchObject({ field: 'search', message: expect.stringMatching(/no value for the leaf position b2/) });
    const rule = runLab(input({ source: 'text', evalKind: 'rule' }));
    if (!rule.ok) expect(rule.error.message).toMatch(/not terminal .*pick a table or a constant/);
    expect(rule.ok).toBe(false);
  });

  it('the comparison chart: three log-scale series over n = 1..N', () => {
    expect(chartNs(5)).toEqual([1, 2, 3, 4, 5]);
    expect(chartNs(99).length).toBe(24);
    const rows = comparisonRows(12, 'last-wins');
    const option = comparisonOption(rows) as { series: { name: string; data: number[][] }[]; yAxis: { type: string } };
    expect(option.yAxis.type).toBe('log');
    expect(option.series.map((s) => s.name)).toEqual(['plain minimax (tree)', 'alpha-beta', 'memoised (DAG)']);
    expect(option.series[0].data[11]).toEqual([12, 2031]);
    expect(option.series[2].data[11]).toEqual([12, 24]);
    const ab = option.series[1].data.map((d) => d[1]);
    expect(ab.every((v, i) => v <= option.series[0].data[i][1])).toBe(true);
  });

  it('formats values compactly', () => {
    expect([formatValue(1), formatValue(0.25), formatValue(1 / 3), formatValue(-Infinity)]).toEqual(['1', '0.25', '0.3333', '-Infinity']);
  });
});
