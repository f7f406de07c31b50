/**
 * Who may make the app run a solver program (docs/external-solvers.md, "Security"). Running a
 * program is a privilege: a spec or a start request that names one makes this machine execute
 * it. The program gate (program-gate.ts) asks its ProgramPolicy about what will really run (the
 * resolved executable, env, cwd and file hashes) before any program starts, whatever the entry
 * point (startRun, an experiment's run or retry, verify, a competition), and when an experiment
 * with a program is added:
 *
 * - web mode (`saikoro serve`): refused (refusePrograms), with an error naming the option, unless
 *   the server was started with `--allow-commands` (then every program is allowed: allowPrograms);
 * - the desktop app: asks the person once per project and program as it resolves (askOncePerProject:
 *   the executable and its hash, command, cwd, env, script and folder hashes; another PATH or a
 *   changed script is asked about again), naming it, before it first runs; a yes lasts the app
 *   session (src-main/electron/main.ts supplies the dialog as `confirm`);
 * - the CLI: a program on its own command line (`solve --command`, `experiment add` of a spec you
 *   gave) runs (commandLineGate, allowPrograms); a project's programs (`experiment run`, `verify`)
 *   run only when approved for that project on this machine, with --yes, or after a yes on a
 *   terminal (commandLinePrograms below; src-main/cli/programs.ts).
 */
import { FieldError } from '../../src-shared/base/field-error.ts';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';

/** A program the app is about to run, as the gate resolved it (program-gate.ts): what really runs. */
export interface ResolvedProgram {
  /** The solver's name (its label in the experiment). */
  name: string;
  /** The command as the spec or the request gives it. */
  command: string[];
  /** The executable that will start (absolute); null when it could not be found (the run fails with why). */
  executable: string | null;
  /** Where that executable's links lead, when it is a link (a venv's python3): the file hashed. */
  target?: string;
  /** The working directory, absolute. */
  cwd: string;
  /** The variables the spec adds to Saikoro's environment. */
  env: Record<string, string>;
  /** sha256 of the executable (under the command's first word) and of every argument that is a file. */
  files: Record<string, string>;
  /**
   * The program's folder (its working directory) as the gate hashed it, without the project
   * file: what a sandboxed program sees (a copy of), and the sha256 of its list of hashed files.
   */
  folder?: { sha256: string; files: number; bytes: number };
}

export interface ProgramPermissionRequest {
  programs: ResolvedProgram[];
  /** The project file the programs belong to, or the folder a single run starts in. */
  place: string;
  /** What is about to happen: "add experiment x", "run experiment x", "start a run". */
  action: string;
}

/** A program the app will not run; `field` names what to change ("command", or the option). */
export class ProgramNotAllowedError extends FieldError {
  override readonly name = 'ProgramNotAllowedError';
}

export interface ProgramPolicy {
  /** Resolves when the programs may run; throws ProgramNotAllowedError otherwise. */
  allow(request: ProgramPermissionRequest): Promise<void>;
}

function describePrograms(programs: ResolvedProgram[]): string {
  return programs.map((p) => `${p.name} (${formatCommand(p.command)})`).join(', ');
}

/** Everything of a program an approval covers: a change to any of it is another program. */
function approvalKey(place: string, p: ResolvedProgram): string {
  return JSON.stringify([
    place,
    p.executable,
    p.target ?? null,
    p.command,
    p.cwd,
    Object.entries(p.env).sort(),
    Object.entries(p.files).sort(),
    p.folder?.sha256 ?? null,
  ]);
}

/** How the question shows one program: its command, and what runs when that is not plain. */
export function describeResolved(p: ResolvedProgram): string {
  const lines = [`${p.name}: ${formatCommand(p.command)}`];
  if (p.executable !== null)
    lines.push(
      `  runs ${p.executable}${p.target ? ` (-> ${p.target})` : ''}${p.files[p.command[0]] ? ` (sha256 ${p.files[p.command[0]].slice(0, 12)}...)` : ''}`,
    );
  lines.push(
    `  in ${p.cwd}${p.folder ? ` (${p.folder.files} files, ${p.folder.bytes.toLocaleString('en-US')} bytes, sha256 ${p.folder.sha256.slice(0, 12)}...)` : ''}`,
  );
  const env = Object.entries(p.env);
  if (env.length) lines.push(`  with ${env.map(([k, v]) => `${k}=${v}`).join(' ')}`);
  for (const [arg, sha] of Object.entries(p.files)) if (arg !== p.command[0]) lines.push(`  ${arg}: sha256 ${sha.slice(0, 12)}...`);
  return lines.join('\n');
}

/** Every program allowed (a server started with --allow-commands). */
export function allowPrograms(): ProgramPolicy {
  return { allow: async () => {} };
}

/** Every program refused, naming how to allow them (`option`: "--allow-commands" for the web server). */
export function refusePrograms(how = 'start `saikoro serve` with --allow-commands to allow it'): ProgramPolicy {
  return {
    async allow({ programs, action }) {
      if (programs.length === 0) return;
      throw new ProgramNotAllowedError(
        'command',
        `${action}: the solver ${describePrograms(programs)} is a program, and this server does not run programs; ${how}`,
      );
    },
  };
}

/**
 * Asks `confirm` once per place (project) and program, naming it, before the program first
 * runs; remembers the answer "yes" for this app session (never in the project file: a file from
 * someone else must not carry a permission). "No" refuses this time and asks again next time.
 * The answer covers what really runs (approvalKey: the executable and its hash, the command,
 * cwd, env and the files' hashes): the same command with another PATH, or a changed script, is
 * asked about again. A program the gate could not resolve is not asked about: it cannot run,
 * and the gate says why.
 */
