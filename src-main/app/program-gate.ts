/**
 * The one gate every solver program passes before it runs (docs/external-solvers.md,
 * "Security"). Whatever the entry point (the API's startRun, an experiment session, a retry,
 * `experiment run`, `verify`, `solve --command`, a competition), a run is planned first and the
 * gate then looks at the plan, at what will really run, not at the raw input:
 *
 * 1. it resolves the program: the working directory (absolute, and a folder), the executable
 *    (an absolute path as the spec's own PATH finds it, with its link target and sha256), the
 *    environment the spec adds, and the sha256 of every argument that is a file;
 * 2. it checks the files whose hashes an experiment stored: a changed script would run under
 *    the run ids of the old one;
 * 3. it asks the policy (program-policy.ts) about exactly that description, so an approval
 *    covers the resolved executable, env, cwd and files, not a command's words;
 * 4. it confirms that the project the question was about is still the one open (the desktop's
 *    question waits on a person; another project may have been opened meanwhile);
 * 5. it marks the plan's request as admitted, with the executable and working directory it
 *    resolved. The launcher (launcher.ts) and the in-process path refuse a program's request the
 *    gate did not admit, and the program is spawned from that executable in that directory, so
 *    PATH cannot swap it afterwards. The request's own `program.cwd` stays as the entry gives it
 *    (relative to the project's folder): that is what the result records, so a project folder
 *    that moves still verifies.
 *
 * A plan without a program passes unchanged (and is marked admitted too).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ProgramSpec } from '../../src-shared/solvers/program/protocol.ts';
import type { DiceRunRequest, RunRequest } from '../../src-shared/runtime/kinds/index.ts';
import { checkProgramHashes, ProgramFilesError, projectFolder } from '../experiments/programs.ts';
import { programOf, solverLabel, type ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import type { AnyRunPlan } from './launcher.ts';
import { findExecutable } from '../host/find-executable.ts';
import { ProgramFolderError, sha256OfFile } from '../host/program-folder.ts';
import { programView } from '../host/sandbox.ts';
import { carriesProjectMark, isProjectOrBeside } from '../project/file-checks.ts';
import type { ProgramView } from '../../src-shared/solvers/program/admission.ts';
import { allowPrograms, ProgramNotAllowedError, type ProgramPolicy, type ResolvedProgram } from './program-policy.ts';

/** A program that cannot run as given (its executable not found, its cwd not a folder). */
export class ProgramResolveError extends Error {
  override name = 'ProgramResolveError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where a gate's question comes from. */
export interface GateContext {
  /** The project file the programs belong to (its folder is where relative paths start), or null. */
  project: string | null;
  /** Where relative paths start when there is no project (the CLI's working directory; default: this process's). */
  folder?: string;
  /** What is about to happen, for the question and the refusal: "Starting this run", "Running experiment \"x\"". */
  action: string;
  /**
   * Where the relative paths of these programs (by name) start instead: a competition's
   * entrants run in a copy of their archived folder, extracted outside the project's folder.
   */
  programFolders?: ReadonlyMap<string, string>;
  /** Who the program of an admitted run is in a refusal ('experiment "e", solver ga (solvers[1])'; default 'solver NAME'). */
  who?: string;
}

/** A program the gate is asked about: the solver's name, its entry, and how refusals name it. */
export interface GateProgram {
  name: string;
  program: ProgramSpec;
  /** Who it is in a refusal ('experiment "e", solver ga (solvers[1])'); default 'solver NAME'. */
  who?: string;
}

/** An experiment's solver programs as the gate is asked about them, each named by experiment and solver in a refusal. */
export function experimentPrograms(spec: ExperimentSpec): GateProgram[] {
  return spec.solvers.flatMap((solver, i) => {
    const program = programOf(solver);
    return program ? [{ name: solverLabel(solver), program, who: `experiment ${JSON.stringify(spec.name)}, solver ${solver.name} (solvers[${i}])` }] : [];
  });
}

export interface ProgramGateOptions {
  policy: ProgramPolicy;
  /** The project open now (the app's ProjectService); checked again after the policy answered. */
  currentProject?: () => string | null;
}

const admitted = new WeakSet<object>();
/** What each resolved program may see (its folder's files, hashed), for the request the gate admits. */
const views = new WeakMap<ResolvedProgram, ProgramView>();

/** Whether a request may be launched: it names no program, or the gate admitted it. */
export function wasAdmitted(request: RunRequest): boolean {
  if ((request as DiceRunRequest).program === undefined) return true;
  const place = (request as DiceRunRequest).admitted;
  return admitted.has(request) && typeof place?.executable === 'string' && typeof place.cwd === 'string';
}

/** Throws unless the gate admitted this request (the launcher's and the in-process path's check). */
export function assertAdmitted(request: RunRequest): void {
  if (!wasAdmitted(request))
    throw new ProgramNotAllowedError(
      'program',
      `the solver ${(request as DiceRunRequest).solver} is a program that did not pass the program gate (src-main/app/program-gate.ts); it was not started`,
    );
}

/**
 * The admitted request `from` with a field the app adds after the gate (its normalisation:
 * dice.ts withHvNormalisation): `to` is admitted when `from` was. Only for a copy that changes no
 * field the gate checked (program, admitted).
 */
export function carryAdmission<R extends RunRequest>(from: RunRequest, to: R): R {
  if (admitted.has(from)) admitted.add(to);
  return to;
}

/** Marks a request without a program as admitted (nothing to check). */
function markPlain<P extends AnyRunPlan>(plan: P): P {
  admitted.add(plan.request);
  return plan;
}

/** Endings of the files interpreters run (python3 x.py, node x.mjs, Rscript x.R, java -jar x.jar, ...). */
const SCRIPT_ENDING = /\.(py|pyw|mjs|cjs|js|ts|sh|bash|rb|pl|r|jl|lua|php|jar)$/i;

/**
 * Whether an argument names a script, which must then be a file: one word with a script's
 * ending. Other arguments that are not files are an option's value, a module name, code, ...
 */
export function namesScript(arg: string): boolean {
  return !/\s/.test(arg) && SCRIPT_ENDING.test(arg);
}

/**
 * What a program entry will really run, from `folder` (the project's folder, or where the CLI
 * runs). Throws ProgramResolveError naming the field when the cwd is not a folder, the
 * executable cannot be found, or a script argument (namesScript) is not a file, with the path
 * it looked for.
 */
export function resolveProgram(name: string, program: ProgramSpec, folder: string, project: string | null = null): ResolvedProgram {
  return resolveProgramView(name, program, folder, project).resolved;
}

/**
 * What a program may see: the project file (and what lies beside it: its journal, lock and
 * kept-aside copies) and any other Saikoro project are never shown or copied.
 */
function projectExclusion(project: string | null): (file: string) => boolean {
  return (file) => (project !== null && isProjectOrBeside(file, project)) || carriesProjectMark(file);
}

/** resolveProgram, with what the program may see in its sandbox (sandbox.ts), hashed. */
function resolveProgramView(name: string, program: ProgramSpec, folder: string, project: string | null): { resolved: ResolvedProgram; view: ProgramView } {
  const cwd = path.resolve(folder, program.cwd ?? '.');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(cwd);
  } catch (e) {
    throw new ProgramResolveError(
      'cwd',
      `the solver ${name}'s working directory ${cwd} does not exist (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  if (!stat.isDirectory()) throw new ProgramResolveError('cwd', `the solver ${name}'s working directory ${cwd} is not a folder`);
  const env = program.env ?? {};
  const pathVariable = env.PATH ?? process.env.PATH;
  const word = program.command[0];
  const found = findExecutable(word, cwd, pathVariable);
  if (found === null)
    throw new ProgramResolveError(
      'command',
      word.includes('/')
        ? `the solver ${name}'s program ${JSON.stringify(word)} is not an executable file (looked for ${path.resolve(cwd, word)})`
        : `the solver ${name}'s program ${JSON.stringify(word)} was not found on the PATH ${env.PATH !== undefined ? 'its env sets' : 'Saikoro runs with'} (${pathVariable ?? 'none'})`,
    );
  // Started by this path (a venv's python3 is a link that must stay one); its target is what is hashed.
  const executable = found;
  const target = fs.realpathSync(found);
  const files: Record<string, string> = { [word]: sha256OfFile(target) };
  const exclude = projectExclusion(project);
  for (const arg of program.command.slice(1)) {
    if (arg === '' || arg.startsWith('-') || files[arg] !== undefined) continue;
    const full = path.resolve(cwd, arg);
    let isFile = false;
    try {
      isFile = fs.statSync(full).isFile();
    } catch {
      // not a file: an option's value, a module name, ... or a script that is not there
    }
    if (!isFile) {
      if (namesScript(arg)) throw new ProgramResolveError('command', `the solver ${name}'s script ${JSON.stringify(arg)} is not a file (looked for ${full})`);
      continue;
    }
    if (exclude(full) || exclude(fs.realpathSync(full)))
      throw new ProgramResolveError(
        'command',
        `the solver ${name}'s argument ${JSON.stringify(arg)} is a Saikoro project file (${full}): a program never sees one`,
      );
    files[arg] = sha256OfFile(full);
  }
  let view: ProgramView;
  try {
    view = programView(executable, program.command.slice(1), cwd, { hidden: project !== null ? [path.resolve(project)] : [], exclude });
  } catch (e) {
    if (e instanceof ProgramFolderError) throw new ProgramResolveError('cwd', `the solver ${name}: ${e.message}`);
    throw e;
  }
  const { folder: hashed } = view;
  const resolved: ResolvedProgram = {
    name,
    command: [...program.command],
    executable,
    ...(target !== executable ? { target } : {}),
    cwd,
    env: { ...env },
    files,
    folder: { sha256: hashed.sha256, files: hashed.files, bytes: hashed.bytes },
  };
  return { resolved, view };
}

export class ProgramGate {
  constructor(private readonly options: ProgramGateOptions) {}

  /** The project open now (null: none, or a gate without projects, as the CLI's). */
  openProject(): string | null {
    return this.options.currentProject?.() ?? null;
  }

  private folderOf(context: GateContext): string {
    return context.project !== null ? projectFolder(context.project) : path.resolve(context.folder ?? process.cwd());
  }

  /** Each program resolved and its stored hashes checked; a program that cannot run comes back with why (the error). */
  private resolveEach(programs: readonly GateProgram[], folder: string, context: GateContext): { resolved: ResolvedProgram; error: Error | null }[] {
    return programs.map(({ name, program, who }) => {
      const from = context.programFolders?.get(name) ?? folder;
      try {
        checkProgramHashes(program, from, who ?? `solver ${name}`);
        const { resolved, view } = resolveProgramView(name, program, from, context.project);
        // A program entered with its folder's hash (a competition's entrant) runs only from exactly that folder.
        if (program.folder !== undefined && resolved.folder?.sha256 !== program.folder)
          throw new ProgramFilesError(
            `${name}: its folder ${resolved.cwd} is not the one it was entered with (sha256 ${program.folder.slice(0, 12)}... then, ${resolved.folder?.sha256.slice(0, 12) ?? 'none'}... now); nothing ran`,
          );
        views.set(resolved, view);
        return { resolved, error: null };
      } catch (e) {
        // Seen by its words only (the policy of a server that runs no program says so first).
        return {
          resolved: {
            name,
            command: [...program.command],
            executable: null,
            cwd: path.resolve(from, program.cwd ?? '.'),
            env: { ...(program.env ?? {}) },
            files: {},
          },
          error: e as Error,
        };
      }
    });
  }

  /**
   * Resolves the programs, checks their stored hashes, asks the policy about what will really
   * run and confirms the project: the question an experiment's run asks once for all its
   * programs. Throws ProgramNotAllowedError, or the first ProgramResolveError or
   * ProgramFilesError (after the policy: a server that runs no program says that first).
   */
  async allow(programs: readonly GateProgram[], context: GateContext): Promise<ResolvedProgram[]> {
    if (programs.length === 0) return [];
    const folder = this.folderOf(context);
    const each = this.resolveEach(programs, folder, context);
    await this.options.policy.allow({ programs: each.map((e) => e.resolved), place: context.project ?? folder, action: context.action });
    const failure = each.find((e) => e.error !== null);
    if (failure) throw failure.error;
    this.confirmProject(context);
    return each.map((e) => e.resolved);
  }

  /**
   * The same for programs that may run without one another (the experiments of one `experiment
   * run`, the runs of one `experiment verify`): each is resolved and checked, the policy is
   * asked once about those that can run (a refusal throws ProgramNotAllowedError), and each
   * comes back admitted or with why it cannot run (ProgramResolveError, ProgramFilesError).
   */
  async allowEach(
    programs: readonly GateProgram[],
    context: GateContext,
  ): Promise<{ program: GateProgram; resolved: ResolvedProgram | null; error: Error | null }[]> {
    if (programs.length === 0) return [];
    const folder = this.folderOf(context);
    const each = this.resolveEach(programs, folder, context);
    const runnable = each.filter((e) => e.error === null).map((e) => e.resolved);
    if (runnable.length) {
      await this.options.policy.allow({ programs: runnable, place: context.project ?? folder, action: context.action });
      this.confirmProject(context);
    }
    return each.map((e, i) => ({ program: programs[i], resolved: e.error === null ? e.resolved : null, error: e.error }));
  }

  /** The project the question was about must still be the open one. */
  private confirmProject(context: GateContext): void {
    const current = this.options.currentProject;
    if (!current || context.project === null) return;
    const now = current();
    if (now !== context.project)
      throw new ProgramNotAllowedError(
        'project',
        `${context.action}: the project ${context.project} was ${now === null ? 'closed' : 'replaced by another'} while the program was being approved; nothing ran`,
      );
  }

  /**
   * Admits a planned run: a plan with a program is resolved, checked and asked about (allow),
   * and comes back with the resolved executable and working directory (`admitted`), marked so
   * the launcher takes it. A plan without a program comes back marked, unchanged.
   */
  async admit<P extends AnyRunPlan>(plan: P, context: GateContext): Promise<P> {
    if (plan.kind !== 'dice' || plan.request.program === undefined) return markPlain(plan);
    const request = plan.request;
    const program = request.program!;
    const [resolved] = await this.allow([{ name: request.solver, program, ...(context.who ? { who: context.who } : {}) }], context);
    const view = views.get(resolved);
    const next: DiceRunRequest = { ...request, admitted: { executable: resolved.executable!, cwd: resolved.cwd, ...(view ? { view } : {}) } };
    admitted.add(next);
    const started = plan.started as { program?: ProgramSpec };
    return { ...plan, request: next, ...(started.program ? { started: { ...plan.started, program: { ...started.program, cwd: resolved.cwd } } } : {}) } as P;
  }
}

/**
 * The command line's gate: the CLI runs the programs its command line or its project names (as
 * make would run a Makefile's), so its policy allows them; the gate still resolves what runs,
 * checks the stored hashes and marks the plans the launcher takes.
 */
export function commandLineGate(): ProgramGate {
  return new ProgramGate({ policy: allowPrograms() });
}
