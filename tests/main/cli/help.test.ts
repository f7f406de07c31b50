// Every command's help comes from the registry (commands/<name>.help.ts) without loading the
// command: `saikoro <name> --help` and `saikoro help <name>` print the usage the registry holds;
// that usage names every option the command parses, and the command parses with exactly the
// options the registry holds (a spy on parseCommandArgs records what each command passes), so
// help and parser cannot drift apart. The built CLI, run with a module-load recorder, loads the
// help's chunk and not the command's.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CommandHelp } from '../../../src-main/cli/command.ts';
import { commands } from '../../../src-main/cli/commands/registry.ts';
import { HELP_TOPICS, markdownSection } from '../../../src-main/cli/help-topics.ts';
import { METRICS } from '../../../src-shared/experiments/compare.ts';
import { runCli } from './io.ts';

const parsedWith = vi.hoisted(() => [] as unknown[]);
vi.mock('../../../src-main/cli/command.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src-main/cli/command.ts')>();
  return {
    ...actual,
    parseCommandArgs: ((argv, help) => {
      parsedWith.push(help);
      return actual.parseCommandArgs(argv, help);
    }) satisfies typeof actual.parseCommandArgs,
  };
});

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const OUT = join(ROOT, 'out', 'cli');
const NOT_AN_OPTION = '--not-an-option-of-any-command';

/** The option names a usage line starts with ("  -x, --variables N   ...", "  --json  ..."). */
function optionsListed(usage: string): string[] {
  return [...usage.matchAll(/^\s*(?:-\w, )?--([A-Za-z][\w-]*)/gm)].map((m) => m[1]);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('command help, from the registry', () => {
  it('every command has its help, with a usage line naming it', async () => {
    expect(commands.length).toBeGreaterThanOrEqual(13);
    for (const entry of commands) expect((await entry.help()).usage, entry.name).toMatch(new RegExp(`^Usage: saikoro ${entry.name}\\b`));
  });

  for (const entry of commands) {
    it(`${entry.name}: --help and \`help ${entry.name}\` print the registry's usage, which names every option`, async () => {
      const help: CommandHelp = await entry.help();
      const expected = help.usage.trimEnd() + '\n';
      for (const argv of [
        [entry.name, '--help'],
        [entry.name, '-h'],
        ['help', entry.name],
      ]) {
        const run = await runCli(argv);
        expect([run.code, run.stdout, run.stderr], argv.join(' ')).toEqual([0, expected, '']);
      }
      for (const [long, option] of Object.entries(help.options)) {
        expect(help.usage, `--${long}`).toMatch(new RegExp(`--${escape(long)}(?![\\w-])`));
        if (option.short) expect(help.usage, `-${option.short}`).toMatch(new RegExp(`(^|\\s)-${escape(option.short)}[,\\s]`, 'm'));
      }
      // And the other way: an option the usage lists is one the command takes.
      for (const listed of optionsListed(help.usage)) expect(Object.keys(help.options), `--${listed} in the usage`).toContain(listed);
    });
  }

  it('each command parses its arguments with the options its help lists (a usage error is one line and where the usage is)', async () => {
    for (const entry of commands) {
      parsedWith.length = 0;
      const run = await runCli([entry.name, NOT_AN_OPTION]);
      expect(run.code, entry.name).toBe(2);
      expect(parsedWith, entry.name).toHaveLength(1);
      expect(parsedWith[0], entry.name).toBe(await entry.help());
      expect(run.stderr, entry.name).toBe(`saikoro ${entry.name}: Unknown option '${NOT_AN_OPTION}'\nTry 'saikoro ${entry.name} --help' for the usage.\n`);
    }
  });

  it('compare and report name every metric (their help lists them without loading the statistics)', async () => {
    for (const name of ['compare', 'report']) {
      const { usage } = await commands.find((c) => c.name === name)!.help();
      for (const metric of METRICS) expect(usage, `${name}: ${metric}`).toMatch(new RegExp(`(^|[\\s|:,])${escape(metric)}([\\s|;,]|$)`, 'm'));
    }
  });

  it('an unknown command is named, with where the list of commands is', async () => {
    const run = await runCli(['nosuch']);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toBe(`saikoro: unknown command "nosuch"\nTry 'saikoro --help' for the list of commands.\n`);
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) expect(await runCli([flag])).toEqual({ code: 0, stdout: `saikoro ${version}\n`, stderr: '' });
  });

  it('a negative number is a value, and its option says what is wrong with it; a missing value is one line', async () => {
    for (const [argv, message] of [
      [['solve', '--track', 'so', '--n', '-5', '--evals', '10', '--seed', '1'], '--n: must be positive, got -5'],
      [['nqueens', '--n', '-5'], '--n: must be positive, got -5'],
      [['solve', '--track', 'so', '--n', '50', '--evals', '-1', '--seed', '1'], '--evals: must be positive, got -1'],
      [['solve', '--track', 'so', '--n', '50', '--evals', '10', '--seed', '-0.5'], '--seed: expected an integer, got "-0.5"'],
      [['solve', '--track', 'so', '--n', '--evals', '10', '--seed', '1'], "Option '--n' needs a value"],
      [['solve', '--track', 'so', '--seed'], "Option '--seed' needs a value"],
    ] as const) {
      const run = await runCli([...argv]);
      expect([run.code, run.stdout], argv.join(' ')).toEqual([2, '']);
      expect(run.stderr, argv.join(' ')).toBe(`saikoro ${argv[0]}: ${message}\nTry 'saikoro ${argv[0]} --help' for the usage.\n`);
    }
  });
});

