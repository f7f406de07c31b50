/**
 * One N-Queens method run to completion in this thread, straight on the network or
 * min-conflicts (no driver, no snapshots), with its wall time: what the N-Queens benchmark
 * measures, and the outcome `saikoro nqueens` prints.
 */
import { MinConflicts, type MinConflictsParams } from './minconflicts.ts';
import { NeuralNet, type NeuralParams } from './neural.ts';

export interface NqueensOutcome {
  n: number;
  method: 'neural' | 'minconflicts';
  solved: boolean;
  steps: number;
  seconds: number;
  queens: ArrayLike<number> | null;
  params: NeuralParams | MinConflictsParams;
  failure?: string;
}

// performance.now where there is one (Node, browsers), else Date.now; src-shared has no DOM or Node types.
const host = globalThis as unknown as { performance?: { now(): number } };
const now = (): number => (host.performance ? host.performance.now() : Date.now());

/** Runs one method to completion; shared by the CLI and the benchmark. */
export function solveNqueens(method: 'neural' | 'minconflicts', params: NeuralParams | MinConflictsParams, seed: number): NqueensOutcome {
  const start = now();
  if (method === 'neural') {
    const r = new NeuralNet(params as NeuralParams, seed).run();
    return { n: params.n, method, solved: r.solved, steps: r.steps, seconds: (now() - start) / 1000, queens: r.queens, params, ...(r.failure ? { failure: r.failure } : {}) };
  }
  const r = new MinConflicts(params as MinConflictsParams, seed).run();
  return { n: params.n, method, solved: r.solved, steps: r.steps, seconds: (now() - start) / 1000, queens: r.solved ? r.queens : null, params, ...(r.solved ? {} : { failure: `${r.conflicts} attacking pairs left` }) };
}
