// `saikoro solve` and `saikoro solvers`, run in-process through main() (the solve itself runs in
// a real worker process).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasEnded, waitFor } from '../processes.ts';
import { requireTool } from '../../e2e/tools.ts';
import { runCli } from './io.ts';
import { main } from '../../../src-main/cli/index.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../../src-shared/problems/dice/evaluate.ts';
import { diceHvNormalisation, normalisedHypervolume } from '../../../src-shared/problems/dice/hv-reference.ts';
import { frontLogFrontAt } from '../../../src-shared/solvers/front-log.ts';
import { DEFAULT_SOLVERS, solvers } from '../../../src-shared/solvers/registry.ts';
import { executeRunSync } from '../../../src-shared/runtime/kinds/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'saikoro-solve-'));
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return name;
};
const KEYS = ['solver', 'track', 'n', 'seed', 'evaluations', 'seconds', 'success', 'message', 'best', 'bestFoundAt', 'front'];
const SOLUTION_KEYS = ['x', 'objectives', 'constraints', 'feasible'];

const sortVectors = (points: number[][]) => [...points].sort((a, b) => a.reduce((d, v, k) => d || v - b[k], 0));

describe('saikoro solve', () => {
  it('prints the single-objective result in the documented JSON shape, equal to the in-process run and to saikoro eval', async () => {
    const out = join(dir, 'so.json');
    const run = await runCli(['solve', '--track', 'so', '--n', '60', '--solver', 'random', '--evals', '1500', '--seed', '11', '--json', '--out', out], {
      cwd: dir,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(Object.keys(r)).toEqual(KEYS);
    expect(Object.keys(r.best)).toEqual(SOLUTION_KEYS);
    expect(r).toMatchObject({ solver: 'random', track: 'so', n: 60, seed: 11, front: [] });
    expect(r.best.x).toMatch(/^[1-6]{60}$/);

    // The same run in-process, as a worker runs it, under the one stopping policy (a single objective stops at f = 0).
    const local = executeRunSync({
      kind: 'dice',
      solver: 'random',
      params: {},
      seed: 11,
      config: trackConfig('so', 60),
      termination: { maxEvaluations: 1500, target: 0 },
    });
    expect(r.evaluations).toBe(local.evaluations);
    expect(r.success).toBe(local.success);
    expect(r.message).toBe(local.message);
    expect(r.best.x).toBe(local.best!.x);
    expect(r.bestFoundAt).toBe(local.bestFoundAt);
    expect(r.bestFoundAt).toBeGreaterThanOrEqual(1);
    expect(r.bestFoundAt).toBeLessThanOrEqual(r.evaluations);

    // The values are those `saikoro eval` prints for x.
    const evaluated = JSON.parse((await runCli(['eval'], { stdin: JSON.stringify({ x: r.best.x }) + '\n' })).stdout);
    expect(r.best.objectives).toEqual(evaluated.objectives);
    expect(r.best.constraints).toEqual(evaluated.constraints);
    expect(r.best.feasible).toBe(evaluated.feasible);

    // --out keeps the same fields plus what reproduces the run.
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    expect(saved).toMatchObject({ ...r, seconds: saved.seconds, params: { batch: 100 }, termination: { maxEvaluations: 1500, target: 0 } });
    expect(saved.config).toEqual(trackConfig('so', 60));
    expect(saved.trace.length).toBeGreaterThan(0);
    // One objective: no hypervolume, so no normalisation.
    expect(saved.hvNormalisation).toBeNull();
  });

  it('stops a single-objective run at its first feasible f = 0, as the app and experiments do, unless --whole-budget', async () => {
    // N = 50: ils reaches f = 0 within a few dozen evaluations (README).
    const stopping = await runCli(['solve', '--track', 'so', '--n', '50', '--evals', '100000', '--seed', '1', '--json', '--out', join(dir, 'target.json')], {
      cwd: dir,
    });
    expect(stopping.code).toBe(0);
    const early = JSON.parse(readFileSync(join(dir, 'target.json'), 'utf8'));
    expect([early.stopReason, early.best.objectives[0], early.best.feasible]).toEqual(['target', 0, true]);
    expect(early.evaluations).toBeLessThan(100_000);
    expect(early.termination).toEqual({ maxEvaluations: 100_000, target: 0 });
    const whole = await runCli(['solve', '--track', 'so', '--n', '50', '--evals', '3000', '--seed', '1', '--whole-budget', '--out', join(dir, 'whole.json')], {
      cwd: dir,
    });
    expect(whole.code).toBe(0);
    const all = JSON.parse(readFileSync(join(dir, 'whole.json'), 'utf8'));
    expect([all.stopReason, all.evaluations]).toEqual(['evaluations', 3000]);
    expect(all.termination).toEqual({ maxEvaluations: 3000 });
    // The text report says when the best was found: before the step's end at which it stopped.
    expect(all.bestFoundAt).toBeGreaterThanOrEqual(1);
    expect(whole.stdout).toContain(`best         f = 0, feasible, found at evaluation ${all.bestFoundAt.toLocaleString('en-US')} of 3,000\n`);
    expect(early.bestFoundAt).toBeLessThanOrEqual(early.evaluations);
    // The same seed finds the same first f = 0 whether or not it goes on.
    expect(all.firstFeasibleAt).toBe(early.firstFeasibleAt);
  });

  it('refuses a negative seed, an N past 10^7 and a config file nested too deep, naming them', async () => {
    const negative = await runCli(['solve', '--track', 'so', '--n', '20', '--evals', '10', '--seed=-1']);
    expect([negative.code, negative.stderr]).toEqual([2, expect.stringContaining('--seed')]);
    expect(negative.stderr).toContain('--seed: must be 0 or more, got -1');
    const huge = await runCli(['solve', '--track', 'so', '--n', '10000001', '--evals', '10', '--seed', '1']);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain('--n');
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `{"objectives": ${'['.repeat(6000)}1${']'.repeat(6000)}}`);
    const nested = await runCli(['solve', '--n', '20', '--config', 'deep.json', '--evals', '10', '--seed', '1'], { cwd: dir });
    expect(nested.code).toBe(1);
    expect(nested.stderr).toContain('config file deep.json: nested deeper than 64 levels');
    expect(nested.stderr).not.toMatch(/RangeError|at \w+ \(/);
  });

  it('--out of a multi-objective run stores the HV normalisation its trace indicator was computed with', async () => {
    const out = join(dir, 'mo2.json');
    const run = await runCli(['solve', '--track', 'mo2', '--n', '50', '--solver', 'nsga2', '--evals', '3000', '--seed', '4', '--out', out], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    const norm = diceHvNormalisation(trackConfig('mo2', 50));
    expect(saved.hvNormalisation).toEqual({ indicator: expect.stringContaining('hypervolume of the feasible non-dominated front'), ...norm });
    // The values themselves (ideal 0; nadir = median of 1000 random sequences, seed 2020).
    expect(saved.hvNormalisation.ideal).toEqual([0, 0]);
    expect(saved.hvNormalisation.nadir[0]).toBeCloseTo(18.6, 9);
    expect(saved.hvNormalisation.nadir[1]).toBe(29);
    expect(saved.hvNormalisation.reference).toEqual([1.1, 1.1]);
    // The last trace point's indicator is the HV of the written front under that normalisation.
    expect(saved.front.length).toBeGreaterThan(0);
    const last = saved.trace[saved.trace.length - 1];
    expect(last.indicator).toBeGreaterThan(0);
    expect(last.indicator).toBeCloseTo(
      normalisedHypervolume(
        saved.front.map((s: { objectives: number[] }) => s.objectives),
        saved.hvNormalisation,
      ),
      12,
    );
    // The exact record: the front rebuilt from the log at the end is the written front.
    expect(saved.traceExact).toBe(true);
    expect(sortVectors(frontLogFrontAt(saved.frontLog, 3000))).toEqual(sortVectors(saved.front.map((s: { objectives: number[] }) => s.objectives)));
    // Documented on the --out line of the help.
    expect((await runCli(['solve', '--help'])).stdout).toMatch(
      /--out FILE[^]*"hvNormalisation" \{"indicator","ideal","nadir","reference","method"\}[^]*SO: "hvNormalisation" is null/,
    );
  });

  it('--out of an M = 5 run has the hypervolume at doublings of the evaluations and at the end', async () => {
    const out = join(dir, 'mo5.json');
    const run = await runCli(['solve', '--track', 'mo5', '--n', '100', '--solver', 'nsga3', '--evals', '5000', '--seed', '2', '--out', out], { cwd: dir });
    expect(run.code).toBe(0);
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    expect(saved.hvNormalisation.indicator).toContain('after each doubling of the evaluations');
    const recorded = saved.trace.filter((t: { indicator: number | null }) => t.indicator !== null);
    // NSGA-III improves the front every generation: 1,000, then >= 2,000, >= 4,000, and the end.
    expect(recorded.map((t: { evaluations: number }) => t.evaluations)).toEqual([1060, 2120, 4240, 5000]);
    const last = saved.trace[saved.trace.length - 1];
    expect(last.evaluations).toBe(5000);
    expect(last.indicator).toBeCloseTo(
      normalisedHypervolume(
        saved.front.map((s: { objectives: number[] }) => s.objectives),
        saved.hvNormalisation,
      ),
      12,
    );
  });

  it('prints a feasible front for several objectives, each member evaluated in full, and is reproducible', async () => {
    const argv = ['solve', '--track', 'mo3', '--n', '50', '--solver', 'random', '--evals', '1000', '--seed', '5', '--json'];
    const [a, b] = [await runCli(argv), await runCli(argv)];
    expect(a.code).toBe(0);
    const r = JSON.parse(a.stdout);
    const again = JSON.parse(b.stdout);
    expect({ ...r, seconds: 0 }).toEqual({ ...again, seconds: 0 });
    expect(r).toMatchObject({ track: 'mo3', n: 50, seed: 5, evaluations: 1000, best: null });
    // 1,000 random sequences of N = 50 include feasible ones: the checks below run on a real front.
    expect(r.front.length).toBeGreaterThan(1);
    expect(r.success).toBe(true);
    const config = trackConfig('mo3', 50);
    for (const s of r.front) {
      expect(Object.keys(s)).toEqual(SOLUTION_KEYS);
      const full = evaluateDice(s.x, config);
      expect(s.objectives).toEqual(full.objectives);
      expect(s.constraints).toEqual(full.constraints);
      expect(s.feasible).toBe(true);
    }
    // Non-dominated: no member is weakly better everywhere than another.
    const objectives: number[][] = r.front.map((s: { objectives: number[] }) => s.objectives);
    const dominating = objectives.flatMap((p, i) => objectives.flatMap((q, j) => (i !== j && p.every((v, k) => v <= q[k]) ? [[i, j]] : [])));
    expect(dominating).toEqual([]);
  });

  it('takes n and the objectives from a YAML config file and prints a readable report', async () => {
    const name = file(
      'custom.yaml',
      'n: 40\nobjectives: [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]\ngamma: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n',
    );
    const run = await runCli(['solve', '--config', name, '--solver', 'random', '--evals', '300', '--seed', '2'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^solver {7}random \(Random search\) {2}batch=100\n/);
    expect(run.stdout).toContain('problem      track custom, N = 40, seed 2\n');
    expect(run.stdout).toContain('evaluations  300 in ');
  });

  it('runs the strongest solver for the track when --solver is left out', async () => {
    const run = await runCli(['solve', '--track', 'so', '--n', '30', '--evals', '200', '--seed', '1', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).solver).toBe(DEFAULT_SOLVERS.so);
  });

  it.each([
    [['--n', '50', '--evals', '10', '--seed', '1'], '--track is required'],
    [['--track', 'mo4', '--n', '50', '--evals', '10', '--seed', '1'], '--track: expected one of so, mo2, mo3, mo5, mo7, got "mo4"'],
    [['--track', 'so', '--evals', '10', '--seed', '1'], '--n is required'],
    [['--track', 'so', '--n', '0', '--evals', '10', '--seed', '1'], '--n: must be positive, got 0'],
    [['--track', 'so', '--n', '50', '--seed', '1'], '--evals is required'],
    [['--track', 'so', '--n', '50', '--evals', '1.5', '--seed', '1'], '--evals: expected an integer, got "1.5"'],
    [['--track', 'so', '--n', '50', '--evals', '10'], '--seed is required'],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', 'x'], '--seed: expected a number, got "x"'],
    // Decimal only: Number() would read 0x10 as 16, 0b11 as 3 and Infinity as a number.
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '0x10'], '--seed: expected a decimal number, got "0x10"'],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '0b11'], '--seed: expected a decimal number, got "0b11"'],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', 'Infinity'], '--seed: expected a decimal number, got "Infinity"'],
    // Past 2^53 - 1 the value is named as written, not as the double it rounds to (...992).
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '9007199254740993'], '--seed: must be at most 9007199254740991, got 9007199254740993'],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '9007199254740992'], '--seed: must be at most 9007199254740991, got 9007199254740992'],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--solver', 'magic'], '--solver: unknown solver "magic" (known: '],
    [
      ['--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--solver', 'random', '--param', 'batch=0'],
      '--param: parameter batch must be >= 1 and <= 100000, got 0',
    ],
    [
      ['--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--solver', 'random', '--param', 'size=3'],
      '--param: parameter size is unknown (parameters of random: batch)',
    ],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--param', 'batch'], 'must be written name=value'],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--frobnicate'], "Unknown option '--frobnicate'"],
    // Limits that only the solver's setup knows are usage errors too, before any worker starts.
    [
      ['--track', 'mo3', '--n', '50', '--evals', '10', '--seed', '1', '--solver', 'nsga3', '--param', 'populationSize=3'],
      '--param: parameter populationSize must be 0 (automatic) or at least 4, got 3',
    ],
    [['--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--memory-limit', 'lots'], '--memory-limit: expected a number, got "lots"'],
  ])('rejects bad options with exit 2: %j', async (args, message) => {
    const run = await runCli(['solve', ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
  });

  it('rejects a solver that does not handle the number of objectives, with exit 2', async () => {
    // The registry has both kinds (GA is single-objective, NSGA-II multi-objective).
    const single = solvers.find((s) => s.objectives === 'single');
    const multi = solvers.find((s) => s.objectives === 'multi');
    expect(single?.name).toBeTypeOf('string');
    expect(multi?.name).toBeTypeOf('string');
    const onMo2 = await runCli(['solve', '--track', 'mo2', '--n', '50', '--evals', '10', '--seed', '1', '--solver', single!.name]);
    expect(onMo2.code).toBe(2);
    expect(onMo2.stderr).toContain(`solver ${single!.name} is single-objective; track mo2 has 2 objectives`);
    const onSo = await runCli(['solve', '--track', 'so', '--n', '50', '--evals', '10', '--seed', '1', '--solver', multi!.name]);
    expect(onSo.code).toBe(2);
    expect(onSo.stderr).toContain(`solver ${multi!.name} is multi-objective; track so has one objective`);
  });

  it('rejects options that contradict the config file, with exit 2', async () => {
    const name = file('n60.json', '{"n": 60, "objectives": [[1,2,3,4,5,6,7],[8,9,10,11,12,13,14,15]]}');
    const n = await runCli(['solve', '--config', name, '--n', '50', '--evals', '10', '--seed', '1'], { cwd: dir });
    expect(n.code).toBe(2);
    expect(n.stderr).toContain('--n 50 conflicts with n = 60 in n60.json');
    const t = await runCli(['solve', '--config', name, '--track', 'mo3', '--evals', '10', '--seed', '1'], { cwd: dir });
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('--track mo3 conflicts with the objectives in n60.json');
  });

  it.each([
    ['missing.json', null, 'cannot read config file missing.json: no such file'],
    ['broken.json', '{\n  "alpha": [2, 2,\n}', 'config file broken.json: not valid JSON at line 3, column 1'],
    ['colon.json', '{"alpha" [1]}', 'config file colon.json: not valid JSON at line 1, column 10'],
    ['empty.json', '', 'config file empty.json: not valid JSON at line 1, column 1'],
    ['broken.yaml', 'alpha: [2, 2\nbeta: 3\n', 'config file broken.yaml: not valid YAML at line '],
    ['list.json', '[1, 2]', 'config file list.json: must hold an object'],
    ['extra.json', '{"alfa": []}', 'config file extra.json: unknown field "alfa"'],
    ['bands.json', '{"alpha": [9, 2, 2, 2, 2, 27, 5, 0, 0, 1, 0, 0, 1, 0, 0]}', 'bands.json: alpha[0]: must not exceed beta[0] (feature F1: 9 > 5)'],
    ['short.json', '{"gamma": [1, 2]}', 'short.json: gamma: must have 15 entries, got 2'],
  ])('rejects a bad config file with exit 1: %s', async (name, text, message) => {
    if (text !== null) file(name, text);
    const run = await runCli(['solve', '--track', 'so', '--n', '50', '--config', name, '--evals', '10', '--seed', '1'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
  });
});

describe('saikoro solve in a terminal', () => {
  it('draws a progress bar on stderr when stderr is a terminal, and clears it at the end', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    stdout.on('data', (c: Buffer) => out.push(c));
    stderr.on('data', (c: Buffer) => err.push(c));
    const argv = ['solve', '--track', 'so', '--n', '840', '--solver', 'random', '--evals', '3000', '--seed', '1', '--json'];
    const code = await main(argv, { stdin: Readable.from([]), stdout, stderr, env: {}, cwd: dir, stderrIsTTY: true });
    expect(code).toBe(0);
    const text = Buffer.concat(err).toString('utf8');
    expect(text).toMatch(/^\r\[[#-]{24}\] +\d+%  [\d,]+ evals  [\d.]+ s  /);
    expect(text.endsWith('\r\x1b[K')).toBe(true);
    expect(JSON.parse(Buffer.concat(out).toString('utf8')).evaluations).toBe(3000);
  });

  // The CLI runs under `script`, in a pseudo-terminal: Ctrl-C typed there reaches the CLI's
  // process group as SIGINT, exactly as in a shell, and the progress bar on the terminal says
  // when the run is under way (evaluations counted), so the test presses Ctrl-C only then
  // instead of after a fixed sleep.
  const pty = requireTool('script', '/usr/bin/script', 'apt-get install bsdutils');
  pty.describe('under a terminal', () => {
    it('stops on Ctrl-C (SIGINT to the process group), prints what it found so far and exits with 130', async () => {
      const bin = fileURLToPath(new URL('../../../bin/saikoro.mjs', import.meta.url));
      const command = [process.execPath, bin, 'solve', '--track', 'so', '--n', '840', '--solver', 'random', '--evals', '100000000', '--seed', '4', '--json'];
      const child = spawn(pty.path, ['--quiet', '--flush', '--return', '--command', `exec ${command.map(shellQuote).join(' ')}`, '/dev/null'], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let screen = '';
      let scriptErrors = '';
      child.stdout.on('data', (c: Buffer) => (screen += c));
      child.stderr.on('data', (c: Buffer) => (scriptErrors += c));
      let ended = false;
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))).finally(() => (ended = true));
      try {
        // The bar: "[#---...]   0%  1,200 evals  0.3 s  best f ...".
        await waitFor(
          'the progress bar to count evaluations',
          () => {
            if (ended) throw new Error(`the CLI ended before any progress: ${screen}${scriptErrors}`);
            return /\] +\d+% +[1-9][\d,]* evals /.test(screen);
          },
          { withinMs: 30_000 },
        );
        child.stdin.write('\x03'); // Ctrl-C
        expect(await exited).toBe(130);
      } finally {
        if (!ended) child.kill('SIGKILL');
      }
      expect(scriptErrors).toBe('');
      // The terminal shows the bar, cleared at the end, then the JSON result (the terminal turns \n into \r\n).
      const lastBar = screen.lastIndexOf('\r\x1b[K');
      expect(lastBar).toBeGreaterThan(0);
      const r = JSON.parse(
        screen
          .slice(lastBar + '\r\x1b[K'.length)
          .replace(/^\^C/, '')
          .trim(),
      );
      expect(r.message).toMatch(/ \(cancelled\)/);
      expect(r.evaluations).toBeGreaterThan(0);
      expect(r.evaluations).toBeLessThan(100000000);
      expect(r.best.x).toMatch(/^[1-6]{840}$/);
    });
  });
});

/** One word for sh -c. */
const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The pid of the child of `pid` that runs the worker entry (worker.ts from source, worker.js built), if any (Linux /proc). */
function workerPid(pid: number): number | null {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const worker = children.find((c) => readFileSync(`/proc/${c}/cmdline`, 'utf8').match(/worker\.[jt]s\0/));
    return worker === undefined ? null : Number(worker);
  } catch {
    return null;
  }
}

