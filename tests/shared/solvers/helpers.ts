import { trackConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import type { DiceState } from '../../../src-shared/problems/dice/incremental.ts';
import { DiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';

/**
 * A dice problem that counts, independently of the solvers' own bookkeeping, every objective
 * computation it performs: full evaluations, states built, resets, peeks, and commits.
 */
export class CountingProblem extends DiceProblem {
  fullEvaluations = 0;
  statesBuilt = 0;
  resets = 0;
  peeks = 0;
  sets = 0;

  constructor(track: TrackName, n: number) {
    super(trackConfig(track, n));
  }

  override evaluate(x: Uint8Array, F: Float64Array, G: Float64Array): void {
    this.fullEvaluations++;
    super.evaluate(x, F, G);
  }

  override createState(x: Uint8Array): DiceState {
    this.statesBuilt++;
    const state = super.createState(x);
    // Calls from inside the state (peekSwap's own set) reach the target, not the proxy.
    return new Proxy(state, {
      get: (target, key) => {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (key === 'peekSet' || key === 'peekSwap') this.peeks++;
          else if (key === 'reset') this.resets++;
          else if (key === 'set' || key === 'swap') this.sets++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
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
