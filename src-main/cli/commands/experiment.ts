import fs from 'node:fs';
import path from 'node:path';
import { InputError, numberOption, parseCommandArgs, UsageError, visibleControls, writeLine, type CliIo, type Command } from '../command.ts';
import { experimentHelp } from './experiment.help.ts';
import { expandGrid, type RunSpec } from '../../../src-shared/experiments/grid.ts';
import { programOf, SpecError, type ExperimentSpec } from '../../../src-shared/experiments/spec.ts';
import { prepareSpec } from '../../app/experiments.ts';
import { boundedHvNormaliser } from '../../app/dice.ts';
import { Launcher } from '../../app/launcher.ts';
import { nodeSpawner } from '../../host/spawner.ts';
import { ProjectError } from '../../project/errors.ts';
import type { Project } from '../../project/store.ts';
import { addExperiment } from '../../experiments/add.ts';
import { hostExecutor, inlineExecutor, type Admission } from '../../app/experiment-executor.ts';
import { commandLineGate, experimentPrograms, ProgramResolveError, type GateProgram } from '../../app/program-gate.ts';
import { ProgramNotAllowedError } from '../../app/program-policy.ts';
import { approveAdded, programLines, projectProgramGate, storedPrograms } from '../programs.ts';
import { defaultParallelism } from '../../host/pool.ts';
import { defaultMemoryLimitMb } from '../../host/memory-limit.ts';
import { ProgramFilesError, projectFolder } from '../../experiments/programs.ts';
import { sandboxWarning } from '../../host/sandbox.ts';
import { experimentStatus, plannedRuns, runExperiment, runThatCannotFit, type ProgressEvent } from '../../experiments/runner.ts';
import { sampleRuns, verifyRun } from '../../app/experiment-verify.ts';
import { openProject, openShardResults, runOptions } from './project.ts';
import { JsonInputError, parseJsonSafe } from '../../../src-shared/json.ts';

function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(sec).padStart(2, '0')}s` : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * A spec file as `experiment add` takes it: read, parsed with the nesting limit, prepared
 * (prepareSpec). A multi-objective instance's normalisation above N = 2,520 is computed in a
 * worker process (under a worker's memory limit), not in this one.
 */
async function readSpecFile(file: string, io: CliIo, projectDir: string): Promise<ExperimentSpec> {
  const full = path.resolve(io.cwd, file);
  let text: string;
  try {
    text = fs.readFileSync(full, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`);
  }
  let json: unknown;
  try {
    json = parseJsonSafe(text);
  } catch (e) {
    if (e instanceof JsonInputError) throw new InputError(`${file}: ${e.message}`);
    throw e;
  }
  let launcher: Launcher | null = null;
  const normalise = boundedHvNormaliser(() => (launcher ??= new Launcher({ spawn: nodeSpawner(), parallelism: 1 })));
  try {
    return await prepareSpec(json, projectDir, async (config) => {
      try {
        return await normalise(config);
      } catch (e) {
        throw new InputError(
          `${file}: the default normalisation of an instance at N = ${config.n.toLocaleString('en-US')} could not be computed: ${(e as Error).message}`,
        );
      }
    });
  } catch (e) {
    if (e instanceof SpecError) throw new InputError(`${file}: ${e.message}`);
    throw e;
  } finally {
    (launcher as Launcher | null)?.dispose();
  }
}

/** A competition file runs and grows through `saikoro competition` (its failure policy, its entrants' folders). */
function refuseCompetition(project: Project, file: string, instead: string): void {
  if (project.competition() === null) return;
  project.close();
  throw new InputError(`${file}: is a competition file; ${instead}`);
}

/** The named experiments (all when none is named); unknown names are input errors. */
function chooseExperiments(project: Project, file: string, names: string[]): ExperimentSpec[] {
  const all = project.experiments();
  if (all.length === 0) throw new InputError(`${file}: has no experiments yet (add one with: saikoro experiment add ${file} --spec SPEC.json)`);
  for (const name of names)
    if (!all.some((e) => e.name === name)) throw new InputError(`${file}: no experiment named "${name}" (has: ${all.map((e) => e.name).join(', ')})`);
  return all.filter((e) => names.length === 0 || names.includes(e.name)).map((e) => e.spec);
}

/** Grid expansion of a stored spec; a solver that no longer exists is an input error. */
function gridOf(spec: ExperimentSpec, file: string): void {
  try {
    expandGrid(spec);
  } catch (e) {
    if (e instanceof SpecError) throw new InputError(`${file}: experiment "${spec.name}": ${e.message}`);
    throw e;
  }
}