describe('saikoro solve worker lifetime', () => {
  it('a worker never outlives its host: when the CLI is killed with SIGKILL its worker exits too', async () => {
    const bin = fileURLToPath(new URL('../../../bin/saikoro.mjs', import.meta.url));
    const child = spawn(process.execPath, [bin, 'solve', '--track', 'so', '--n', '840', '--solver', 'random', '--evals', '100000000', '--seed', '4'], {
      stdio: 'ignore',
    });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const worker = await waitFor('the CLI to start its worker process', () => workerPid(child.pid!), { withinMs: 30_000, intervalMs: 100 });
    child.kill('SIGKILL');
    await exited;
    // The IPC channel closes with the host; the worker (in its own process group) exits on that.
    expect(await hasEnded(worker)).toBe(true);
  });
});

describe('saikoro solvers', () => {
  it('lists every registered solver with its parameters as JSON', async () => {
    const run = await runCli(['solvers', '--json']);
    expect(run.code).toBe(0);
    const list = JSON.parse(run.stdout);
    expect(list.map((s: { name: string }) => s.name)).toEqual(solvers.map((s) => s.name));
    const random = list.find((s: { name: string }) => s.name === 'random');
    expect(random).toMatchObject({ objectives: 'any', baseline: true });
    expect(random.params).toEqual([expect.objectContaining({ name: 'batch', type: 'integer', default: 100, min: 1, max: 100000 })]);
    expect(list.find((s: { name: string }) => s.name === DEFAULT_SOLVERS.so).defaultFor).toContain('so');
  });

  it('filters by track and prints each parameter with its default', async () => {
    const so = JSON.parse((await runCli(['solvers', '--track', 'so', '--json'])).stdout);
    expect(so.every((s: { objectives: string }) => s.objectives !== 'multi')).toBe(true);
    const mo = JSON.parse((await runCli(['solvers', '--track', 'mo5', '--json'])).stdout);
    expect(mo.every((s: { objectives: string }) => s.objectives !== 'single')).toBe(true);
    const text = await runCli(['solvers']);
    expect(text.stdout).toContain('--param batch=100');
    expect((await runCli(['solvers', '--track', 'x'])).code).toBe(2);
  });
});
