// saikoro competition enter --remote and competition token: a remote entrant in every track's
// experiment, never run by competition run; its token alone on stdout, printed once, kept only
// as a hash, replaced by the next one and revocable.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Project } from '../../../src-main/project/store.ts';
import { expandGrid } from '../../../src-shared/experiments/grid.ts';
import { runCli } from './io.ts';

let cwd: string;
beforeEach(() => {
  cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'saikoro-cli-remote-'));
});
afterEach(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

const SECRET = 'organiser-secret-2026';
const cli = (...argv: string[]) => runCli(argv, { cwd });
const open = () => Project.open(path.join(cwd, 'c.saikoro'), { readOnly: true });
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function make() {
  const r = await cli(
    'competition',
    'new',
    'c.saikoro',
    '--tracks',
    'so,mo2',
    '--n',
    '40',
    '--instances',
    '1',
    '--budget',
    '60',
    '--seeds',
    '2',
    '--secret',
    SECRET,
  );
  expect(r.code, r.stderr).toBe(0);
}

describe('saikoro competition enter --remote', () => {
  it('enters a remote entrant in every track; competition run leaves its runs to the server', async () => {
    await make();
    const entered = await cli('competition', 'enter', 'c.saikoro', '--name', 'alice', '--remote');
    expect(entered.code, entered.stderr).toBe(0);
    expect(entered.stdout).toBe(
      'entered alice: remote (it plays over the network against saikoro serve --competition; give it a token: saikoro competition token c.saikoro --entrant alice)\n',
    );
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random')).code).toBe(0);
    let project = open();
    expect(project.entrants().map((e) => [e.name, e.entry])).toEqual([
      ['alice', { kind: 'remote' }],
      ['rnd', { kind: 'builtin', solver: 'random' }],
    ]);
    const specs = project.experiments().map((e) => e.spec);
    expect(specs.map((s) => s.solvers)).toEqual([
      [
        { name: 'alice', remote: true },
        { name: 'random', label: 'rnd' },
      ],
      [
        { name: 'alice', remote: true },
        { name: 'random', label: 'rnd' },
      ],
    ]);
    const remoteIds = specs
      .flatMap((s) => expandGrid(s))
      .filter((r) => r.remote)
      .map((r) => r.id);
    expect(remoteIds).toHaveLength(4);
    project.close();
    const ran = await cli('competition', 'run', 'c.saikoro', '--jobs', '1', '--json');
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual([
      { track: 'so', total: 4, skipped: 0, done: 2, failed: 0, remaining: 0, remote: 2, refused: null },
      { track: 'mo2', total: 4, skipped: 0, done: 2, failed: 0, remaining: 0, remote: 2, refused: null },
    ]);
    expect((await cli('competition', 'run', 'c.saikoro')).stdout).toBe(
      'so: 4 runs: 2 finished before, 0 done now, 0 failed, 0 not run, 2 remote (played against saikoro serve --competition)\n' +
        'mo2: 4 runs: 2 finished before, 0 done now, 0 failed, 0 not run, 2 remote (played against saikoro serve --competition)\n',
    );
    project = open();
    const stored = new Set(project.runs().map((r) => r.id));
    expect(remoteIds.some((id) => stored.has(id))).toBe(false);
    project.close();
  });

  it("refuses --remote with --solver, a built-in solver's name, a name taken, and entering after the reveal", async () => {
    await make();
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'a', '--remote', '--solver', 'random')).stderr).toContain(
      '--solver and --remote contradict each other (an entrant is a built-in solver, a program, or remote)',
    );
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'a')).stderr).toContain(
      'give --solver BUILTIN (or default), --dir DIR --command "CMD ARGS", or --remote',
    );
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'random', '--remote')).stderr).toContain(
      '"random" is a built-in solver\'s name; give the remote entrant another name',
    );
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'alice', '--remote')).code).toBe(0);
    expect((await cli('competition', 'enter', 'c.saikoro', '--name', 'alice', '--remote')).stderr).toContain('an entrant named "alice" has entered already');
    expect((await cli('competition', 'reveal', 'c.saikoro', '--secret', SECRET)).code).toBe(0);
    const late = await cli('competition', 'enter', 'c.saikoro', '--name', 'bob', '--remote');
    expect([late.code, late.stderr]).toEqual([1, expect.stringContaining("the competition's secret has been revealed; no entrant can enter any more")]);
  });
});

describe('saikoro competition token', () => {
  it('prints the token alone on stdout; the file keeps its sha256 only; the next token revokes it; --revoke revokes', async () => {
    await make();
    await cli('competition', 'enter', 'c.saikoro', '--name', 'alice', '--remote');
    const first = await cli('competition', 'token', 'c.saikoro', '--entrant', 'alice');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^skt_[A-Za-z0-9_-]{43}\n$/);
    expect(first.stderr).toContain('printed this once');
    expect(first.stderr).toContain('saikoro competition token c.saikoro --entrant alice --revoke');
    const token = first.stdout.trim();
    expect(fs.readFileSync(path.join(cwd, 'c.saikoro')).includes(Buffer.from(token))).toBe(false);
    let project = open();
    expect(project.entrantToken(sha(token))).toMatchObject({ entrant: 'alice', revokedAt: null });
    project.close();
    const second = (await cli('competition', 'token', 'c.saikoro', '--entrant', 'alice')).stdout.trim();
    expect(second).not.toBe(token);
    project = open();
    expect(project.entrantToken(sha(token))!.revokedAt).not.toBeNull();
    expect(project.entrantToken(sha(second))!.revokedAt).toBeNull();
    project.close();
    const revoked = await cli('competition', 'token', 'c.saikoro', '--entrant', 'alice', '--revoke');
    expect([revoked.code, revoked.stdout, revoked.stderr]).toEqual([0, '', "revoked alice's token: a running server refuses it within a second\n"]);
    expect((await cli('competition', 'token', 'c.saikoro', '--entrant', 'alice', '--revoke')).stderr).toBe('alice had no valid token\n');
    project = open();
    expect(project.entrantTokens().every((t) => t.revokedAt !== null)).toBe(true);
    project.close();
  });

  it('refuses an entrant that is not remote or not there, and a missing --entrant', async () => {
    await make();
    await cli('competition', 'enter', 'c.saikoro', '--name', 'rnd', '--solver', 'random');
    expect((await cli('competition', 'token', 'c.saikoro')).stderr).toContain('competition token: missing --entrant NAME');
    const local = await cli('competition', 'token', 'c.saikoro', '--entrant', 'rnd');
    expect([local.code, local.stdout]).toEqual([1, '']);
    expect(local.stderr).toContain('entrant rnd is not remote (it entered as built-in solver random): its runs run here, so it needs no token');
    expect((await cli('competition', 'token', 'c.saikoro', '--entrant', 'zed')).stderr).toContain(
      'c.saikoro: has no entrant named "zed" (enter it with saikoro competition enter FILE --name zed --remote)',
    );
    expect((await cli('competition', 'token', 'c.saikoro', '--entrant', 'rnd', '--name', 'x')).stderr).toContain('--name does not go with token');
  });
});
