import { describe, expect, it } from 'vitest';
import {
  atomText,
  chainTree,
  parseTree,
  printTree,
  randomTree,
  treeDepth,
  treesEqual,
  countNodes,
  TreeSyntaxError,
  nimTree,
  type GameTree,
} from '../../../../src-shared/problems/gametree/index.ts';

function syntaxError(text: string): TreeSyntaxError {
  try {
    parseTree(text);
  } catch (e) {
    expect(e).toBeInstanceOf(TreeSyntaxError);
    return e as TreeSyntaxError;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
}

describe('parseTree', () => {
  it("reads the notes' nim(2) = (2 (1 (0)) (0))", () => {
    const t = parseTree('(2 (1 (0)) (0))');
    expect(t).toEqual({
      position: 2,
      children: [
        { position: 1, children: [{ position: 0, children: [] }] },
        { position: 0, children: [] },
      ],
    });
    expect(treesEqual(t, nimTree(2))).toBe(true);
  });

  it("nimTree(n) prints as the notes' (nim n) builds it: (n nim(n-1) nim(n-2) nim(n-3))", () => {
    expect(printTree(nimTree(0))).toBe('(0)');
    expect(printTree(nimTree(1))).toBe('(1 (0))');
    expect(printTree(nimTree(3))).toBe('(3 (2 (1 (0)) (0)) (1 (0)) (0))');
    expect(printTree(nimTree(4))).toBe('(4 (3 (2 (1 (0)) (0)) (1 (0)) (0)) (2 (1 (0)) (0)) (1 (0)))');
  });

  it('keeps symbols as written, reads numbers written as JavaScript prints them as numbers, skips ; comments', () => {
    const t = parseTree('; a game\n(start ; the root\n  (Left-1 (-2.5)) (right (1e3)))  ; done');
    expect(t.position).toBe('start');
    expect(t.children.map((c) => c.position)).toEqual(['Left-1', 'right']);
    expect(t.children[0].children[0].position).toBe(-2.5);
    // 1000 is written "1000": "1e3" is another label (issue 13).
    expect(t.children[1].children[0].position).toBe('1e3');
  });

  it('keeps every label as the text written: 01, 1, 1.0, 1e0, +1, -0 and 0 are different positions (issue 13)', () => {
    const labels = ['01', '1', '1.0', '1e0', '+1', '-0', '0', '.5', '0.5', '1e+21', '1e21'];
    const t = parseTree(`(r ${labels.map((l) => `(${l})`).join(' ')})`);
    const positions = t.children.map((c) => c.position);
    expect(positions.map(atomText)).toEqual(labels);
    expect(new Set(positions).size).toBe(labels.length);
    expect(printTree(t)).toBe(`(r ${labels.map((l) => `(${l})`).join(' ')})`);
    // Canonical numerals stay numbers, so nim's trees (numbers) compare equal when read back.
    expect(positions.filter((p) => typeof p === 'number')).toEqual([1, 0, 0.5, 1e21]);
  });

  it('reports an unclosed ( at the innermost open list, with line and column', () => {
    const e = syntaxError('(a\n  (b (c)\n  (d))');
    expect([e.line, e.column]).toEqual([1, 1]);
    const inner = syntaxError('(a (b)\n   (c (d)');
    expect([inner.line, inner.column]).toEqual([2, 4]);
    expect(inner.message).toMatch(/^line 2, column 4: '\(' is never closed/);
  });

  it('reports a stray ) where it is', () => {
    const e = syntaxError('(a (b))\n  )');
    expect(e.message).toBe("line 2, column 3: unexpected ')' with no matching '('");
    const stray = syntaxError('(a (b)))');
    expect([stray.line, stray.column]).toEqual([1, 8]);
    expect(stray.reason).toMatch(/unexpected '\)'/);
  });

  it('rejects an empty list, an atom where a subtree is expected, and a list as a position', () => {
    const empty = syntaxError('(a\n  (b ()))');
    expect([empty.line, empty.column, empty.reason]).toEqual([2, 6, 'empty list (): a node needs a position']);
    const bare = syntaxError('(a (b) c)');
    expect([bare.line, bare.column]).toEqual([1, 8]);
    expect(bare.reason).toBe('expected a subtree (a list) but found the atom c');
    const top = syntaxError('  leaf');
    expect([top.line, top.column]).toEqual([1, 3]);
    const head = syntaxError('((a) (b))');
    expect([head.line, head.column]).toEqual([1, 2]);
  });

  it('rejects empty input and a second tree', () => {
    expect(syntaxError('; nothing\n').reason).toMatch(/no tree found/);
    const two = syntaxError('(a)\n(b)');
    expect([two.line, two.column]).toEqual([2, 1]);
  });

  it('parses and prints a tree of depth 10,000 (and 100,000) without a stack overflow', () => {
    for (const depth of [10_000, 100_000]) {
      const text = '(0 '.repeat(depth) + '(leaf)' + ')'.repeat(depth);
      const t = parseTree(text);
      expect(treeDepth(t)).toBe(depth);
      expect(countNodes(t)).toBe(depth + 1);
      expect(printTree(t)).toBe(text);
    }
    const chain = chainTree(10_000);
    expect(treesEqual(parseTree(printTree(chain, { indent: 1 })), chain)).toBe(true);
  });

  it('reports errors deep inside a deep tree at the right place', () => {
    const depth = 10_000;
    const e = syntaxError('(0 '.repeat(depth) + '()' + ')'.repeat(depth));
    expect([e.line, e.column]).toEqual([1, 3 * depth + 1]);
  });

  it('round-trips random trees through printTree', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { tree } = randomTree({ seed, maxDepth: 5 });
      const back: GameTree = parseTree(printTree(tree, { indent: seed % 3 }));
      expect(treesEqual(back, tree)).toBe(true);
    }
  });
});
