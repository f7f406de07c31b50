// A solver program's cgroup (src-main/host/cgroup.ts, issue 26: "CPU-time and memory caps
// (rlimits; cgroups where they are available)"). The rlimits hold per process; where this
// machine lets Saikoro make cgroups, the cgroup holds for all the program's processes together:
// processes each under the memory limit but over it together are ended by the kernel, and the
// run says which limit; CPU time burnt by several children together stops the run at its
// CPU-time limit; threads stop at the task cap; a child that left the program's session and
// environment is still killed at the end; the cgroup's folders are removed. Where the machine has
// no cgroups (or SAIKORO_CGROUP=none) the run's log says so and only the rlimits hold. The
// program is tests/fixtures/external/cgroup-program.py.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CGROUP_VARIABLE, cgroupSupport, killProgramCgroup, makeProgramCgroup, PROGRAM_MAX_TASKS, removeProgramCgroup } from '../../../src-main/host/cgroup.ts';
import { partialResultOf } from '../../../src-shared/core/driver.ts';
import { launchProgram, type LaunchOptions } from '../../../src-main/host/program-process.ts';
import { trackConfig } from '../../../src-shared/problems/dice/config.ts';
import { executeRun, type DiceRunRequest } from '../../../src-shared/runtime/kinds/index.ts';
import type { ProgramSpec } from '../../../src-shared/solvers/program/protocol.ts';
import type { SolverResult } from '../../../src-shared/solvers/types.ts';
import { killAll, waitFor } from '../processes.ts';