describe('help topics: saikoro help TOPIC prints a page of the manual', () => {
  it('every topic prints its page (or its section) from docs/, headed by the file it comes from', async () => {
    for (const topic of HELP_TOPICS) {
      const run = await runCli(['help', topic.name]);
      expect([run.code, run.stderr], topic.name).toEqual([0, '']);
      const file = join(ROOT, topic.file);
      const text = readFileSync(file, 'utf8');
      const body = topic.section === undefined ? text.trimEnd() : markdownSection(text, topic.section);
      expect(body, topic.name).not.toBeNull();
      expect(run.stdout, topic.name).toBe(
        `${[`saikoro help ${topic.name}: ${topic.section ? `"${topic.section}" in ` : ''}${file}`, ...(topic.about ?? []).map((a) => `${a}: ${join(ROOT, a)}`)].join('\n')}\n\n${body}\n`,
      );
      for (const about of topic.about ?? []) expect(existsSync(join(ROOT, about)), about).toBe(true);
    }
    const spec = (await runCli(['help', 'spec'])).stdout;
    expect(spec).toContain('## Experiment spec (JSON)');
    expect(spec).toContain('| `budget.evaluations` |');
    expect(spec).not.toContain('## Runs and run ids');
    expect((await runCli(['help', 'slurm'])).stdout).toContain(`docs/examples/slurm-experiment.sh: ${join(ROOT, 'docs', 'examples', 'slurm-experiment.sh')}\n`);
    // --path: the file the topic is about, alone on stdout (cp "$(saikoro help slurm --path)" .).
    expect(await runCli(['help', 'slurm', '--path'])).toEqual({ code: 0, stdout: join(ROOT, 'docs', 'examples', 'slurm-experiment.sh') + '\n', stderr: '' });
    expect((await runCli(['help', 'clients', '--path'])).stdout).toBe(join(ROOT, 'clients', 'python') + '\n');
    expect((await runCli(['help', 'examples', '--path'])).stdout).toBe(join(ROOT, 'examples', 'solvers') + '\n');
    expect((await runCli(['help', 'spec', '--path'])).stdout).toBe(join(ROOT, 'docs', 'projects.md') + '\n');
  });

  it('a section ends at the next "## " heading outside a code block', () => {
    const page = ['# T', '## A', 'a', '```sh', '## not a heading (a shell comment)', '```', '## B', 'b'].join('\n');
    expect(markdownSection(page, 'A')).toBe(['## A', 'a', '```sh', '## not a heading (a shell comment)', '```'].join('\n'));
    expect(markdownSection(page, 'B')).toBe('## B\nb');
    expect(markdownSection(page, 'C')).toBeNull();
  });

  it('topics and commands have different names; every "saikoro help X" a usage names exists', async () => {
    const names = commands.map((c) => c.name);
    for (const topic of HELP_TOPICS) expect(names, topic.name).not.toContain(topic.name);
    for (const entry of commands) {
      for (const [, wanted] of (await entry.help()).usage.matchAll(/saikoro help ([a-z-]+)/g))
        expect([...names, ...HELP_TOPICS.map((t) => t.name)], `${entry.name}: saikoro help ${wanted}`).toContain(wanted);
      // A page a usage names by its path is one the package ships (docs/ and examples/ are in package.json's "files").
      for (const [file] of (await entry.help()).usage.matchAll(/\b(?:docs|examples|clients)\/[\w./-]*\w/g))
        expect(existsSync(join(ROOT, file)), `${entry.name}: ${file}`).toBe(true);
    }
    const top = (await runCli(['--help'])).stdout;
    for (const topic of HELP_TOPICS) expect(top).toMatch(new RegExp(`^  ${escape(topic.name)} +${escape(topic.summary)}$`, 'm'));
    const wrong = await runCli(['help', 'spec', 'extra']);
    expect([wrong.code, wrong.stderr]).toEqual([
      2,
      'saikoro help: one command or topic at a time (and --path), got "spec extra"\nTry \'saikoro --help\' for the commands and topics.\n',
    ]);
    const unknown = await runCli(['help', 'specs']);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      'saikoro help: no command or help topic "specs"\nTry \'saikoro --help\' for the commands and topics.\n',
    ]);
  });
});

