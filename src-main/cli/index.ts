import { isatty } from 'node:tty';
import { EXIT_BAD_INPUT, EXIT_OK, EXIT_USAGE, InputError, UsageError, visibleControls, type CliIo } from './command.ts';
import { commands } from './commands/registry.ts';

export function defaultIo(): CliIo {
  return {
    // Node makes process.stdin on first use, and for a pipe that loads node:net and its streams
    // (a few milliseconds): only the commands that read stdin pay for it, --help does not.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    // isatty, not process.stdin.isTTY: reading the property would make the stream (see above).
    stdinIsTTY: isatty(0),
  };
}

async function topUsage(): Promise<string> {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  // The topics' list only: their pages load when asked for.
  const { topicList } = await import('./help-topics.ts');
  return [
    'Usage: saikoro <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Every command takes --help. --json switches to machine-readable output on stdout; progress',
    'and diagnostics go to stderr. Exit status: 0 success, 1 bad input, 2 usage error.',
    '',
    'Help topics (saikoro help TOPIC prints the page; saikoro help TOPIC --path, where its file is):',
    ...topicList(),
    '',
    'New here? saikoro init DIR makes a first study to run. saikoro --version prints the version.',
  ].join('\n');
}

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    const { appVersion } = await import('../project/app-version.ts');
    io.stdout.write(appVersion() + '\n');
    return EXIT_OK;
  }
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout.write((await topUsage()) + '\n');
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  // `saikoro help <command>` is `saikoro <command> --help`.
  const wanted = name === 'help' ? rest[0] : name;
  const entry = commands.find((c) => c.name === wanted);
  if (!entry && name === 'help') {
    // `saikoro help TOPIC`: a page of the manual.
    const { helpPage, helpTopic, topicPath } = await import('./help-topics.ts');
    const topic = helpTopic(wanted);
    // `saikoro help TOPIC --path`: where the file the topic is about is (cp "$(saikoro help slurm --path)" .).
    const asPath = rest.length === 2 && rest[1] === '--path';
    if (!topic || (rest.length > 1 && !asPath)) {
      io.stderr.write(
        `saikoro help: ${topic ? `one command or topic at a time (and --path), got "${visibleControls(rest.join(' '))}"` : `no command or help topic "${visibleControls(wanted)}"`}\nTry 'saikoro --help' for the commands and topics.\n`,
      );
      return EXIT_USAGE;
    }
    io.stdout.write(visibleControls(asPath ? topicPath(topic) + '\n' : helpPage(topic)));
    return EXIT_OK;
  }
  if (!entry) {
    io.stderr.write(`saikoro: unknown command "${visibleControls(wanted)}"\nTry 'saikoro --help' for the list of commands.\n`);
    return EXIT_USAGE;
  }
  // Help comes from the registry: the command's module does not load for it.
  if (name === 'help' || rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write((await entry.help()).usage.trimEnd() + '\n');
    return EXIT_OK;
  }
  // A command is a short process: the SQLite binding's WebAssembly (node-sqlite3-wasm) stays in
  // V8's baseline compiler. Its optimising tier recompiled SQLite's interpreter loop on a
  // background thread, 0.5 s of CPU that the process then waited for at its exit, more than the
  // whole rest of `project info`; the baseline code is as fast for the queries of a command,
  // even a report of 4,000 runs (docs/benchmarks.md, "Start-up"). Each function is validated
  // when it is first compiled, not all 1.3 MB up front (still before it runs). The server and
  // the benchmarks, long-running, keep the optimising tier.
  if (entry.name !== 'serve' && entry.name !== 'bench') {
    const { setFlagsFromString } = await import('node:v8');
    for (const flag of ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up', '--wasm-lazy-validation']) setFlagsFromString(flag);
  }
  const command = await entry.load();
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line and where the usage is: the usage itself is sixty lines for some commands.
      io.stderr.write(`saikoro ${name}: ${visibleControls(e.message)}\nTry 'saikoro ${name} --help' for the usage.\n`);
      return EXIT_USAGE;
    }
    // A project file that is refused, damaged, read-only or full, wherever the command met it.
    // Recognised by name first, so a command that never opened a project never loads the store.
    let input = e;
    if (e instanceof Error && e.name === 'ProjectError') {
      const { ProjectError } = await import('../project/errors.ts');
      const { projectInputError } = await import('./commands/project.ts');
      if (e instanceof ProjectError) input = projectInputError(e, io);
    }
    if (input instanceof InputError) {
      io.stderr.write(`saikoro ${name}: ${visibleControls(input.message)}\n`);
      return EXIT_BAD_INPUT;
    }
    throw e;
  }
}