/** Throws InputError naming the first run (solver label and instance) whose estimated memory exceeds the workers' limit. */
function refuseWhatCannotFit(specs: ExperimentSpec[], limitMb: number, isDefault: boolean): void {
  for (const spec of specs) {
    const tooBig = runThatCannotFit(plannedRuns(spec), limitMb);
    if (tooBig)
      throw new InputError(
        `experiment ${spec.name}: ${tooBig}${isDefault ? ' (the default share of this machine for each of --jobs workers; --memory-limit MB sets it)' : ''}`,
      );
  }
}

/**
 * Each experiment whose programs the gate refuses (a script changed since it was added, an
 * executable not found), with why; the policy is asked once about all the others' programs,
 * and its refusal (not approved, no --yes) refuses the whole command, naming the programs.
 */
async function programsRefused(admission: Admission, specs: readonly ExperimentSpec[], io: CliIo, file: string): Promise<Map<string, string>> {
  const entries = specs.flatMap((spec) => experimentPrograms(spec).map((program) => ({ experiment: spec.name, program })));
  const refused = new Map<string, string>();
  let each;
  try {
    each = await admission.gate.allowEach(
      entries.map((e) => e.program),
      admission.context,
    );
  } catch (e) {
    if (e instanceof ProgramNotAllowedError) throw new InputError(e.rule.replaceAll(path.resolve(io.cwd, file), file));
    throw e;
  }
  each.forEach((e, i) => {
    if (e.error && !refused.has(entries[i].experiment)) refused.set(entries[i].experiment, e.error.message);
  });
  return refused;
}