// A module-load recorder for the built CLI: a loader hook (node:module register) that writes the
// URL of every file module loaded to the file SAIKORO_LOAD_LOG names.
const RECORDER = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.SAIKORO_LOAD_LOG, url + '\\\\n');
  return next(url, context);
}\`));
`;
const scratch = mkdtempSync(join(tmpdir(), 'saikoro-help-loads-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the built CLI (bin/saikoro.mjs) and returns its stdout and the out/cli files it loaded. */
function runBuilt(args: string[]): Promise<{ code: number; stdout: string; loaded: string[] }> {
  const log = join(scratch, `loads-${args.join('-')}.log`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(RECORDER)}`, join(ROOT, 'bin', 'saikoro.mjs'), ...args],
      { env: { PATH: process.env.PATH, SAIKORO_LOAD_LOG: log }, cwd: dirname(ROOT) },
      (error, stdout) => {
        if (error && typeof error.code !== 'number') return reject(error);
        const urls = readFileSync(log, 'utf8').trim().split('\n');
        const loaded = urls.filter((u) => u.startsWith(`file://${OUT}/`)).map((u) => u.slice(`file://${OUT}/`.length));
        resolve({ code: error ? (error.code as number) : 0, stdout, loaded });
      },
    );
  });
}

/** The chunk index.js imports for `file` (rngbias.ts: the command, rngbias.help.ts: its help). */
function chunkOf(file: string): string {
  const index = readFileSync(join(OUT, 'index.js'), 'utf8');
  const base = file.replace(/\.ts$/, '');
  const match = new RegExp(`import\\("\\./(${escape(base)}-[A-Z0-9]+\\.js)"\\)`).exec(index);
  expect(match, `index.js imports ${file} lazily`).not.toBeNull();
  return match![1];
}

describe('the built CLI prints help without loading the command', () => {
  it('saikoro --help loads index.js, the list of help topics and the chunks it shares with commands, no command and no help', async () => {
    const run = await runBuilt(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe((await runCli(['--help'])).stdout);
    expect(run.loaded.filter((file) => !file.startsWith('chunk-'))).toEqual(['index.js', chunkOf('help-topics.ts')]);
  }, 60_000);

  it('saikoro <command> --help loads its help chunk, never its command chunk', async () => {
    for (const entry of commands) {
      const run = await runBuilt([entry.name, '--help']);
      expect(run.code, entry.name).toBe(0);
      expect(run.stdout, entry.name).toBe((await entry.help()).usage.trimEnd() + '\n');
      expect(run.loaded, entry.name).toContain(chunkOf(`${entry.name}.help.ts`));
      expect(run.loaded, entry.name).not.toContain(chunkOf(`${entry.name}.ts`));
    }
    // The recorder sees a command's chunk when the command runs.
    const solvers = await runBuilt(['solvers', '--json']);
    expect(solvers.code).toBe(0);
    expect(solvers.loaded).toContain(chunkOf('solvers.ts'));
  }, 300_000);
});
