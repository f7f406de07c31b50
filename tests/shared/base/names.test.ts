// One rule for names (src-shared/base/names.ts) at every door that takes one: an experiment
// spec's names and labels, a program run's name over the API (startRun), a competition's
// entrant (saikoro solve --name: tests/main/cli/solve-command.test.ts). Each door accepts and
// refuses exactly the same names, and says the same rule.
import { describe, expect, it } from 'vitest';
import { isName, NAME_RULE } from '../../../src-shared/base/names.ts';
import { validateSpec } from '../../../src-shared/experiments/spec.ts';
import { checkEntrantName } from '../../../src-shared/competition/competition.ts';
import { planRun } from '../../../src-main/app/runs.ts';

const GOOD = ['a', 'A', '0', 'my_ga', 'ga-2.1+x', 'a'.repeat(64), '9lives'];
const BAD = ['', '-x', '.x', '_x', '+x', 'a b', 'a/b', 'é', 'a'.repeat(65), 'x\n'];

/** What each door says of `name`: null when it takes it, else the refusal's rule. */
function doors(name: string): Record<string, Promise<string | null>> {
  const refusal = (f: () => unknown) =>
    Promise.resolve()
      .then(f)
      .then(
        () => null,
        (e: Error & { rule?: string }) => e.rule ?? e.message,
      );
  return {
    spec: refusal(() =>
      validateSpec({ name, instances: [{ name: 'i', track: 'so', n: 20 }], solvers: [{ name: 'random' }], seeds: [1], budget: { evaluations: 10 } }),
    ),
    label: refusal(() =>
      validateSpec({
        name: 'e',
        instances: [{ name: 'i', track: 'so', n: 20 }],
        solvers: [{ name: 'random', label: name }],
        seeds: [1],
        budget: { evaluations: 10 },
      }),
    ),
    entrant: refusal(() => checkEntrantName(name)),
    program: refusal(() =>
      planRun({ kind: 'dice', track: 'so', n: 20, seed: 1, evaluations: 10, solver: name, program: { command: ['node', 'x.mjs'], cwd: '/tmp' } } as never),
    ),
  };
}

describe('names: one rule at every door', () => {
  it('the rule', () => {
    expect(GOOD.filter((n) => !isName(n))).toEqual([]);
    expect(BAD.filter((n) => isName(n))).toEqual([]);
    expect(isName(7)).toBe(false);
  });

  it('every door takes the good names and refuses the bad ones with the same rule', async () => {
    for (const name of GOOD) {
      const d = doors(name);
      for (const [door, answer] of Object.entries(d)) expect(await answer, `${door} takes ${JSON.stringify(name)}`).toBeNull();
    }
    for (const name of BAD) {
      const d = doors(name);
      for (const [door, answer] of Object.entries(d)) expect(await answer, `${door} refuses ${JSON.stringify(name)}`).toContain(`${NAME_RULE}, got `);
    }
  });
});
