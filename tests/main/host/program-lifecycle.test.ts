// A solver program's process lifecycle (issue 28), in the sandbox (bubblewrap) and without it
// (as where bubblewrap is missing): every process of a program ends with its run, its end is
// told for what it is (an exit while a child holds stdout, a closed stdout, a Node program's
// uncaught error, an exit before any evaluation), a program that never reads its answers
// cannot make them pile up, a line cannot pass what Node can hold, and the program runs under
// its own memory and CPU limits. The programs are tests/fixtures/external/fake-solver.mjs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ANSWERS_HIGH_WATER_BYTES, DEFAULT_PROGRAM_CPU_SECONDS, launchProgram, telling, type LaunchOptions } from '../../../src-main/host/program-process.ts';
import { SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';
import { trackConfig, type DiceConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { executeRun, type DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import type { ProgramSpec } from '../../../src-shared/solvers/program/protocol.ts';
import { MAX_LINE_BYTES_CAP, maxBatchSequences, maxLineBytes } from '../../../src-shared/solvers/program/solver.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { requireTool } from '../../e2e/tools.ts';
import { killAll, processesWithArgument, waitFor } from '../processes.ts';

const FAKE = join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const work = mkdtempSync(join(tmpdir(), 'saikoro-lifecycle-'));
const records = mkdtempSync(join(tmpdir(), 'saikoro-lifecycle-records-'));
process.env[SHARE_VARIABLE] = records;
const leftovers: number[] = [];
afterEach(() => killAll(leftovers.splice(0)));
afterAll(() => {
  delete process.env[SHARE_VARIABLE];
  rmSync(work, { recursive: true, force: true });
  rmSync(records, { recursive: true, force: true });
});

const bwrap = requireTool('bubblewrap', '/usr/bin/bwrap', 'apt-get install bubblewrap');

function fake(mode: string, args: (string | number)[] = [], extra: Partial<ProgramSpec> = {}): ProgramSpec & { token: string } {
  const token = `fake-${randomBytes(6).toString('hex')}`;
  return {
    command: [process.execPath, FAKE, mode, ...args.map(String)],
    cwd: work,
    env: { FAKE_SOLVER_TOKEN: token, ...(extra.env ?? {}) },
    grace: 0.3,
    timeout: 10,
    ...extra,
    token,
  };
}

function run(spec: ProgramSpec, evaluations: number, options: LaunchOptions, config: DiceConfig = trackConfig('so', 30)): Promise<SolverResult> {
  const request: DiceRunRequest = { kind: 'dice', solver: 'fake', params: {}, seed: 1, config, termination: { maxEvaluations: evaluations }, program: spec };
  return executeRun(request, { environment: { launchProgram: (launch, limits) => launchProgram(launch, limits, options) } });
}

/** Fails the test if a process with the token is still there once the run has ended (and kills it). */
async function noProcessLeft(token: string): Promise<void> {
  // A process killed a moment ago may still be listed until it is reaped.
  await waitFor(`every process of the program (${token}) to end`, () => processesWithArgument(token).length === 0, { withinMs: 5000 }).catch(() => {
    leftovers.push(...processesWithArgument(token));
  });
  expect(processesWithArgument(token)).toEqual([]);
}

const modes: [string, LaunchOptions][] = [
  ['in the sandbox', { sandbox: 'auto' }],
  ['without a sandbox', { sandbox: 'off' }],
];

for (const [where, options] of modes) {
  const block = options.sandbox === 'auto' ? bwrap.describe : describe;
  block(`a solver program's end, ${where}`, () => {
    it('an exit with code 3 while a child holds stdout is that exit, not a hang; the child ends with the run', async () => {
      const spec = fake('exit3child', [], { timeout: 30 });
      await expect(run(spec, 100, options)).rejects.toThrow(
        /^the program exited with code 3 after 2 of 100 evaluations; its stderr ends: the fake solver gave up, its child still holding stdout$/,
      );
      await noProcessLeft(spec.token);
    });

    it('a program that closes its stdout and stays is stopped by Saikoro, and the reason says so', async () => {
      // In the sandbox bwrap holds the same stdout: the program looks like one that stopped asking.
      const reason =
        options.sandbox === 'auto'
          ? /^the program sent no request for 1 s \(its timeout; a hang\); it was stopped$/
          : /^the program closed its stdout after 2 of 100 evaluations but did not exit within 300 ms; Saikoro stopped it \(SIGTERM\)$/;
      await expect(run(fake('closestdout', [], { timeout: 1 }), 100, options)).rejects.toThrow(reason);
    });

    it("a Node program's uncaught error is the hint, not Node's version line", async () => {
      await expect(run(fake('throw'), 100, options)).rejects.toThrow(
        /^the program exited with code 1 after 2 of 100 evaluations; its stderr ends: Error: the fake solver threw$/,
      );
    });

    it('a program that exits 0 before evaluating anything fails its run, saying so', async () => {
      await expect(run(fake('exit0now'), 100, options)).rejects.toThrow(
        /^the program exited \(code 0\) without evaluating anything of its 100 evaluations: a run that evaluated nothing has failed$/,
      );
    });

    it('children in its process group and in a session of their own end with the run', async () => {
      const spec = fake('children');
      const result = await run(spec, 200, options);
      expect(result.evaluations).toBe(200);
      await noProcessLeft(spec.token);
    });

    it('a program that never reads its answers is stopped once they pile up, with the amount unread', async () => {
      const config = trackConfig('so', 30);
      const error = await run(fake('deaf', [], { timeout: 1 }), 1_000_000, options, config).then(
        () => null,
        (e: Error) => e,
      );
      const m = /^the program did not read its answers for 1 s \(([\d,]+) bytes of answers unread; its timeout; a hang\); it was stopped$/.exec(
        error?.message ?? '',
      );
      expect(m, error?.message).not.toBeNull();
      // At most the high-water mark and the answer that passed it (1000 results of about 200 bytes).
      const unread = Number(m![1].replace(/,/g, ''));
      expect(unread).toBeGreaterThan(ANSWERS_HIGH_WATER_BYTES);
      expect(unread).toBeLessThan(ANSWERS_HIGH_WATER_BYTES + 400 * 1024);
    });

    it('the program runs under its own memory limit and a CPU-time limit', async () => {
      const result = await run(fake('limits'), 30, { ...options, limits: { memoryMb: 700 } });
      const bytes = 700 * 1024 * 1024;
      expect(result.log).toContain(`Max data size ${bytes} ${bytes} bytes`);
      expect(result.log).toContain(`Max cpu time ${DEFAULT_PROGRAM_CPU_SECONDS} ${DEFAULT_PROGRAM_CPU_SECONDS + 5} seconds`);
    });
  });
}

describe('requests and lines', () => {
  it('an item of a request that is not a string gets its own error and costs nothing; the run goes on', async () => {
    const config = trackConfig('so', 12);
    const good = ['123456123456', '654321654321'];
    const record = join(records, 'nonstring.jsonl');
    const spec = fake('list', [], { env: { FAKE_SOLVER_RECORD: record, FAKE_SOLVER_SEQUENCES: JSON.stringify([[good[0], 123, null, { x: 1 }, good[1]]]) } });
    const result = await run(spec, 10, { sandbox: 'auto' }, config);
    expect(result.evaluations).toBe(2);
    const answer = readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { results?: unknown[] })
      .find((m) => m.results);
    const shape = (x: string) => {
      const e = evaluateDice(x, config);
      return { objective: e.objectives[0], constraint: e.constraints, feasible: e.feasible };
    };
    expect(answer!.results).toEqual([
      shape(good[0]),
      { error: 'the sequence must be a string of digits 1-6, got number' },
      { error: 'the sequence must be a string of digits 1-6, got null' },
      { error: 'the sequence must be a string of digits 1-6, got object' },
      shape(good[1]),
    ]);
  });

  it('the line limit stays below the longest string Node can hold, for every N up to 10^7', () => {
    const longestString = (2 ** 29 - 24) as number;
    for (const n of [1, 840, 8_176, 524_271, 524_272, 600_000, 1_000_000, 10_000_000]) {
      expect(maxLineBytes(n)).toBeLessThanOrEqual(MAX_LINE_BYTES_CAP);
      expect(MAX_LINE_BYTES_CAP).toBeLessThan(longestString);
      expect(maxBatchSequences(n)).toBeGreaterThanOrEqual(1);
    }
    // 8 MiB at N = 840: about 9,900 sequences a request, not 1024.
    expect(maxBatchSequences(840)).toBe(9_950);
    expect(maxBatchSequences(10_000_000)).toBe(13);
  });

  it('at N = 600,000 a line longer than the cap is a flood, not a crash', async () => {
    // Before the cap the limit was 1024 x (N + 16) bytes (586 MiB), past the longest string
    // (512 Mi characters): a 540 MiB line crashed the process with ERR_STRING_TOO_LONG.
    const error = await run(fake('bigline', [540 * 1024 * 1024]), 10, { sandbox: 'auto' }, trackConfig('so', 600_000)).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe(`the program's line 1 is longer than the limit of 128 MiB (a flood); it was stopped`);
  });
});

describe("the hint from a program's stderr", () => {
  it("is Node's error line, not its version trailer; a Python traceback's last line; else the last line", () => {
    const node = [
      'file:///w/solver.mjs:3',
      "throw new Error('boom');",
      '^',
      '',
      'Error: boom',
      '    at file:///w/solver.mjs:3:7',
      '    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)',
      '',
      'Node.js v20.20.2',
    ];
    expect(telling(node)).toBe('Error: boom');
    const withFields = [
      "Error: Cannot find module '/w/x.mjs'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15) {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      '',
      'Node.js v20.20.2',
    ];
    expect(telling(withFields)).toBe("Error: Cannot find module '/w/x.mjs'");
    expect(telling(['Traceback (most recent call last):', '  File "ga.py", line 3, in <module>', 'ValueError: bad'])).toBe('ValueError: bad');
    expect(telling(['generation 3', 'giving up', ''])).toBe('giving up');
    expect(telling([])).toBeNull();
  });
});