async function runAction(file: string, names: string[], values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  // Left out, --memory-limit gives each worker the host's default share of the machine (as solve and serve give).
  const { jobs, memoryLimitMb, shard, shardOut } = runOptions(file, values, defaultParallelism());
  const runTimeoutMs =
    values['run-timeout'] === undefined ? null : numberOption('run-timeout', values['run-timeout'] as string, 0, { min: 0.1, max: 10_000_000 }) * 1000;
  const project = openProject(file, io, shard ? { readOnly: true } : {});
  refuseCompetition(project, file, 'run it with saikoro competition run');
  let target: Project = project;
  if (values.inline && runTimeoutMs !== null) throw new UsageError('--run-timeout needs worker processes (leave out --inline)');
  const admission: Admission = {
    gate: projectProgramGate(io, values.yes === true),
    context: { project: path.resolve(io.cwd, file), action: 'experiment run' },
  };
  const executor = values.inline ? inlineExecutor(admission) : hostExecutor({ jobs, memoryLimitMb, runTimeoutMs, admission });
  let stop = false;
  const onSignal = () => {
    stop = true;
    writeLine(io.stderr, 'stopping after the runs in flight (Ctrl-C again to abort them)...');
    process.once('SIGINT', () => {
      executor.dispose();
      process.exit(130);
    });
  };
  process.once('SIGINT', onSignal);
  try {
    const chosen = chooseExperiments(project, file, names);
    chosen.forEach((s) => gridOf(s, file));
    // Settings that cannot fit in a worker are refused before any run starts.
    if (!values.inline) refuseWhatCannotFit(chosen, memoryLimitMb ?? defaultMemoryLimitMb(jobs), memoryLimitMb === undefined);
    const unsandboxed = chosen.some((spec) => spec.solvers.some((s) => s.command !== undefined)) ? sandboxWarning() : null;
    if (unsandboxed) writeLine(io.stderr, unsandboxed);
    // The programs of every chosen experiment with runs to do pass the gate first, named and
    // asked about once: an experiment whose program cannot run (a script changed since it was
    // added) is not run, the others are.
    const statuses = project.runStatuses();
    const refused = await programsRefused(
      admission,
      chosen.filter((s) => plannedRuns(s, shard).some((r) => statuses.get(r.id) !== 'done')),
      io,
      file,
    );
    for (const [name, why] of refused) writeLine(io.stderr, visibleControls(`experiment ${name} was not run: ${why}`));
    const specs = chosen.filter((s) => !refused.has(s.name));
    if (shard) {
      const out = shardOut;
      target = openShardResults(out, file, io);
      for (const spec of specs) {
        try {
          addExperiment(target, spec);
        } catch (e) {
          if (e instanceof ProjectError) throw new InputError(e.message);
          throw e;
        }
      }
      writeLine(io.stderr, `shard ${shard.k}/${shard.n}: results go to ${out}`);
    }
    // On a terminal, one status line under the per-run lines shows the runs in flight.
    let statusShown = false;
    let lastDraw = 0;
    const clearStatus = () => {
      if (statusShown) io.stderr.write('\r\x1b[K');
      statusShown = false;
    };
    let failed = 0;
    let interrupted = false;
    const summaries = [];
    for (const spec of specs) {
      if (stop) break;
      const runs: RunSpec[] = plannedRuns(spec, shard);
      const started = Date.now();
      const summary = await runExperiment(runs, {
        executor,
        jobs,
        target,
        alsoDoneIn: shard ? [project] : [],
        shouldStop: () => stop,
        onTick: io.stderrIsTTY
          ? (t) => {
              const now = Date.now();
              if (now - lastDraw < 250) return;
              lastDraw = now;
              const inFlight = t.running.map((r) => `${r.run.label}/${r.run.instance}/s${r.run.seed} ${Math.round(r.fraction * 100)}%`).join(', ');
              const text = `[${spec.name} ${t.finished}/${t.todo}, ${(t.overall * 100).toFixed(1)}%] ${inFlight}`;
              io.stderr.write(`\r\x1b[K${visibleControls(text.slice(0, 160))}`);
              statusShown = true;
            }
          : undefined,
        onProgress: (e: ProgressEvent) => {
          clearStatus();
          const line = `[${spec.name} ${e.finished}/${e.todo}] ${e.status === 'done' ? 'done  ' : 'FAILED'} ${e.run.instance} ${e.run.label} seed ${e.run.seed} in ${formatDuration(e.elapsedMs)}${e.error ? `: ${e.error}` : ''}; ETA ${e.etaMs === null ? 'unknown' : formatDuration(e.etaMs)}`;
          writeLine(io.stderr, line);
        },
      });
      clearStatus();
      failed += summary.failed;
      if (summary.refused !== null) {
        refused.set(spec.name, summary.refused);
        writeLine(io.stderr, visibleControls(`experiment ${spec.name} stopped: ${summary.refused}; nothing was stored for its runs not run`));
      } else interrupted ||= summary.remaining > 0;
      summaries.push({ experiment: spec.name, ...summary, seconds: (Date.now() - started) / 1000 });
      if (!values.json)
        writeLine(
          io.stdout,
          `${spec.name}: ${summary.total} runs${shard ? ` in shard ${shard.k}/${shard.n}` : ''}: ${summary.skipped} already done, ${summary.done} done now, ${summary.failed} failed, ${summary.remaining} not run`,
        );
    }
    if (values.json) writeLine(io.stdout, JSON.stringify(summaries));
    if (interrupted) writeLine(io.stderr, 'interrupted: every finished run is stored; run the same command again to resume');
    if (failed) writeLine(io.stderr, `${failed} run(s) failed; running again retries them`);
    return failed || interrupted || refused.size ? 1 : 0;
  } finally {
    process.removeListener('SIGINT', onSignal);
    executor.dispose();
    if (target !== project) target.close();
    project.close();
  }
}

