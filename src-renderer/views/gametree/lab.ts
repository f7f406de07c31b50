/**
 * The game-tree lab's logic, kept out of the components so it can be tested without a DOM:
 * turn the form into a tree and an evaluation function, search it, and build the chart.
 * Everything runs in the renderer on src-shared (pure TypeScript); no API call is involved.
 */
import type { EChartsCoreOption } from 'echarts/core';
import { LIGHT_PALETTE, type ChartPalette } from '../../../src-shared/charts/palette.ts';
import {
  atomText,
  constantEval,
  EvaluationError,
  GameCycleError,
  GameTreeExplorer,
  memoMinimax,
  nimComparison,
  nimGame,
  nimRuleEval,
  nimTree,
  parseEvalTable,
  parseTree,
  SearchLimitError,
  tableEval,
  treeDepth,
  treeSource,
  TreeSyntaxError,
  type EvalFn,
  type GameTree,
  type NimComparisonRow,
  type NimRule,
  type Side,
} from '../../../src-shared/problems/gametree/index.ts';

/** nim(25) is ~5.6 million nodes as a tree: the most the lab walks in the browser. */
export const MAX_LAB_NIM = 25;
/** The comparison chart runs alpha-beta on each nim(n) up to this n. */
export const MAX_CHART_NIM = 24;

export type TreeSourceKind = 'nim' | 'text';
export type EvalKind = 'rule' | 'constant' | 'table';

export interface LabInput {
  source: TreeSourceKind;
  nimN: number;
  rule: NimRule;
  /** The pasted or loaded tree, in the notes' format. */
  text: string;
  evalKind: EvalKind;
  constant: number;
  /** JSON object or S-expression association list. */
  tableText: string;
  /** Who moves at the root of the displayed tree. */
  rootSide: Side;
}

export const DEFAULT_INPUT: LabInput = {
  source: 'nim',
  nimN: 6,
  rule: 'last-wins',
  text: '; Russell & Norvig, AIMA Fig. 5.2: a two-ply game\n(a (b (b1) (b2) (b3))\n   (c (c1) (c2) (c3))\n   (d (d1) (d2) (d3)))\n',
  evalKind: 'rule',
  constant: 1,
  tableText: '((b1 . 3) (b2 . 12) (b3 . 8)\n (c1 . 2) (c2 . 4) (c3 . 6)\n (d1 . 14) (d2 . 5) (d3 . 2))\n',
  rootSide: 'A',
};

/** A problem with the input, pointing at the field (and line and column) at fault. */
export interface LabError {
  field: 'nimN' | 'text' | 'tableText' | 'constant' | 'search';
  message: string;
  line?: number;
  column?: number;
}

export interface LabResult {
  explorer: GameTreeExplorer;
  depth: number;
  /** null: the method could not run (alpha-beta past its node limit; memo on a label cycle). */
  counts: { plain: number; alphabeta: number | null; memo: number | null };
  /**
   * False when the memo (keyed by position label) disagrees with the exact value: the tree uses
   * one label for different subtrees, so memoising on positions is unsound for it.
   */
  memoAgrees: boolean;
}

export type LabOutcome = { ok: true; result: LabResult } | { ok: false; error: LabError };

function fail(error: LabError): LabOutcome {
  return { ok: false, error };
}

export function buildTree(input: LabInput): GameTree | LabError {
  if (input.source === 'nim') {
    const n = input.nimN;
    if (!Number.isInteger(n) || n < 0 || n > MAX_LAB_NIM) {
      return {
        field: 'nimN',
        message: `n must be a whole number from 0 to ${MAX_LAB_NIM} (nim(${MAX_LAB_NIM}) is 5.6 million nodes as a tree; the CLI's memoised search goes to 10^7)`,
      };
    }
    return nimTree(n);
  }
  try {
    return parseTree(input.text);
  } catch (e) {
    if (e instanceof TreeSyntaxError) return { field: 'text', message: e.message, line: e.line, column: e.column };
    throw e;
  }
}

export function buildEval(input: LabInput): EvalFn | LabError {
  switch (input.evalKind) {
    case 'rule':
      return nimRuleEval(input.rule);
    case 'constant':
      if (!Number.isFinite(input.constant)) return { field: 'constant', message: 'the constant must be a number' };
      return constantEval(input.constant);
    case 'table':
      try {
        return tableEval(parseEvalTable(input.tableText));
      } catch (e) {
        if (e instanceof TreeSyntaxError) return { field: 'tableText', message: e.message, line: e.line, column: e.column };
        if (e instanceof EvaluationError) return { field: 'tableText', message: e.message };
        throw e;
      }
  }
}

