import { trackConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import type { DiceState } from '../../../src-shared/problems/dice/incremental.ts';
import { DiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { totalViolation } from '../../../src-shared/solvers/constraints.ts';
import type { DiceValues } from '../../../src-shared/problems/dice/evaluate.ts';

/** One counted objective computation, as the problem saw it: the objectives and the total normalised violation. */
export interface Logged {
  F: number[];
  violation: number;
}

/**
 * A dice problem that counts, independently of the solvers' own bookkeeping, every objective
 * computation it performs: full evaluations, states built, resets, peeks, and commits; and logs
 * the values of each counted one (not commits) in the order they were computed.
 */
export class CountingProblem extends DiceProblem {
  fullEvaluations = 0;
  statesBuilt = 0;
  resets = 0;
  peeks = 0;
  sets = 0;
  readonly log: Logged[] = [];

  constructor(track: TrackName, n: number) {
    super(trackConfig(track, n));
  }

  override evaluate(x: Uint8Array, F: Float64Array, G: Float64Array): void {
    this.fullEvaluations++;
    super.evaluate(x, F, G);
    this.log.push({ F: Array.from(F), violation: totalViolation(G, this.constraintScales) });
  }

  private logValues(values: DiceValues): void {
    this.log.push({ F: Array.from(values.objectives), violation: totalViolation(values.constraints, this.constraintScales) });
  }

  override createState(x: Uint8Array): DiceState {
    this.statesBuilt++;
    const state = super.createState(x);
    this.logValues(state.values);
    // Calls from inside the state (peekSwap's own set) reach the target, not the proxy.
    return new Proxy(state, {
      get: (target, key) => {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'peekSet' || key === 'peekSwap') this.peeks++;
          else if (key === 'reset') this.resets++;
          else if (key === 'set' || key === 'swap') this.sets++;
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (key === 'peekSet' || key === 'peekSwap') this.logValues(out as DiceValues);
          else if (key === 'reset') this.logValues(target.values);
          return out;
        };
      },
    });
  }

  /** Objective computations that are candidates by construction (everything but commits). */
  counted(): number {
    return this.fullEvaluations + this.statesBuilt + this.resets + this.peeks;
  }
}

/** The result without its wall-clock fields, for bit-identity checks. */
export function timeless(r: SolverResult): unknown {
  return { ...r, seconds: 0, trace: r.trace.map((t) => ({ ...t, seconds: 0 })) };
}
