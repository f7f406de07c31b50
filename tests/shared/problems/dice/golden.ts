// Loads the reference evaluator's golden cases (tests/fixtures/eccomp2020-reference.jsonl).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateConfig, type DiceConfig } from '../../../../src-shared/problems/dice/config.ts';

export interface GoldenCase {
  id: string;
  x: string;
  config: Omit<DiceConfig, 'n'>;
  features: number[];
  errors: number[];
  objectives: number[];
  constraints: number[];
}

export const goldenCases: GoldenCase[] = readFileSync(fileURLToPath(new URL('../../../fixtures/eccomp2020-reference.jsonl', import.meta.url)), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

export function goldenConfig(c: GoldenCase): DiceConfig {
  return validateConfig({ ...c.config, n: c.x.length });
}

/** The spec's tolerance for features, errors and objectives. */
export function closeValue(ours: number, ref: number): boolean {
  return Math.abs(ours - ref) <= 1e-9 * Math.max(1, Math.abs(ref));
}

/** The spec's tolerance for g_d, at the scale of 6^d. */
export function closeConstraint(ours: number, ref: number, d: number): boolean {
  return Math.abs(ours - ref) <= 1e-9 * Math.max(1, Math.abs(ref), 6 ** d);
}