const PROGRAM = path.join(import.meta.dirname, '../../fixtures/external/cgroup-program.py');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cgroup-test-'));
const leftovers: number[] = [];
afterEach(() => {
  killAll(leftovers.splice(0));
  delete process.env[CGROUP_VARIABLE];
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const support = cgroupSupport();

function spec(mode: string, ...args: string[]): ProgramSpec {
  return { command: ['python3', PROGRAM, mode, ...args], cwd: work, grace: 0.3, timeout: 30 };
}

/** A program's run as a worker runs it: the protocol over launchProgram, with the given limits. */
async function run(program: ProgramSpec, options: LaunchOptions): Promise<{ result: SolverResult | null; reason: string | null; log: string }> {
  const request: DiceRunRequest = {
    kind: 'dice',
    solver: 'cgroup-program',
    params: {},
    seed: 1,
    config: trackConfig('so', 30),
    termination: { maxEvaluations: 10 },
    program,
  };
  try {
    const result = await executeRun(request, { environment: { launchProgram: (launch, limits) => launchProgram(launch, limits, options) } });
    return { result, reason: null, log: result.log ?? '' };
  } catch (e) {
    // A failed run keeps what it found, and its log.
    const partial = partialResultOf(e) as SolverResult | null;
    return { result: null, reason: (e as Error).message, log: partial?.log ?? '' };
  }
}

/** Waits until the program's cgroup folders are removed (at the end of its process, just after its run's end). */
async function foldersRemoved(): Promise<void> {
  await waitFor("the program's cgroup to be removed", () => ownFolders().length === 0, { withinMs: 5000 }).catch(() => {});
  expect(ownFolders()).toEqual([]);
}

/** The cgroup folders this process has made and not removed. */
function ownFolders(): string[] {
  if (!support.available) return [];
  return [...new Set(Object.values(support.parents))].flatMap((parent) =>
    fs
      .readdirSync(parent)
      .filter((name) => name.startsWith(`saikoro-${process.pid}-`))
      .map((name) => path.join(parent, name)),
  );
}

describe("a program's processes together", () => {
  it('over the memory limit together (each under it): the kernel ends one and the run names the limit; without a cgroup they run on', async () => {
    const { result, reason, log } = await run(spec('memory'), { sandbox: 'auto', limits: { memoryMb: 128 } });
    if (support.available) {
      // 100 MB in two children, then 80 MB more in the program: the OOM killer ends the biggest.
      expect(log).toContain('cgroup-program: children hold 100 MB');
      expect(log).toMatch(/\[saikoro\] its processes together over the memory limit of 128 MB \(its cgroup\): the kernel ended [1-3] of them/);
      expect(log).not.toContain('the program holds 80 MB more');
      // The kernel ends the biggest: the program itself, or a child (and the program then exits with code 3).
      expect(reason).toMatch(
        /^the program (was killed by SIGKILL|exited with code 3) \(its processes together over the memory limit of 128 MB \(its cgroup\): the kernel ended [1-3] of them\) after 0 of 10 evaluations/,
      );
      expect(result).toBeNull();
    } else {
      // Only the rlimits: each process is under 128 MB, so all of it runs.
      expect(reason).toBeNull();
      expect(result!.log).toContain(`[saikoro] no cgroup for this program: ${support.reason}`);
      expect(result!.log).toContain('the program holds 80 MB more');
    }
    await foldersRemoved();
  });

  it('the same program with cgroups switched off (SAIKORO_CGROUP=none): only the rlimits, said in the log, and it runs to the end', async () => {
    process.env[CGROUP_VARIABLE] = 'none';
    const { result, reason } = await run(spec('memory'), { sandbox: 'auto', limits: { memoryMb: 128 } });
    expect(reason).toBeNull();
    expect(result!.evaluations).toBe(2);
    expect(result!.log).toContain(`[saikoro] no cgroup for this program: cgroups are switched off (${CGROUP_VARIABLE}=none)`);
    expect(result!.log).toContain('the program holds 80 MB more');
  });

  it('CPU time burnt by three children together (each under the limit) stops the run at its CPU-time limit', async () => {
    const { result, reason, log } = await run(spec('cpu'), { sandbox: 'auto', limits: { cpuSeconds: 2 } });
    if (support.available) {
      expect(result).toBeNull();
      const used = /^the program's processes together used ([\d.]+) s of CPU time, over its CPU-time limit of 2 s \(its cgroup\); it was stopped$/.exec(
        reason ?? '',
      );
      expect(used, reason ?? '').not.toBeNull();
      expect(Number(used![1])).toBeGreaterThan(2);
      expect(log).not.toContain('children burnt 4.5 s');
    } else {
      expect(reason).toBeNull();
      expect(result!.log).toContain('children burnt 4.5 s');
    }
  });

  it(`threads stop at the cap of ${PROGRAM_MAX_TASKS} tasks`, async () => {
    const { result, reason } = await run(spec('threads'), { sandbox: 'auto' });
    expect(reason).toBeNull();
    const started = Number(/cgroup-program: started (\d+) threads/.exec(result!.log!)?.[1]);
    if (support.available && support.parents.pids) {
      expect(result!.log).toContain('cgroup-program: no more threads');
      expect(started).toBeLessThan(PROGRAM_MAX_TASKS);
      expect(started).toBeGreaterThan(PROGRAM_MAX_TASKS - 20);
    } else expect(started).toBe(1100);
  });

  it('a child that left the session and cleared its environment (no sandbox) is killed with the run, and the cgroup is removed', async () => {
    const pidFile = path.join(work, 'escaped.pid');
    const { result, reason } = await run(spec('escape', pidFile), { sandbox: 'off' });
    expect(reason).toBeNull();
    expect(result!.evaluations).toBe(2);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    const alive = () => {
      try {
        process.kill(pid, 0);
        return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return false;
      }
    };
    if (support.available) {
      await waitFor('the escaped child to end', () => !alive(), { withinMs: 5000 }).catch(() => leftovers.push(pid));
      expect(alive()).toBe(false);
    } else {
      // Neither its group nor its marker reaches it: only a cgroup would.
      expect(alive()).toBe(true);
      leftovers.push(pid);
    }
    await foldersRemoved();
  });
});

describe('the cgroup itself', () => {
  it('has the memory limit and the task cap, and is gone once removed', async () => {
    await foldersRemoved();
    const group = makeProgramCgroup({ memoryMb: 64 });
    if (!support.available) {
      expect(group).toBeNull();
      return;
    }
    expect(group).not.toBeNull();
    const memory = group!.dirs.memory!;
    const limit = fs.readFileSync(path.join(memory, support.version === 1 ? 'memory.limit_in_bytes' : 'memory.max'), 'utf8').trim();
    expect(Number(limit)).toBe(64 * 1024 * 1024);
    if (group!.dirs.pids) expect(fs.readFileSync(path.join(group!.dirs.pids, 'pids.max'), 'utf8').trim()).toBe(String(PROGRAM_MAX_TASKS));
    expect(ownFolders().sort()).toEqual([...new Set(Object.values(group!.dirs))].sort());
    killProgramCgroup(group!);
    expect(removeProgramCgroup(group!)).toBe(true);
    expect(ownFolders()).toEqual([]);
  });
});
