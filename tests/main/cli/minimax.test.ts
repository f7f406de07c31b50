import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './io.ts';

const dir = mkdtempSync(join(tmpdir(), 'saikoro-minimax-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return name;
};
// Russell & Norvig, AIMA (3rd ed.) Fig. 5.2: value 3 with MAX to move; 6 with MIN to move.
file('aima.sexp', '; AIMA Fig. 5.2\n(a (b (b1) (b2) (b3))\n   (c (c1) (c2) (c3))\n   (d (d1) (d2) (d3)))\n');
file('aima.json', '{"b1": 3, "b2": 12, "b3": 8, "c1": 2, "c2": 4, "c3": 6, "d1": 14, "d2": 5, "d3": 2}');
file('aima.alist', '((b1 . 3) (b2 . 12) (b3 . 8) (c1 . 2) (c2 . 4) (c3 . 6) (d1 . 14) (d2 . 5) (d3 . 2))');
file('missing.json', '{"b1": 3}');
file('unclosed.sexp', '(a (b)\n   (c (d)\n');
file('bad.alist', '((b1 . 3)\n (b2 . twelve))');
// One label, b, heads two different subtrees: memoising on positions gives a wrong value.
file('relabel.sexp', '(r (b (x)) (c (d (b (y)))))');
file('relabel.json', '{"x": 0.1, "y": 0.9}');
// Issue 13: labels are strings, so 01 and 1 (and 1.0, 1e0, +1) are different positions.
file('zero-one.sexp', '(r (01))');
file('zero-one.json', '{"01":0.2,"1":0.9}');
file('ones.sexp', '(r (1.0) (1e0) (+1) (1))');
file('ones.alist', '((1.0 . 0.1) (1e0 . 0.2) (+1 . 0.3) (1 . 0.4))');
file('nim2.sexp', '(2 (1 (0)) (0))');

const run = (argv: string[], stdin?: string) => runCli(['minimax', ...argv], { cwd: dir, stdin });
const json = async (argv: string[]) => {
  const r = await run([...argv, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('saikoro minimax', () => {
  it("reproduces the notes' constant-1 result on nim(10)", async () => {
    const out = await json(['--nim', '10', '--eval', 'constant:1', '--method', 'plain']);
    expect(out).toEqual({
      estimateMyTurn: 1,
      estimateHisTurn: 1,
      principalVariation: { myTurn: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0], hisTurn: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0] },
      // nim(10) as a tree: T(n) = 1 + T(n-1) + T(n-2) + T(n-3), T(0..2) = 1, 2, 4 gives 600 nodes.
      nodesVisited: { myTurn: 600, hisTurn: 600 },
    });
  });

  it('nim under last-wins: A moving first at n loses exactly when n mod 4 = 0, by every method', async () => {
    for (const method of ['plain', 'alphabeta', 'memo']) {
      for (const n of [7, 8]) {
        const out = await json(['--nim', String(n), '--method', method]);
        expect([out.estimateMyTurn, out.estimateHisTurn]).toEqual(n % 4 === 0 ? [0, 1] : [1, 0]);
      }
    }
    const loses = await json(['--nim', '9', '--rule', 'last-loses']);
    expect([loses.estimateMyTurn, loses.estimateHisTurn]).toEqual([0, 1]);
    const big = await json(['--nim', '100000']);
    expect([big.estimateMyTurn, big.estimateHisTurn]).toEqual([0, 1]);
    expect(big.nodesVisited.myTurn).toBe(200_000);
  });

  it('a tree file with a table in JSON or as an alist, every method', async () => {
    for (const table of ['aima.json', 'aima.alist']) {
      for (const method of ['plain', 'alphabeta', 'memo']) {
        const out = await json(['--file', 'aima.sexp', '--eval', `table:${table}`, '--method', method]);
        expect([out.estimateMyTurn, out.estimateHisTurn]).toEqual([3, 6]);
        expect(out.principalVariation).toEqual({ myTurn: ['a', 'b', 'b1'], hisTurn: ['a', 'c', 'c3'] });
        expect(out.nodesVisited.myTurn).toBe(method === 'alphabeta' ? 11 : 13);
      }
    }
  });

  it('labels are the text written: (r (01)) with {"01":0.2,"1":0.9} is 0.2; 1.0, 1e0, +1 and 1 are four leaves (issue 13)', async () => {
    for (const method of ['plain', 'alphabeta', 'memo']) {
      const out = await json(['--file', 'zero-one.sexp', '--eval', 'table:zero-one.json', '--method', method]);
      expect([out.estimateMyTurn, out.estimateHisTurn]).toEqual([0.2, 0.2]);
      expect(out.principalVariation).toEqual({ myTurn: ['r', '01'], hisTurn: ['r', '01'] });
      const ones = await json(['--file', 'ones.sexp', '--eval', 'table:ones.alist', '--method', method]);
      expect([ones.estimateMyTurn, ones.estimateHisTurn]).toEqual([0.4, 0.1]);
      expect(ones.principalVariation).toEqual({ myTurn: ['r', 1], hisTurn: ['r', '1.0'] });
    }
    // nim positions read from a file still work with the nim rule; 00 is not the position 0.
    const nim = await json(['--file', 'nim2.sexp', '--eval', 'nim:last-wins']);
    expect([nim.estimateMyTurn, nim.estimateHisTurn]).toEqual([1, 0]);
    expect(nim.principalVariation.myTurn).toEqual([2, 0]);
    const zeros = await run(['--file', '-', '--eval', 'nim:last-wins'], '(1 (00))');
    expect([zeros.code, zeros.stderr]).toEqual([1, 'saikoro minimax: the nim rule only scores the terminal position 0, but the leaf 00 is not terminal\n']);
  });

  it('reads the tree from stdin with --file -, and prints a human summary', async () => {
    const r = await run(['--file', '-'], '(2 (1 (0)) (0))');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('estimateMyTurn  = 1   (A moves first; 4 nodes visited)');
    expect(r.stdout).toContain('principal variation: 2 1 0');
    const long = await run(['--nim', '200']);
    expect(long.stdout).toMatch(/estimateMyTurn  = 0 .*\n  principal variation: 200 199 196 195 .* \.\.\. 4 3 0 {2}\(101 positions; --json prints all\)/);
  });

  it('bad input exits 1 naming file, line and column', async () => {
    const unclosed = await run(['--file', 'unclosed.sexp']);
    expect(unclosed.code).toBe(1);
    expect(unclosed.stderr).toBe("saikoro minimax: unclosed.sexp:2:4: '(' is never closed: reached the end of input (2 lists are open)\n");
    const atom = await run(['--file', '-'], '(a\n (b) c)');
    expect([atom.code, atom.stderr]).toEqual([1, 'saikoro minimax: <stdin>:2:6: expected a subtree (a list) but found the atom c\n']);
    const empty = await run(['--file', '-'], '(a ())');
    expect(empty.stderr).toContain('<stdin>:1:4: empty list ()');
    const none = await run(['--file', 'nope.sexp']);
    expect([none.code, none.stderr]).toEqual([1, 'saikoro minimax: cannot read the tree file nope.sexp: no such file\n']);
    const table = await run(['--file', 'aima.sexp', '--eval', 'table:bad.alist']);
    expect([table.code, table.stderr]).toEqual([1, 'saikoro minimax: bad.alist:2:8: expected a number as the value\n']);
    const missing = await run(['--file', 'aima.sexp', '--eval', 'table:missing.json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no value for the leaf position b2');
    const cycle = await run(['--file', '-', '--method', 'memo'], '(p (q (p (x))))');
    expect(cycle.code).toBe(1);
    expect(cycle.stderr).toMatch(/position p with A to move is reached again .*use --method plain or alphabeta/);
    const cut = await run(['--file', '-', '--eval', 'nim:last-wins'], '(3 (2))');
    expect(cut.stderr).toContain('the leaf 2 is not terminal');
  });

  it('a search over the node limit exits 1 with advice', async () => {
    const plain = await run(['--nim', '40', '--method', 'plain']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/nim\(40\) has 5\.22e\+10 nodes as a tree, more than --max-nodes 100000000: use --method memo/);
    const ab = await run(['--nim', '30', '--method', 'alphabeta', '--max-nodes', '1000']);
    expect(ab.code).toBe(1);
    expect(ab.stderr).toMatch(/stopped after visiting 1001 nodes .*--max-nodes is 1000/);
  });

  it('warns when memoising on positions is unsound for a tree file, and gives the exact values', async () => {
    const memo = await run(['--file', 'relabel.sexp', '--eval', 'table:relabel.json', '--method', 'memo', '--json']);
    expect(memo.code).toBe(0);
    expect(JSON.parse(memo.stdout).estimateMyTurn).toBe(0.1); // what the memo computes
    expect(memo.stderr).toContain('positions repeat with different subtrees');
    expect(memo.stderr).toContain('the exact values are 0.9 and 0.1');
    const plain = JSON.parse((await run(['--file', 'relabel.sexp', '--eval', 'table:relabel.json', '--method', 'plain', '--json'])).stdout);
    expect([plain.estimateMyTurn, plain.estimateHisTurn]).toEqual([0.9, 0.1]);
    // A sound memo (AIMA's tree has distinct labels) says nothing.
    expect((await run(['--file', 'aima.sexp', '--eval', 'table:aima.json', '--method', 'memo'])).stderr).toBe('');
  });

  it('usage errors exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /exactly one of --file TREE and --nim N/],
      [['--nim', '3', '--file', 'aima.sexp'], /exactly one of/],
      [['--file', 'aima.sexp', '--rule', 'last-wins'], /--rule applies to --nim only/],
      [['--nim', '3', '--rule', 'first-wins'], /--rule: expected last-wins or last-loses, got "first-wins"/],
      [['--nim', '3', '--rule', 'last-wins', '--eval', 'nim:last-loses'], /--rule last-wins contradicts --eval nim:last-loses/],
      [['--nim=-1'], /--nim: must be 0 or more/],
      [['--nim', '2.5'], /--nim: expected an integer/],
      [['--nim', '3', '--method', 'fast'], /--method: expected one of plain, alphabeta, memo/],
      [['--nim', '3', '--eval', 'constant:x'], /constant:V: V must be a number/],
      [['--nim', '3', '--eval', 'random'], /--eval: expected constant:V, table:FILE or nim:RULE/],
      [['--nim', '3', '--depth', '2'], /Unknown option '--depth'/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: saikoro minimax (--file TREE | --nim N');
  });

  it('saikoro bench minimax --quick prints its figures as JSON', async () => {
    const r = await runCli(['bench', 'minimax', '--quick', '--json']);
    expect(r.code).toBe(0);
    const figures = JSON.parse(r.stdout);
    expect(figures.plain).toMatchObject({ n: 18, nodes: 78_652 });
    expect(figures.plain.nodesPerSecond).toBeGreaterThan(0);
    expect(figures.memo).toMatchObject({ n: 100_000, states: 200_000 });
    // The last size is the largest n plain minimax finished in the budget, which depends on the machine.
    expect(figures.pruning.map((p: { n: number }) => p.n)).toEqual(expect.arrayContaining([5, 10, 15, 18, 20]));
    for (const p of figures.pruning) {
      expect(p.alphabeta).toBeLessThan(p.plain);
      expect(p.memo).toBe(2 * p.n);
    }
    // nim(20) as a tree has 266,079 nodes (T(n) = 1 + T(n-1) + T(n-2) + T(n-3)).
    expect(figures.pruning.find((p: { n: number }) => p.n === 20).plain).toBe(266_079);
  });
});