export function askOncePerProject(confirm: (question: { place: string; action: string; programs: ResolvedProgram[] }) => Promise<boolean>): ProgramPolicy {
  const approved = new Set<string>();
  const key = approvalKey;
  return {
    async allow({ programs, place, action }) {
      if (programs.some((p) => p.executable === null)) return;
      const unasked = programs.filter((p) => !approved.has(key(place, p)));
      if (unasked.length === 0) return;
      if (!(await confirm({ place, action, programs: unasked })))
        throw new ProgramNotAllowedError('command', `${action}: you did not allow the program ${describePrograms(unasked)} to run`);
      for (const p of unasked) approved.add(key(place, p));
    },
  };
}

/** The question the desktop app's dialog asks (one place for its words). */
export function programQuestion(question: { place: string; action: string; programs: ResolvedProgram[] }): { message: string; detail: string } {
  const many = question.programs.length > 1;
  return {
    message: `Run ${many ? 'these programs' : 'this program'} on your computer?`,
    detail: `${question.action} runs ${many ? 'programs' : 'a program'} with your permissions:\n\n${question.programs.map(describeResolved).join('\n')}\n\nfor ${question.place}. Allow only programs you trust. Saikoro asks once per project and program while it is open.`,
  };
}

/** Approvals remembered beyond one command (program-approvals.ts: a file in the user's configuration folder). */
export interface RememberedApprovals {
  has(place: string, program: ResolvedProgram): boolean;
  /** Remembers them; returns why they could not be kept, or null. */
  add(place: string, programs: readonly ResolvedProgram[]): string | null;
}

export interface CommandLineApproval {
  approvals: RememberedApprovals;
  /** --yes: the programs not approved yet run this time (nothing is remembered). */
  yes: boolean;
  /** Asks the person a yes/no question on the terminal; null when there is none (a script, a pipe). */
  ask: ((question: string) => Promise<boolean>) | null;
  /** Where the programs are named before they run (stderr). */
  tell: (text: string) => void;
  /** How a place is shown (a project file as the command line gave it). */
  show?: (place: string) => string;
}

/**
 * The command line's policy for a project's programs (`experiment run`, `experiment verify`):
 * a project file may come from someone else, and its programs would run with your permissions.
 * Before the first run of a command, the programs it will run are named (what really runs: the
 * executable and its sha256, the folder, the variables, the scripts' hashes); then they run when
 *
 * - they are approved for this project on this machine (remembered: `experiment add` of a spec
 *   you gave approves its programs, and so does a "yes" on the terminal), exactly as they
 *   resolve now (another executable, a changed script, another folder is another program);
 * - or the command has --yes (this time; nothing is remembered);
 * - or, on a terminal, the person answers yes (remembered).
 *
 * Otherwise (a script, a pipe, a "no") they are refused with ProgramNotAllowedError naming them
 * and --yes, before anything runs. Programs asked about again in the same command (each run
 * passes the gate) are not named again.
 */
export function commandLinePrograms(options: CommandLineApproval): ProgramPolicy {
  const allowedNow = new Set<string>();
  const show = options.show ?? ((place: string) => place);
  return {
    async allow({ programs, place, action }) {
      // A program the gate could not resolve cannot run: the gate says why.
      if (programs.some((p) => p.executable === null)) return;
      const fresh = programs.filter((p) => !allowedNow.has(approvalKey(place, p)));
      if (fresh.length === 0) return;
      const unapproved = fresh.filter((p) => !options.approvals.has(place, p));
      const many = fresh.length > 1;
      options.tell(
        `${action} runs ${many ? 'these programs' : 'this program'} of ${show(place)}:\n${fresh.map((p) => indent(describeResolved(p))).join('\n')}`,
      );
      if (unapproved.length === 0) options.tell(`  (approved for this project on this machine)`);
      else if (options.yes)
        options.tell(`  (${unapproved.length === fresh.length ? '' : `${describeNames(unapproved)}: `}not approved on this machine: run because of --yes)`);
      else if (options.ask) {
        const yes = await options.ask(
          `Run ${unapproved.length > 1 ? `${describeNames(unapproved)}, programs` : `${unapproved[0].name}, a program`} ${unapproved.length === fresh.length ? 'not' : 'not yet'} approved for ${show(place)} on this machine, with your permissions? [y/N] `,
        );
        if (!yes)
          throw new ProgramNotAllowedError('command', `${action}: you did not allow the program ${describePrograms(unapproved)} to run; nothing was run`);
        const kept = options.approvals.add(place, unapproved);
        options.tell(kept === null ? '  (approved; remembered for this project on this machine)' : `  (approved this time; not remembered: ${kept})`);
      } else
        throw new ProgramNotAllowedError(
          'command',
          `${action}: ${show(place)} runs ${unapproved.length > 1 ? 'programs' : 'a program'} not approved on this machine: ${describePrograms(unapproved)}. Nothing was run. Look at ${unapproved.length > 1 ? 'them' : 'it'} (above, or saikoro project info ${show(place)}), then run again with --yes, or on a terminal to be asked`,
        );
      for (const p of fresh) allowedNow.add(approvalKey(place, p));
    },
  };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function describeNames(programs: readonly ResolvedProgram[]): string {
  return programs.map((p) => p.name).join(', ');
}
