// The memory a run's settings will need, estimated before it starts: the terms that grow with N
// for every solver that holds many sequences, and the refusal that names them.
import { describe, expect, it } from 'vitest';
import {
  estimateRunMemory,
  EVALUATOR_BYTES_PER_POSITION,
  MB,
  memoryRefusal,
  SEQUENCE_OVERHEAD_BYTES,
  STATE_BYTES_PER_POSITION,
} from '../../../src-shared/solvers/memory.ts';
import { resolveParams } from '../../../src-shared/core/params.ts';
import { createDiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { solvers as SOLVERS } from '../../../src-shared/solvers/registry.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';

const shape = (solver: string, params: Record<string, number>, n: number, objectiveCount = 1) => ({ solver, params, n, objectiveCount });
const base = (n: number) => (EVALUATOR_BYTES_PER_POSITION + STATE_BYTES_PER_POSITION) * n;

describe('estimateRunMemory', () => {
  it('counts parents and offspring of the generational solvers, N bytes each', () => {
    const n = 1_000_000;
    expect(estimateRunMemory(shape('ga', { populationSize: 100 }, n)).bytes).toBe(base(n) + 200 * (n + SEQUENCE_OVERHEAD_BYTES));
    expect(estimateRunMemory(shape('nsga2', { populationSize: 92 }, n, 2)).bytes).toBe(base(n) + 184 * (n + SEQUENCE_OVERHEAD_BYTES));
    // NSGA-III's automatic population: 91 directions at M = 3 (H = 12), rounded up to 92.
    expect(estimateRunMemory(shape('nsga3', { populationSize: 0, divisions: 0 }, n, 3)).bytes).toBe(base(n) + 184 * (n + SEQUENCE_OVERHEAD_BYTES));
    expect(estimateRunMemory(shape('nsga3', { populationSize: 0, divisions: 4 }, n, 3)).bytes).toBe(base(n) + 2 * 16 * (n + SEQUENCE_OVERHEAD_BYTES));
  });

  it('counts a batch of random search, and a state per subproblem of moead-ls and barrier-mo', () => {
    const n = 500_000;
    expect(estimateRunMemory(shape('random', { batch: 1000 }, n)).bytes).toBe(base(n) + 1000 * (n + SEQUENCE_OVERHEAD_BYTES));
    // moead-ls at M = 2 refines up to H = 19: 20 subproblems.
    expect(estimateRunMemory(shape('moead-ls', { maxDivisions: 0 }, n, 2)).bytes).toBe(
      base(n) + 20 * (STATE_BYTES_PER_POSITION * n + n + SEQUENCE_OVERHEAD_BYTES),
    );
    // barrier-mo at M = 3, H = 2: 6 subproblems.
    expect(estimateRunMemory(shape('barrier-mo', { divisions: 2 }, n, 3)).bytes).toBe(
      base(n) + 6 * (STATE_BYTES_PER_POSITION * n + n + SEQUENCE_OVERHEAD_BYTES),
    );
  });

  it('a single-trajectory solver holds one state', () => {
    for (const solver of ['hill-climbing', 'ils', 'barrier-ls', 'annealing', 'tabu', 'steepest'])
      expect(estimateRunMemory(shape(solver, {}, 1e7)).bytes).toBe(base(1e7));
  });

  it("every solver's defaults at N = 10^6 fit in 2 GB, so an ordinary machine runs them", () => {
    for (const info of SOLVERS) {
      for (const track of info.objectives === 'single' ? (['so'] as const) : (['mo2', 'mo3', 'mo7'] as const)) {
        const problem = createDiceProblem(trackConfig(track, 1_000_000));
        const params = resolveParams(info.name, info.params, {}, problem);
        expect(
          estimateRunMemory({ solver: info.name, params, n: 1_000_000, objectiveCount: problem.objectiveCount }).bytes,
          `${info.name} ${track}`,
        ).toBeLessThan(2048 * MB);
      }
    }
  });
});

describe('memoryRefusal', () => {
  it("refuses the issue's settings at any ordinary limit, naming what makes them large", () => {
    // 72 bytes x 10^7 + 200,000 x (10^7 + 512) bytes = 1,908,132.9 MB, shown rounded up.
    expect(memoryRefusal(shape('ga', { populationSize: 100000 }, 10_000_000), 16_384)).toBe(
      "ga at N = 10,000,000 needs about 1,908,133 MB (populationSize 100000: 200000 sequences (parents and offspring)), more than the worker's memory limit of 16,384 MB",
    );
    expect(memoryRefusal(shape('nsga2', { populationSize: 100000 }, 1_000_000, 2), 16_384)).toMatch(/^nsga2 at N = 1,000,000 needs about 190,\d{3} MB/);
  });

  it('lets through what fits, and everything without a limit', () => {
    expect(memoryRefusal(shape('ga', { populationSize: 100 }, 1_000_000), 1024)).toBeNull();
    expect(memoryRefusal(shape('ga', { populationSize: 100000 }, 10_000_000), null)).toBeNull();
  });
});