/** Whether the table (tableText) has a value for every leaf of the pasted tree (text). */
function tableCoversTree(input: LabInput): boolean {
  let table: Map<string, number>;
  let tree: GameTree;
  try {
    table = parseEvalTable(input.tableText);
    tree = parseTree(input.text);
  } catch {
    return false;
  }
  const stack: GameTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.children.length === 0 && !table.has(atomText(node.position))) return false;
    for (const child of node.children) stack.push(child);
  }
  return true;
}

/**
 * The evaluation to use once the tree source has been switched to `input.source`, so that the
 * switch never lands in an error. The nim rule scores only nim's terminal position, so a pasted
 * or loaded tree gets the table when it has a value for every leaf (the default tree and table
 * are a pair), otherwise the notes' constant; generating nim again brings the rule back in
 * place of a table. A constant suits both sources and is kept, and so is the rule for a pasted
 * tree when the user picks it there (a nim tree written out).
 */
export function evalKindForSource(input: LabInput): EvalKind {
  if (input.source === 'text' && input.evalKind === 'rule') return tableCoversTree(input) ? 'table' : 'constant';
  if (input.source === 'nim' && input.evalKind === 'table') return 'rule';
  return input.evalKind;
}

const isError = (x: unknown): x is LabError => typeof x === 'object' && x !== null && 'field' in x && 'message' in x;

/** Builds everything the view shows for one input. */
export function runLab(input: LabInput): LabOutcome {
  const tree = buildTree(input);
  if (isError(tree)) return fail(tree);
  const f = buildEval(input);
  if (isError(f)) return fail(f);
  try {
    const explorer = new GameTreeExplorer(tree, f, input.rootSide);
    let memo: { value: number; nodesVisited: number } | null = null;
    try {
      memo = input.source === 'nim' ? memoMinimax(nimGame(input.nimN), input.nimN, f, input.rootSide) : memoMinimax(treeSource, tree, f, input.rootSide);
    } catch (e) {
      // A label repeated along one line of play looks like a cycle to a memo keyed by labels.
      if (!(e instanceof GameCycleError)) throw e;
    }
    return {
      ok: true,
      result: {
        explorer,
        depth: treeDepth(tree),
        counts: { plain: explorer.plainNodes, alphabeta: explorer.alphaBetaNodes, memo: memo ? memo.nodesVisited : null },
        memoAgrees: memo !== null && memo.value === explorer.root.value,
      },
    };
  } catch (e) {
    if (e instanceof EvaluationError || e instanceof SearchLimitError) {
      const hint = input.evalKind === 'rule' && input.source === 'text' ? ' (the nim rule scores only the position 0; pick a table or a constant)' : '';
      return fail({ field: 'search', message: e.message + hint });
    }
    throw e;
  }
}

/** Formats a value: probabilities as they are, with at most 4 decimals. */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Number.isInteger(v) ? String(v) : v.toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
}

export function formatCount(n: number | null): string {
  return n === null ? '—' : n.toLocaleString('en-US');
}

/** The n values the comparison chart covers. */
export function chartNs(maxN: number): number[] {
  const top = Math.max(1, Math.min(MAX_CHART_NIM, Math.floor(maxN)));
  return Array.from({ length: top }, (_, i) => i + 1);
}

export function comparisonRows(maxN: number, rule: NimRule): NimComparisonRow[] {
  return nimComparison(chartNs(maxN), rule);
}

/**
 * Nodes visited against n, log scale: plain grows ~1.84^n, alpha-beta slower, memo linearly.
 * Each method has the colour of its count in the view (plain bad, alpha-beta accent, memo ok).
 */
export function comparisonOption(rows: readonly NimComparisonRow[], palette: ChartPalette = LIGHT_PALETTE): EChartsCoreOption {
  const line = (name: string, key: 'plain' | 'alphabeta' | 'memo') => ({ name, type: 'line', data: rows.map((r) => [r.n, r[key]]) });
  return {
    color: [palette.bad, palette.accent, palette.ok],
    legend: {},
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : String(v)),
    },
    xAxis: { type: 'value', name: 'n (stones)', min: 1, max: rows.length ? rows[rows.length - 1].n : 1, minInterval: 1 },
    yAxis: {
      type: 'log',
      name: 'nodes visited',
      min: 1,
      axisLabel: { formatter: (v: number) => (v >= 1000 ? v.toExponential(0).replace('e+', 'e') : String(v)) },
    },
    series: [line('plain minimax (tree)', 'plain'), line('alpha-beta', 'alphabeta'), line('memoised (DAG)', 'memo')],
  };
}
