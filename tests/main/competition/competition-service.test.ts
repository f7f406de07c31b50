// The competition service under the transport: a server that dies leaves its answered requests
// in its log (remote-log.ts); the next one folds them into the file, drops a torn last record,
// replays every run and goes on exactly where the dead one was. One server per file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CompetitionService, type LiveStandings } from '../../../src-main/app/competition-service.ts';
import { diceHvNormalisation } from '../../../src-shared/problems/dice/hv-reference.ts';
import { remoteLockPath, remoteLogPath } from '../../../src-main/project/remote-log.ts';
import { Project } from '../../../src-main/project/store.ts';
import { SolverRun } from '../../../src-shared/solvers/solver-run.ts';
import { createDiceProblem } from '../../../src-shared/problems/dice/problem.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { runCli } from '../cli/io.ts';

let cwd: string;
const opened: CompetitionService[] = [];
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-competition-service-'));
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  fs.rmSync(cwd, { recursive: true, force: true });
});

const N = 40;
const seq = (k: number) => Array.from({ length: N }, (_, i) => String(1 + ((i * 5 + k * 11 + ((k * i) % 7)) % 6))).join('');
const request = (from: number, size: number) => JSON.stringify({ evaluate: Array.from({ length: size }, (_, k) => seq(from + k)) });

function open(file: string): CompetitionService {
  const service = CompetitionService.open(file, { normaliser: async (config) => diceHvNormalisation(config), foldIntervalMs: 3_600_000 });
  opened.push(service);
  return service;
}

async function make(): Promise<string> {
  const cli = (...argv: string[]) => runCli(argv, { cwd });
  expect(
    (
      await cli(
        'competition',
        'new',
        'c.saikoro',
        '--tracks',
        'so,mo2',
        '--n',
        String(N),
        '--instances',
        '1',
        '--budget',
        '400',
        '--seeds',
        '1',
        '--secret',
        'service-secret-1',
      )
    ).code,
  ).toBe(0);
  expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'a', '--remote')).code).toBe(0);
  return path.join(cwd, 'c.saikoro');
}