export const experimentCommand: Command = {
  name: 'experiment',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, experimentHelp);
    const [action, file, ...names] = positionals;
    if (!action) throw new UsageError('missing action: add, run, status or verify');
    if (!['add', 'run', 'status', 'verify'].includes(action)) throw new UsageError(`unknown action "${action}" (add, run, status or verify)`);
    if (!file) throw new UsageError(`experiment ${action}: missing FILE`);
    switch (action) {
      case 'add': {
        if (names.length) throw new UsageError(`experiment add: unexpected argument "${names[0]}"`);
        if (!values.spec) throw new UsageError('experiment add: missing --spec SPEC.json');
        const project = openProject(file, io);
        try {
          refuseCompetition(project, file, 'its experiments are its tracks; enter entrants with saikoro competition enter');
          const spec = await readSpecFile(values.spec, io, projectFolder(project.path));
          // Its programs must run as written: the executable on the PATH, the cwd, each script
          // (the gate's resolution, as the app's add does), before anything is stored.
          const programs = spec.solvers.flatMap((s, i) => {
            const program = programOf(s);
            return program ? [{ name: `${s.label ?? s.name} (solvers[${i}])`, program }] : [];
          });
          let resolved;
          try {
            resolved = await commandLineGate().allow(programs, { project: project.path, action: 'experiment add' });
          } catch (e) {
            if (e instanceof ProgramResolveError || e instanceof ProgramFilesError) throw new InputError(`${values.spec}: ${e.message}`);
            throw e;
          }
          let outcome;
          try {
            outcome = addExperiment(project, spec);
          } catch (e) {
            if (e instanceof ProjectError) throw new InputError(e.message.replaceAll(project.path, file));
            throw e;
          }
          const runs = expandGrid(spec).length;
          const shape = `${spec.instances.length} instance(s) x ${spec.solvers.length} solver(s) x ${runs / (spec.instances.length * spec.solvers.length)} seed(s)`;
          writeLine(
            io.stdout,
            outcome === 'added'
              ? `added experiment ${spec.name}: ${runs} runs (${shape})`
              : `experiment ${spec.name} is already in ${file} with this spec (${runs} runs)`,
          );
          // The programs it runs, approved for this project on this machine: the person gave the spec.
          for (const line of approveAdded(io, project.path, resolved)) writeLine(io.stdout, line);
          return 0;
        } finally {
          project.close();
        }
      }
      case 'run':
        return runAction(file, names, values, io);
      case 'status': {
        const project = openProject(file, io);
        try {
          const statuses = project.runStatuses();
          const specs = chooseExperiments(project, file, names);
          // Each experiment's counts, and the programs its runs run (the commands a received file stores).
          const all = specs.map((spec) => (gridOf(spec, file), { ...experimentStatus(spec, statuses), programs: storedPrograms(spec) }));
          if (values.json) {
            writeLine(io.stdout, JSON.stringify(all));
            return 0;
          }
          all.forEach((s, i) => {
            writeLine(io.stdout, `${s.name}: ${s.done}/${s.total} done, ${s.failed} failed, ${s.missing} missing`);
            for (const c of s.cells)
              writeLine(io.stdout, `  ${c.instance.padEnd(16)} ${c.label.padEnd(16)} ${c.done}/${c.total} done${c.failed ? `, ${c.failed} failed` : ''}`);
            for (const line of programLines(specs[i], '  ')) writeLine(io.stdout, line);
          });
          return 0;
        } finally {
          project.close();
        }
      }
      case 'verify': {
        if (values.all && values.sample !== undefined) throw new UsageError('--sample and --all exclude each other');
        const count = values.all ? Infinity : numberOption('sample', values.sample, 5, { integer: true, min: 1 });
        const project = openProject(file, io, { readOnly: true });
        try {
          const specs = chooseExperiments(project, file, names);
          // Each run's experiment and solver, as a refusal names them (a run id in two experiments: the first).
          const whose = new Map<string, GateProgram | null>();
          for (const spec of specs) {
            gridOf(spec, file);
            const programs = new Map(experimentPrograms(spec).map((p) => [p.name, p]));
            for (const run of expandGrid(spec)) if (!whose.has(run.id)) whose.set(run.id, programs.get(run.label) ?? null);
          }
          const chosen = sampleRuns(project.runs([...whose.keys()]), count);
          if (chosen.length === 0) throw new InputError(`${file}: no finished runs to verify`);
          const outcomes = [];
          const admission: Admission = {
            gate: projectProgramGate(io, values.yes === true),
            context: { project: path.resolve(project.path), action: 'experiment verify' },
          };
          // The programs it will re-run, named and asked about once, before any runs.
          const programs = new Map(chosen.flatMap((r) => (whose.get(r.id) ? [[whose.get(r.id)!.who, whose.get(r.id)!] as const] : [])));
          try {
            await admission.gate.allowEach([...programs.values()], admission.context);
          } catch (e) {
            if (e instanceof ProgramNotAllowedError) throw new InputError(e.rule.replaceAll(project.path, file));
            throw e;
          }
          for (const record of chosen) {
            const who = whose.get(record.id)?.who;
            const outcome = await verifyRun(record, who ? { ...admission, context: { ...admission.context, who } } : admission);
            writeLine(
              io.stderr,
              `${outcome.ok ? 'ok      ' : 'MISMATCH'} ${record.instance} ${record.label} seed ${record.seed} (${record.id.slice(0, 12)})${outcome.difference ? `: ${outcome.difference}` : ''}${outcome.note ? ` (${outcome.note})` : ''}`,
            );
            outcomes.push(outcome);
          }
          const bad = outcomes.filter((o) => !o.ok).length;
          if (values.json) writeLine(io.stdout, JSON.stringify({ checked: outcomes.length, mismatches: bad, runs: outcomes }));
          else writeLine(io.stdout, bad ? `${bad} of ${outcomes.length} runs did not reproduce` : `${outcomes.length} runs re-run: all reproduce exactly`);
          return bad ? 1 : 0;
        } finally {
          project.close();
        }
      }
    }
    return 2;
  },
};
