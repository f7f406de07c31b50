// The external-solver protocol end to end with real programs (tests/fixtures/external/
// fake-solver.mjs under this Node): what a program is sent, what it is answered, the budget
// counted by Saikoro and independently by the program, and every way a program can misbehave,
// each failing its run with a reason that names the line or the cause.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchProgram } from '../../../src-main/host/program-process.ts';
import { trackConfig, diceConfig, type DiceConfig, type TrackName } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { RunClock, RunController } from '../../../src-shared/core/control.ts';
import { drive } from '../../../src-shared/core/driver.ts';
import { executeRun, type DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import type { ProgramSpec } from '../../../src-shared/solvers/program/protocol.ts';
import { givenProgramSolver } from '../../../src-shared/solvers/program/solver.ts';
import { SolverRun } from '../../../src-shared/solvers/solver-run.ts';
import type { Snapshot, SolverResult } from '../../../src-shared/solvers/types.ts';
import { dominates } from '../../../src-shared/metrics/dominance.ts';
import { CountingProblem, timeless } from '../../shared/solvers/helpers.ts';
import { Random } from '../../../src-shared/random.ts';
import { waitFor } from '../processes.ts';
import { SHARE_VARIABLE } from '../../../src-main/host/sandbox.ts';

const FAKE = join(import.meta.dirname, '../../fixtures/external/fake-solver.mjs');
const dir = mkdtempSync(join(tmpdir(), 'saikoro-external-'));
// The programs' folder (copied into each sandbox), and where they record what they receive:
// a folder every sandboxed program may write (sandbox.ts), for these tests of the protocol.
const work = mkdtempSync(join(tmpdir(), 'saikoro-external-work-'));
process.env[SHARE_VARIABLE] = dir;
afterAll(() => {
  delete process.env[SHARE_VARIABLE];
  rmSync(dir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});
let files = 0;

/** A program entry for the fake solver in `mode`, recording what it receives to a fresh file. */
function fake(
  mode: string,
  args: (string | number)[] = [],
  extra: Partial<ProgramSpec> & { sequences?: string[][] } = {},
): { spec: ProgramSpec; record: string } {
  const record = join(dir, `record-${files++}.jsonl`);
  const { sequences, ...rest } = extra;
  const env: Record<string, string> = { FAKE_SOLVER_RECORD: record, ...(sequences ? { FAKE_SOLVER_SEQUENCES: JSON.stringify(sequences) } : {}) };
  return { spec: { command: [process.execPath, FAKE, mode, ...args.map(String)], cwd: work, env, grace: 0.3, timeout: 5, ...rest }, record };
}

type Received = {
  protocol?: number;
  problem?: Record<string, unknown>;
  results?: Record<string, unknown>[];
  remaining?: number;
  stop?: string;
  signal?: string;
  seed?: number;
  budget?: unknown;
};

function received(record: string): Received[] {
  let text = '';
  try {
    text = readFileSync(record, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Received);
}
const answers = (record: string) => received(record).filter((m) => m.results !== undefined);

function request(
  spec: ProgramSpec,
  evaluations: number,
  options: { config?: DiceConfig; seed?: number; target?: number; snapshotIntervalMs?: number } = {},
): DiceRunRequest {
  const termination = { maxEvaluations: evaluations, ...(options.target !== undefined ? { target: options.target } : {}) };
  return {
    kind: 'dice',
    solver: 'fake',
    params: {},
    seed: options.seed ?? 1,
    config: options.config ?? trackConfig('so', 50),
    termination,
    program: spec,
    ...(options.snapshotIntervalMs ? { snapshotIntervalMs: options.snapshotIntervalMs } : {}),
  };
}

function run(
  spec: ProgramSpec,
  evaluations: number,
  options: Parameters<typeof request>[2] & { control?: RunController; onSnapshot?: (s: Snapshot) => void } = {},
): Promise<SolverResult> {
  return executeRun(request(spec, evaluations, options), { environment: { launchProgram }, control: options.control, onSnapshot: options.onSnapshot });
}

/** A program run on a problem that counts its own evaluations, stepped by at most `maxStep`. */
async function countedRun(
  track: TrackName,
  spec: ProgramSpec,
  budget: number,
  seed: number,
  maxStep = 1000,
): Promise<{ result: SolverResult; problem: CountingProblem }> {
  const problem = new CountingProblem(track, 50);
  const clock = new RunClock();
  const solverRun = new SolverRun(
    problem,
    givenProgramSolver('fake', spec, launchProgram, problem.config),
    {},
    seed,
    { maxEvaluations: budget },
    { clock, maxStepEvaluations: maxStep },
  );
  const result = await drive(solverRun, solverRun.termination, { clock });
  return { result, problem };
}

function expectEvaluatorShape(result: Record<string, unknown>, x: string, config: DiceConfig): void {
  const e = evaluateDice(x, config);
  expect(result).toEqual({ objective: e.objectives.length === 1 ? e.objectives[0] : e.objectives, constraint: e.constraints, feasible: e.feasible });
}

describe('a solver program gets the checks every solver gets', () => {
  it('the same seed gives a bit-identical result, another seed another one', async () => {
    const a = await countedRun('so', fake('random', [9]).spec, 300, 11);
    const b = await countedRun('so', fake('random', [9]).spec, 300, 11);
    const c = await countedRun('so', fake('random', [9]).spec, 300, 12);
    expect(timeless(a.result)).toEqual(timeless(b.result));
    expect(JSON.stringify(timeless(c.result))).not.toEqual(JSON.stringify(timeless(a.result)));
  });

  it('does not depend on how the driver cuts the run into steps (a batch larger than a step is answered once)', async () => {
    const small = fake('random', [10]);
    const large = fake('random', [10]);
    const s = (await countedRun('mo2', small.spec, 205, 5, 7)).result;
    const l = (await countedRun('mo2', large.spec, 205, 5, 1000)).result;
    expect(s.front).toEqual(l.front);
    expect(s.best).toEqual(l.best);
    expect(s.evaluations).toBe(205);
    expect(l.evaluations).toBe(205);
    // The program saw the same answers either way: 20 whole batches of 10, then 5 of the 21st.
    const sa = answers(small.record);
    expect(sa).toEqual(answers(large.record));
    expect(sa.map((a) => a.results!.length)).toEqual([...Array(20).fill(10), 5]);
  });

  it('spends exactly the budget: counted by the run, by the problem and by the program', async () => {
    const f = fake('random', [7]);
    const { result, problem } = await countedRun('so', f.spec, 100, 3);
    expect(result.evaluations).toBe(100);
    expect(result.stopReason).toBe('evaluations');
    expect(problem.fullEvaluations).toBe(100);
    const got = answers(f.record);
    expect(got.reduce((s, a) => s + a.results!.length, 0)).toBe(100);
    // 14 whole batches of 7 (98), then the 15th cut to the 2 that fit, with the stop.
    expect(got.length).toBe(15);
    expect(got.slice(0, 14).every((a) => a.results!.length === 7 && a.stop === undefined)).toBe(true);
    expect(got[14]).toMatchObject({ remaining: 0, stop: 'budget' });
    expect(got[14].results!.length).toBe(2);
    expect(got.map((a) => a.remaining)).toEqual([...Array.from({ length: 14 }, (_, i) => 100 - 7 * (i + 1)), 0]);
    expect(result.program!.exit).toEqual({ code: 0, signal: null, how: 'exited' });
  });

  it('reports values equal to a fresh full evaluation', async () => {
    const { result, problem } = await countedRun('so', fake('random', [5]).spec, 60, 4);
    const e = evaluateDice(result.best!.x, problem.config);
    expect(result.best!.objectives).toEqual(e.objectives);
    expect(result.best!.constraints).toEqual(e.constraints);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});

describe('the protocol', () => {
  it('sends the problem, the budget and the seed first; config and track only when not blind', async () => {
    const config = trackConfig('mo3', 30);
    const open = fake('random', [4]);
    const blind = fake('random', [4], { blind: true });
    await run(open.spec, 8, { config, seed: 42 });
    await run(blind.spec, 8, { config, seed: 42 });
    const [hello] = received(open.record);
    expect(hello).toEqual({
      protocol: 1,
      problem: { n: 30, lower: 1, upper: 6, objectives: 3, constraints: 12, track: 'mo3', config: { ...config } },
      budget: { evaluations: 8 },
      seed: 42,
    });
    expect(received(blind.record)[0]).toEqual({
      protocol: 1,
      problem: { n: 30, lower: 1, upper: 6, objectives: 3, constraints: 12 },
      budget: { evaluations: 8 },
      seed: 42,
    });
  });

  it('keeps the bands from a program when the run is blind (DiceRunRequest.blind), whatever its entry says', async () => {
    const config = trackConfig('so', 30);
    const entry = fake('random', [4]);
    const result = await executeRun({ ...request(entry.spec, 8, { config, seed: 5 }), blind: true }, { environment: { launchProgram } });
    expect(received(entry.record)[0]).toEqual({
      protocol: 1,
      problem: { n: 30, lower: 1, upper: 6, objectives: 1, constraints: 12 },
      budget: { evaluations: 8 },
      seed: 5,
    });
    expect(result.program?.blind).toBe(true);
    expect(result.evaluations).toBe(8);
  });

  it("answers in the reference evaluator's shape, equal to the evaluator's values (SO and MO)", async () => {
    const random = Random.fromSeed(8);
    const sequences = (n: number, k: number) => Array.from({ length: k }, () => Array.from({ length: n }, () => random.int(1, 6)).join(''));
    for (const [track, n] of [
      ['so', 50],
      ['mo5', 40],
    ] as const) {
      const config = trackConfig(track, n);
      const batches = [sequences(n, 4), sequences(n, 3)];
      const f = fake('list', [], { sequences: batches });
      const result = await run(f.spec, 100, { config });
      expect(result.evaluations).toBe(7);
      const got = answers(f.record);
      expect(got.length).toBe(2);
      got.forEach((a, b) => a.results!.forEach((r, i) => expectEvaluatorShape(r, batches[b][i], config)));
      expect(got.map((a) => a.remaining)).toEqual([96, 93]);
    }
  });

  it('answers an invalid sequence with an error and charges no evaluation for it', async () => {
    const f = fake('invalid');
    const result = await run(f.spec, 30);
    expect(result.evaluations).toBe(30);
    const got = answers(f.record);
    // 3 valid sequences of 5 per request: 10 requests use the budget exactly.
    expect(got.length).toBe(10);
    expect(got.map((a) => a.remaining)).toEqual(Array.from({ length: 10 }, (_, i) => 30 - 3 * (i + 1)));
    for (const a of got) {
      expect(a.results!.length).toBe(5);
      expect(a.results![1]).toEqual({ error: 'the sequence has 49 characters, expected N = 50' });
      expect(a.results![3]).toEqual({ error: 'character "7" at position 1 is not a die face 1-6' });
      expect(a.results![0]).toHaveProperty('objective');
    }
    expect(got[9].stop).toBe('budget');
  });

  it('keeps the best feasible solution of everything evaluated, ties to the first (SO)', async () => {
    // Without constraints every sequence is feasible; at N = 8 many share the best f.
    const config = diceConfig({ track: 'so', n: 8, constraints: [] });
    const random = Random.fromSeed(3);
    const all = Array.from({ length: 60 }, () => Array.from({ length: 8 }, () => random.int(1, 6)).join(''));
    const values = all.map((x) => evaluateDice(x, config).objectives[0]);
    const bestF = Math.min(...values);
    const first = values.indexOf(bestF);
    expect(values.lastIndexOf(bestF)).toBeGreaterThan(first); // a tie to break
    const f = fake('list', [], { sequences: [all.slice(0, 25), all.slice(25)] });
    const result = await run(f.spec, 1000, { config, target: -1 });
    expect(result.best!.x).toBe(all[first]);
    expect(result.bestFoundAt).toBe(first + 1);
    expect(result.best!.objectives[0]).toBe(bestF);
  });

  it('keeps the non-dominated archive of everything evaluated (MO)', async () => {
    const config = trackConfig('mo2', 40);
    const f = fake('random', [25]);
    const result = await run(f.spec, 500, { config, seed: 9 });
    const front = result.front.map((s) => s.objectives);
    expect(front.length).toBeGreaterThan(1);
    for (const a of front) for (const b of front) expect(dominates(a, b)).toBe(false);
    // Every feasible result the program was sent is on the front or dominated by it.
    const feasible = answers(f.record)
      .flatMap((a) => a.results!)
      .filter((r) => r.feasible === true)
      .map((r) => r.objective as number[]);
    expect(feasible.length).toBeGreaterThan(0);
    for (const p of feasible) expect(front.some((q) => dominates(q, p) || q.every((v, k) => v === p[k]))).toBe(true);
    // ... and every front point is one of them.
    for (const q of front) expect(feasible.some((p) => p.every((v, k) => v === q[k]))).toBe(true);
  });

  it('traces every improvement at the evaluation that gave it; the first feasible solution, evaluation k, at exactly k (SO)', async () => {
    // Batches of 100 in one step: before exact traces the first point of a step was its last improvement.
    const config = trackConfig('so', 840);
    const f = fake('random', [100]);
    const result = await run(f.spec, 1000, { config, seed: 4 });
    // The oracle: what the program was answered, in order, feasibility first (violation: g_d / (6^d / floor(N/d))).
    const sent = answers(f.record).flatMap((a) => a.results!) as { objective: number; constraint: number[]; feasible: boolean }[];
    expect(sent).toHaveLength(1000);
    const violation = (g: number[]) => g.reduce((s, v, i) => s + v / (6 ** config.constraints[i] / Math.floor(840 / config.constraints[i])), 0);
    const improvements: [number, number | null, boolean][] = [];
    let best: { f: number; v: number; feasible: boolean } | null = null;
    sent.forEach((r, i) => {
      const v = violation(r.constraint);
      const better = best === null || (r.feasible && best.feasible ? r.objective < best.f : r.feasible ? true : best.feasible ? false : v < best.v);
      if (!better) return;
      best = { f: r.objective, v, feasible: r.feasible };
      improvements.push([i + 1, r.feasible ? r.objective : null, r.feasible]);
    });
    const k = improvements.find((p) => p[2])![0];
    expect(k).toBeGreaterThan(1);
    expect(k % 100).not.toBe(0);
    expect(result.firstFeasibleAt).toBe(k);
    expect(result.trace.find((t) => t.feasible)!.evaluations).toBe(k);
    expect(result.traceExact).toBe(true);
    const traced = result.trace.slice(0, improvements.length).map((t) => [t.evaluations, t.feasible ? t.best : null, t.feasible]);
    expect(traced).toEqual(improvements);
    expect(result.trace.slice(improvements.length).map((t) => t.evaluations)).toEqual(improvements.at(-1)![0] === 1000 ? [] : [1000]);
  });

  it('pause stops answering, resume answers again, cancel is the stop with "cancelled"', async () => {
    const f = fake('random', [10]);
    const control = new RunController();
    const snapshots: Snapshot[] = [];
    const done = run(f.spec, 100_000_000, { control, snapshotIntervalMs: 20, onSnapshot: (s) => snapshots.push(s) });
    const pausedAfter = async (mark: number) => {
      await waitFor('a paused snapshot', () => snapshots.slice(mark).some((s) => s.paused));
      return snapshots.slice(mark).find((s) => s.paused)!;
    };
    await waitFor('answers', () => answers(f.record).length >= 5);
    control.pause();
    const paused = await pausedAfter(0);
    // The program has the answers of every batch but the last the paused run evaluated (one
    // batch of 10 each): that answer goes out with the next request's step, after the resume.
    await waitFor('the answers sent before the pause', () => answers(f.record).length === paused.evaluations / 10 - 1);
    control.resume();
    await waitFor('answers after resume', () => answers(f.record).length > paused.evaluations / 10 + 5);
    // Paused again and cancelled while paused: the run ends with exactly the paused snapshot's
    // count and the program got no answer in between (no waiting window of the test's own).
    control.pause();
    const again = await pausedAfter(snapshots.length);
    control.cancel();
    const result = await done;
    expect(result.stopReason).toBe('cancelled');
    expect(result.evaluations).toBe(again.evaluations);
    const got = answers(f.record);
    expect(got[got.length - 1].stop).toBe('cancelled');
    expect(got.filter((a) => a.stop !== undefined).length).toBe(1);
    expect(got.reduce((s, a) => s + a.results!.length, 0)).toBe(result.evaluations);
  });

  it('a single-objective run that reaches its target sends the stop "target"', async () => {
    const config = diceConfig({ track: 'so', n: 8, constraints: [] });
    const f = fake('random', [10]);
    const result = await run(f.spec, 100_000, { config, target: 1e9 });
    expect(result.stopReason).toBe('target');
    expect(result.evaluations).toBe(10);
    expect(answers(f.record)).toMatchObject([{ stop: 'target', remaining: 99_990 }]);
  });
});

describe('a program that ends or misbehaves', () => {
  it('exits early with code 0: the run ends with what it evaluated, saying how many of the budget', async () => {
    const result = await run(fake('exit0', [3]).spec, 1000);
    expect(result.evaluations).toBe(15);
    expect(result.stopReason).toBe('solver');
    expect(result.message).toContain('the program ended on its own after 15 of 1000 evaluations');
    expect(result.program!.exit).toEqual({ code: 0, signal: null, how: 'exited' });
  });

  const failures: [string, string, (string | number)[], Partial<ProgramSpec>, RegExp][] = [
    [
      'exits with a non-zero code',
      'exit3',
      [2],
      {},
      /^the program exited with code 3 after 10 of 1000 evaluations; its stderr ends: ValueError: the fake solver gave up$/,
    ],
    ['prints a line that is not JSON', 'notjson', [], {}, /^the program's line 2 is not JSON: "generation 1: best 12.5"$/],
    [
      'prints an unknown message',
      'unknown',
      [],
      {},
      /^the program's line 1 is not a protocol message \(\{"evaluate": \[\.\.\.\]\} or \{"log": "\.\.\."\}\): "\{\\"optimise\\":/,
    ],
    ['gives a field of the wrong type', 'wrongtype', [], {}, /^the program's line 1: "evaluate" must be a list of strings, got "1234"$/],
    ['hangs', 'hang', [], { timeout: 0.5 }, /^the program sent no request for 500 ms \(its timeout; a hang\); it was stopped$/],
    ['prints a huge line', 'hugeline', [], {}, /^the program's line 1 is longer than the limit of 8 MiB \(a flood\); it was stopped$/],
    ['writes endlessly without a newline', 'endless', [], {}, /^the program's line 1 is longer than the limit of 8 MiB \(a flood\)/],
    ['floods its log', 'logflood', [], {}, /^the program wrote more than 64 MiB to its log/],
    ['asks for nothing forever', 'emptyloop', [], {}, /^the program sent 10000 requests in a row with nothing to evaluate \(line 10001\); it is stuck$/],
  ];
  it.each(failures)('%s: the run fails with a reason naming the line or the cause', async (_what, mode, args, extra, reason) => {
    await expect(run(fake(mode, args, extra).spec, 1000)).rejects.toThrow(reason);
  });

  it('a program that cannot be started fails its run, naming it', async () => {
    await expect(run({ command: [join(dir, 'no-such-solver')] }, 10)).rejects.toThrow(
      /^could not start the program ".*no-such-solver": no such program or directory \(ENOENT\)$/,
    );
  });

  it('ignores the end of stdin and SIGTERM: it is killed, and the run keeps its result', async () => {
    const f = fake('stubborn');
    const result = await run(f.spec, 40);
    expect(result.evaluations).toBe(40);
    expect(result.stopReason).toBe('evaluations');
    expect(result.program!.exit).toEqual({ code: null, signal: 'SIGKILL', how: 'killed' });
    expect(received(f.record).some((m) => m.signal === 'SIGTERM')).toBe(true);
  });
});