/** A pid no process has: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString() as unknown as number;
}

describe('a server that dies', () => {
  it('leaves its answers in the log; the next folds them in, drops a torn record and resumes every run where it was', async () => {
    const file = await make();
    const a = open(file);
    const so = await a.openRun('a', 'so-n40-i1');
    const mo = await a.openRun('a', 'mo2-n40-i1');
    const answers: string[] = [];
    for (let k = 0; k < 3; k++) answers.push((await a.evaluate(so, request(100 * k, 70)))!);
    for (let k = 0; k < 2; k++) answers.push((await a.evaluate(mo, request(1000 + 100 * k, 90)))!);
    expect(answers.map((x) => JSON.parse(x).remaining)).toEqual([330, 260, 190, 310, 220]);
    const withoutTime = (l: LiveStandings) => JSON.parse(JSON.stringify({ ...l, report: { ...l.report, generatedAt: null } }));
    const before = withoutTime(a.standings());
    expect(before.report.runs).toEqual({ total: 2, done: 0, failed: 0, live: 2, missing: 0 });

    // What a kill -9 leaves: the file without the requests (no fold yet), the log with them, a lock of a dead process.
    const copy = path.join(cwd, 'copy');
    fs.mkdirSync(copy);
    const file2 = path.join(copy, 'c.saikoro');
    fs.copyFileSync(file, file2);
    fs.copyFileSync(remoteLogPath(file), remoteLogPath(file2));
    fs.writeFileSync(remoteLockPath(file2), JSON.stringify({ pid: Number(deadPid()), host: os.hostname(), startedAt: 'then' }));
    expect(fs.statSync(remoteLogPath(file2)).size).toBeGreaterThan(0);
    const raw = Project.open(file2, { readOnly: true });
    expect(raw.remoteRunCounts().size).toBe(0);
    raw.close();
    // A request the dead server was writing when it died: torn, and its answer never sent.
    fs.appendFileSync(remoteLogPath(file2), Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5, 6]));

    const b = open(file2);
    expect(b.recovered).toEqual({ records: 5, droppedBytes: 10 });
    const so2 = await b.openRun('a', 'so-n40-i1');
    const mo2 = await b.openRun('a', 'mo2-n40-i1');
    expect([so2.run.used, mo2.run.used]).toEqual([210, 180]);
    expect([so2.run.hello().remaining, mo2.run.hello().remaining]).toEqual([190, 220]);
    expect(withoutTime(b.standings())).toEqual(before);
    // Both go on alike: the same request has the same answer on the dead server's twin and the resumed one.
    for (const [x, y, r] of [
      [so, so2, request(5000, 200)],
      [mo, mo2, request(6000, 250)],
    ] as const) {
      const [ax, ay] = [await a.evaluate(x, r), await b.evaluate(y, r)];
      expect(ay).toBe(ax);
      expect(JSON.parse(ax!).stop).toBe('budget');
    }
    // The runs are stored as done, alike in both files.
    await a.close();
    await b.close();
    const [pa, pb] = [Project.open(file, { readOnly: true }), Project.open(file2, { readOnly: true })];
    const strip = (p: Project) =>
      p
        .runs()
        .map((r) => ({ id: r.id, remote: r.remote, evaluations: r.evaluations, best: r.result!.best, front: r.result!.front, frontLog: r.result!.frontLog }));
    expect(strip(pb)).toEqual(strip(pa));
    expect(strip(pa)).toHaveLength(2);
    expect([...pa.remoteRunCounts().values()].map((c) => c.evaluations)).toEqual([400, 400]);
    pa.close();
    pb.close();
    // A server that closed folded everything in and left no log and no lock.
    for (const f of [file, file2]) expect([fs.existsSync(remoteLogPath(f)), fs.existsSync(remoteLockPath(f))]).toEqual([false, false]);
  });

  it('one server per file: a second is refused while the first lives, naming it', async () => {
    const file = await make();
    open(file);
    expect(() => CompetitionService.open(file, { normaliser: async (c) => diceHvNormalisation(c) })).toThrow(
      new RegExp(`another competition server serves this file \\(process ${process.pid} on ${os.hostname()}, since .*\\); stop it first$`),
    );
  });
});

describe('the reveal', () => {
  it('is refused while a server serves the file; then it ends the remote runs where they are, scored on what they evaluated', async () => {
    const file = await make();
    const service = open(file);
    const so = await service.openRun('a', 'so-n40-i1');
    expect(JSON.parse((await service.evaluate(so, request(0, 150)))!).remaining).toBe(250);
    const cli = (...argv: string[]) => runCli(argv, { cwd });
    const refused = await cli('competition', 'reveal', 'c.saikoro', '--secret', 'service-secret-1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`c.saikoro: another competition server serves this file (process ${process.pid} on ${os.hostname()}`);
    expect(refused.stderr).toContain('a competition is revealed once its server has stopped');
    expect((await cli('competition', 'reveal', 'c.saikoro', '--secret', 'wrong-secret-1')).stderr).toContain(
      "the secret does not match the competition's commitment",
    );
    await service.close();
    const revealed = await cli('competition', 'reveal', 'c.saikoro', '--secret', 'service-secret-1');
    expect(revealed.code, revealed.stderr).toBe(0);
    expect(revealed.stderr).toContain('1 remote run(s) that had not used their budget end where they were, scored on what they evaluated');
    const project = Project.open(file, { readOnly: true });
    const runs = project.runs();
    project.close();
    expect(runs.map((r) => [r.instance, r.remote, r.status, r.evaluations, r.result!.stopReason])).toEqual([['so-n40-i1', true, 'done', 150, 'solver']]);
    expect(runs[0].result!.message).toMatch(/after 150 evaluations \(the program ended on its own after 150 of 400 evaluations\)/);
    // After the reveal nothing is evaluated any more.
    const after = open(file);
    await expect(after.openRun('a', 'mo2-n40-i1')).rejects.toThrow('the competition is over: its secret has been revealed, and nothing more is evaluated');
  });
});

describe('a run asked for its result while it goes on', () => {
  it('gives the result as it stands, and its later result is what it would have been', () => {
    const config = trackConfig('mo2', 30);
    const make = () =>
      new SolverRun(createDiceProblem(config), 'random', {}, 5, { maxEvaluations: 600 }, { maxStepEvaluations: 50, frontIndicator: (f) => f.length });
    const plain = make();
    const asked = make();
    const end = { seconds: 1, stopReason: 'evaluations' as const };
    for (let k = 0; k < 12; k++) {
      plain.step(50);
      asked.step(50);
      if (k === 4) {
        const mid = asked.result(end);
        expect(asked.result(end)).toEqual(mid);
        expect(mid.evaluations).toBe(250);
        expect(mid.trace[mid.trace.length - 1].evaluations).toBe(250);
      }
    }
    const strip = (r: ReturnType<SolverRun['result']>) => ({ ...r, trace: r.trace.map(({ seconds, ...p }) => (void seconds, p)) });
    expect(strip(asked.result(end))).toEqual(strip(plain.result(end)));
  });
});
