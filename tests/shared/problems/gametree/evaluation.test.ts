import { describe, expect, it } from 'vitest';
import {
  constantEval,
  fromMoverPerspective,
  EvaluationError,
  nimRuleEval,
  parseEvalTable,
  tableEval,
  TreeSyntaxError,
} from '../../../../src-shared/problems/gametree/index.ts';

describe('evaluation functions', () => {
  it("constant: the notes' f = 1 scores every leaf 1", () => {
    const f = constantEval(1);
    expect([f(0, 'A'), f('x', 'B'), f(7, 'A')]).toEqual([1, 1, 1]);
  });

  it('table from JSON: looks positions up by their text', () => {
    const table = parseEvalTable('{"a": 0.25, "12": 1, "-3": 0}');
    const f = tableEval(table);
    expect([f('a', 'A'), f(12, 'B'), f(-3, 'A')]).toEqual([0.25, 1, 0]);
    expect(() => f('zz', 'A')).toThrow(/no value for the leaf position zz/);
    expect(tableEval(table, { fallback: 0.5 })('zz', 'A')).toBe(0.5);
  });

  it('table from an S-expression association list: dotted pairs and two-element lists, with comments', () => {
    const table = parseEvalTable('; leaf values\n((a . 0.3)\n (b 0.7) ; list form\n (12 . 1))');
    expect([...table.entries()]).toEqual([
      ['a', 0.3],
      ['b', 0.7],
      ['12', 1],
    ]);
  });

  it('association-list keys are the text written: 01 and 1 are two keys; values may be any numeral (issue 13)', () => {
    const table = parseEvalTable('((01 . 0.2) (1 . 0.9) (1.0 . 1.0) (1e0 1e-1) (+1 . +.5))');
    expect([...table.entries()]).toEqual([
      ['01', 0.2],
      ['1', 0.9],
      ['1.0', 1],
      ['1e0', 0.1],
      ['+1', 0.5],
    ]);
  });

  it('bad tables: JSON problems name the key, association-list problems give line and column', () => {
    expect(() => parseEvalTable('{"a": 0.3,}')).toThrow(EvaluationError);
    expect(() => parseEvalTable('{"a": "high"}')).toThrow(/value for "a" is not a finite number/);
    expect(() => parseEvalTable('[1, 2]')).toThrow(TreeSyntaxError);
    const cases: Array<[string, number, number, RegExp]> = [
      ['((a . 0.3)\n (b . high))', 2, 7, /expected a number as the value/],
      ['((a . 0.3)\n b)', 2, 2, /expected an entry \(position \. value\) but found the atom b/],
      ['((a . 0.3) (b 1 2 3))', 1, 12, /expected an entry/],
      ['((a . 0.3)', 1, 1, /never closed/],
      ['', 1, 1, /no evaluation table found/],
    ];
    for (const [text, line, column, reason] of cases) {
      try {
        parseEvalTable(text);
        throw new Error(`accepted ${text}`);
      } catch (e) {
        expect(e).toBeInstanceOf(TreeSyntaxError);
        const err = e as TreeSyntaxError;
        expect([err.line, err.column]).toEqual([line, column]);
        expect(err.reason).toMatch(reason);
      }
    }
  });

  it('nim rule: at 0 stones the player to move has lost (last-wins) or won (last-loses)', () => {
    const wins = nimRuleEval('last-wins');
    expect([wins(0, 'A'), wins(0, 'B')]).toEqual([0, 1]);
    const loses = nimRuleEval('last-loses');
    expect([loses(0, 'A'), loses(0, 'B')]).toEqual([1, 0]);
    expect(() => wins(5, 'A')).toThrow(/leaf 5 is not terminal/);
    expect(nimRuleEval('last-wins', { nonTerminal: 0.5 })(5, 'A')).toBe(0.5);
  });

  it("the mover's perspective (the notes' prose: f = the mover's chance) gives the nim rule", () => {
    // Under last-wins the player to move at 0 stones has lost: the mover's chance there is 0.
    const rule = nimRuleEval('last-wins');
    const mover = fromMoverPerspective(() => 0);
    expect([mover(0, 'A'), mover(0, 'B')]).toEqual([rule(0, 'A'), rule(0, 'B')]);
    expect(fromMoverPerspective(() => 0.3)('x', 'B')).toBeCloseTo(0.7, 15);
  });
});
