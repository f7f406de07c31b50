// `experiment add` does not compute a large instance's normalisation in the CLI process
// (issue 21: the main process did minutes of work, outside any memory limit): above N = 2,520
// a worker computes it, with exactly diceHvNormalisation's numbers; small instances are computed
// in the process as before (a fraction of a second), with the same numbers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type * as HvReference from '../../../src-shared/problems/dice/hv-reference.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { Project } from '../../../src-main/project/store.ts';
import { runCli } from './io.ts';

// Counts every call of the normalisation in this (the CLI's) process; workers are other processes.
const calls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src-shared/problems/dice/hv-reference.ts', async (importOriginal) =>
  (await import('../../helpers/normalisation-calls.ts')).countingHvReference(await importOriginal<typeof HvReference>(), calls),
);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-add-norm-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function expected(n: number) {
  const real = await vi.importActual<typeof HvReference>('../../../src-shared/problems/dice/hv-reference.ts');
  const { ideal, nadir, method } = real.diceHvNormalisation(trackConfig('mo2', n));
  return { ideal, nadir, method };
}

describe('experiment add', () => {
  it('has a worker compute the normalisation of an instance above N = 2,520, and computes small ones itself', async () => {
    const file = path.join(dir, 'study.saikoro');
    expect((await runCli(['project', 'new', file])).code).toBe(0);
    const spec = path.join(dir, 'spec.json');
    fs.writeFileSync(
      spec,
      JSON.stringify({
        name: 'mixed',
        instances: [
          { name: 'big', track: 'mo2', n: 2600 },
          { name: 'small', track: 'mo2', n: 60 },
        ],
        solvers: [{ name: 'random' }],
        seeds: [1],
        budget: { evaluations: 10 },
      }),
    );
    calls.count = 0;
    const added = await runCli(['experiment', 'add', file, '--spec', spec]);
    expect([added.code, added.stderr]).toEqual([0, '']);
    // Only the small instance was computed here.
    expect(calls.count).toBe(1);
    const project = Project.open(file);
    try {
      const instances = project.experiment('mixed')!.spec.instances;
      expect(instances.map((i) => i.normalisation)).toEqual([await expected(2600), await expected(60)]);
    } finally {
      project.close();
    }
  }, 120_000);
});
