// Every solver and both N-Queens methods give bit for bit the results recorded before the run
// runtime was unified (tests/fixtures/regression/solver-results.jsonl, recorded on c716bdf with
// the old drivers; wall-clock fields zeroed; the two defaults barrier-ls and barrier-mo, which
// came later, recorded before the launcher refactor of issue 20). They run through the one
// driver and the kind registry, exactly as a worker runs them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trackConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { executeRun, executeRunSync, type NqueensMethod } from '../../../src-shared/runtime/kinds/index.ts';
import { solvers } from '../../../src-shared/solvers/registry.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import type { Termination } from '../../../src-shared/core/termination.ts';

interface DiceRow {
  kind: 'dice';
  track: TrackName;
  n: number;
  solver: string;
  seed: number;
  termination: Termination;
  result: SolverResult;
}
interface NqueensRow {
  kind: 'nqueens';
  solver: string;
  n: number;
  params: Record<string, number | string>;
  seed: number;
  termination: { maxEvaluations?: number };
  result: Record<string, unknown>;
}

const rows = readFileSync(new URL('../../fixtures/regression/solver-results.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as DiceRow | NqueensRow);
const diceRows = rows.filter((r): r is DiceRow => r.kind === 'dice');
const nqueensRows = rows.filter((r): r is NqueensRow => r.kind === 'nqueens');

const timeless = (r: SolverResult) => JSON.parse(JSON.stringify({ ...r, seconds: 0, trace: r.trace.map((t) => ({ ...t, seconds: 0 })) }));

describe('results recorded before the runtime refactor', () => {
  it('covers every solver on every track and both N-Queens methods', () => {
    expect(new Set(diceRows.map((r) => r.solver))).toEqual(new Set(solvers.map((s) => s.name)));
    expect(new Set(diceRows.map((r) => r.track))).toEqual(new Set(['so', 'mo2', 'mo3', 'mo5', 'mo7']));
    expect(new Set(nqueensRows.map((r) => r.solver))).toEqual(new Set(['nqueens-neural', 'nqueens-minconflicts']));
  });

  it.each(diceRows.map((r) => [`${r.solver} ${r.track} N=${r.n} seed ${r.seed}${r.termination.target !== undefined ? ' target' : ''}`, r] as const))(
    'dice: %s',
    (_name, row) => {
      const result = executeRunSync({
        kind: 'dice',
        solver: row.solver,
        params: {},
        seed: row.seed,
        config: trackConfig(row.track, row.n),
        termination: row.termination,
      });
      expect(timeless(result)).toEqual(row.result);
    },
  );

  it.each(nqueensRows.map((r) => [`${r.solver} N=${r.n} seed ${r.seed} ${JSON.stringify(r.params)}`, r] as const))('N-Queens: %s', async (_name, row) => {
    const method = row.solver.replace('nqueens-', '') as NqueensMethod;
    const limits = row.termination.maxEvaluations !== undefined ? { steps: row.termination.maxEvaluations } : undefined;
    const result = await executeRun(
      { kind: 'nqueens', method, n: row.n, params: row.params, seed: row.seed, ...(limits ? { limits } : {}) },
      { yieldToHost: () => Promise.resolve() },
    );
    // initialConflicts is newer than the recorded rows; tests/shared/problems/nqueens/solvers.test.ts checks it.
    const { kind: _kind, method: _method, initialConflicts: _initialConflicts, ...rest } = { ...result, seconds: 0 };
    expect({ ...rest, solver: row.solver }).toEqual({ ...row.result });
  });
});
