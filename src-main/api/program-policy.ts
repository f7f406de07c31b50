/**
 * Who may make the app run a solver program (docs/external-solvers.md, "Security"). Running a
 * program is a privilege: a spec or a start request that names one makes this machine execute
 * it. The API asks its ProgramPolicy before it adds an experiment with a program, starts a
 * program's run or runs an experiment that has one:
 *
 * - web mode (`saikoro serve`): refused, with an error naming the option, unless the server was
 *   started with `--allow-commands` (then allowed, as the CLI allows what its spec names);
 * - the desktop app: asks the person once per project and program, naming the program, before it
 *   first runs (src-main/electron/main.ts supplies the dialog as `confirm`);
 * - the CLI does not go through the API: it runs what the spec names, as make would.
 */
import { FieldError } from '../../src-shared/base/field-error.ts';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';

/** A program the app is about to run, as the person sees it. */
export interface ProgramToRun {
  /** The solver's name (its label in the experiment). */
  name: string;
  command: string[];
}

export interface ProgramPermissionRequest {
  programs: ProgramToRun[];
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

function describePrograms(programs: ProgramToRun[]): string {
  return programs.map((p) => `${p.name} (${formatCommand(p.command)})`).join(', ');
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
      throw new ProgramNotAllowedError('command', `${action}: the solver ${describePrograms(programs)} is a program, and this server does not run programs; ${how}`);
    },
  };
}

/**
 * Asks `confirm` once per place (project) and program, naming it, before the program first
 * runs; remembers the answer "yes" for this app session (never in the project file: a file from
 * someone else must not carry a permission). "No" refuses this time and asks again next time.
 */
export function askOncePerProject(confirm: (question: { place: string; action: string; programs: ProgramToRun[] }) => Promise<boolean>): ProgramPolicy {
  const approved = new Set<string>();
  const key = (place: string, p: ProgramToRun) => JSON.stringify([place, p.command]);
  return {
    async allow({ programs, place, action }) {
      const unasked = programs.filter((p) => !approved.has(key(place, p)));
      if (unasked.length === 0) return;
      if (!(await confirm({ place, action, programs: unasked })))
        throw new ProgramNotAllowedError('command', `${action}: you did not allow the program ${describePrograms(unasked)} to run`);
      for (const p of unasked) approved.add(key(place, p));
    },
  };
}

/** The question the desktop app's dialog asks (one place for its words). */
export function programQuestion(question: { place: string; action: string; programs: ProgramToRun[] }): { message: string; detail: string } {
  const many = question.programs.length > 1;
  return {
    message: `Run ${many ? 'these programs' : 'this program'} on your computer?`,
    detail: `${question.action} runs ${many ? 'programs' : 'a program'} with your permissions:\n\n${question.programs.map((p) => `${p.name}: ${formatCommand(p.command)}`).join('\n')}\n\nfor ${question.place}. Allow only programs you trust. Saikoro asks once per project and program while it is open.`,
  };
}
