/**
 * `saikoro init DIR`: a first study a newcomer can run at once, from the installed package
 * alone. The experiment's instances and budget are chosen so that the solvers differ: at
 * N = 200 with 3,000 evaluations, every pair of the four solvers differs on both instances
 * (Mann-Whitney, Holm-adjusted p < 0.001 with 10 seeds; docs/cli.md "A first study"), where
 * the docs' older mo3 example at N = 50 put every solver on the ideal point and every
 * comparison tied. The Python solver is examples/solvers/local_search.py, with the client
 * beside it. Nothing is ever overwritten: every file is created exclusively, and a folder that
 * already holds one of them is refused before anything is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError, parseCommandArgs, UsageError, writeLine, type Command } from '../command.ts';
import { initHelp } from './init.help.ts';
import { findExecutable } from '../../host/find-executable.ts';
import { PROJECT_ROOT } from '../../server/renderer-dir.ts';
import { clientFolder } from './client.ts';

export const STUDY_EXPERIMENT = 'first';

/** The study's spec, as study.json holds it (with or without the Python solver). */
export function studySpec(withPython: boolean): string {
  const solvers = [
    '    { "name": "random" }',
    '    { "name": "nsga2" }',
    '    { "name": "barrier-mo" }',
    ...(withPython ? ['    { "name": "local-search", "command": ["python3", "solver.py"], "cwd": "solver" }'] : []),
  ];
  return [
    '{',
    `  "name": "${STUDY_EXPERIMENT}",`,
    `  "description": "A first study (saikoro init): ${withPython ? 'four' : 'three'} solvers on the dice problem with two and three objectives at N = 200",`,
    '  "instances": [',
    '    { "name": "mo2-n200", "track": "mo2", "n": 200 },',
    '    { "name": "mo3-n200", "track": "mo3", "n": 200 }',
    '  ],',
    '  "solvers": [',
    solvers.join(',\n'),
    '  ],',
    '  "seeds": { "count": 10 },',
    '  "budget": { "evaluations": 3000 }',
    '}',
    '',
  ].join('\n');
}

/** The next commands, as init prints them and the study's README lists them. */
function nextCommands(): string[] {
  const commands: [string, string][] = [
    ['saikoro experiment run study.saikoro', 'a worker per core; Ctrl-C, run again to resume'],
    [`saikoro compare study.saikoro ${STUDY_EXPERIMENT} --metric hv`, 'medians, Mann-Whitney U + A12, Friedman + Holm'],
    ['saikoro serve', 'the app in a browser: open the printed address'],
    [`saikoro report study.saikoro ${STUDY_EXPERIMENT} --out ${STUDY_EXPERIMENT}.html`, 'or .pdf .csv .json .tex'],
  ];
  const width = Math.max(...commands.map(([c]) => c.length));
  return commands.map(([c, why]) => `${c.padEnd(width)}   # ${why}`);
}

function studyReadme(withPython: boolean): string {
  return `# A first Saikoro study

\`study.saikoro\` is a project holding one experiment, \`${STUDY_EXPERIMENT}\` (its spec: \`study.json\`):
${withPython ? 'four' : 'three'} solvers on the EC-Comp 2020 dice problem with two objectives (\`mo2\`) and three
(\`mo3\`) at N = 200 rolls, 10 seeds each, 3,000 evaluations a run. The solvers are
\`random\` (uniform sampling, the baseline), \`nsga2\` (NSGA-II), \`barrier-mo\` (Saikoro's
strongest multi-objective solver)${withPython ? ' and `local-search`, the Python program `solver/solver.py`' : ''}.

\`\`\`sh
${nextCommands().join('\n')}
\`\`\`

\`compare\` prints each solver's median hypervolume (higher is better) per instance, and for
every pair of solvers the Mann-Whitney U test (Holm-adjusted p) and the effect size A12. In
the app (\`saikoro serve\`, then open the printed address): Project opens \`study.saikoro\`;
Comparison shows the same statistics with box plots; the Pareto explorer shows the fronts.
${
  withPython
    ? `
## Your own solver

\`solver/solver.py\` is a solver in plain Python (hill climbers; read its comments) on
\`solver/saikoro_client.py\`, the client for Saikoro's solver protocol. The program runs in
\`solver/\` (\`"cwd": "solver"\`): on Linux in a sandbox that sees a copy of that folder and nothing
else of the machine, so keep what it needs there. Change it, then add it as a new experiment
(Saikoro stores the sha256 of \`solver.py\` with \`${STUDY_EXPERIMENT}\` and will not run a changed one under
that name). Runs are named by what they are, so the built-in solvers' runs
of the new experiment are the ones already done, and only the changed solver runs:

\`\`\`sh
cp study.json mine.json                  # then set "name": "mine" in mine.json
saikoro experiment add study.saikoro --spec mine.json
saikoro experiment run study.saikoro mine
saikoro compare study.saikoro mine --metric hv
\`\`\`
`
    : `
No \`python3\` was found on the PATH when this study was made, so it has no Python solver.
`
}
More: \`saikoro help spec\` (the spec format), \`saikoro help protocol\` (what a solver program
speaks), \`saikoro help reports\`, \`saikoro --help\`.
`;
}

export const initCommand: Command = {
  name: 'init',
  async run(argv, io) {
    const { positionals } = parseCommandArgs(argv, initHelp);
    const [given, ...extra] = positionals;
    if (given === undefined || given === '') throw new UsageError('missing DIR (the folder to make the study in)');
    if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`);
    const dir = path.resolve(io.cwd, given);
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat && !stat.isDirectory()) throw new InputError(`${given}: exists and is not a folder`);

    const withPython = findExecutable('python3', io.cwd, io.env.PATH ?? process.env.PATH) !== null;
    const files: [string, () => string | Buffer][] = [
      ['study.json', () => studySpec(withPython)],
      ...(withPython
        ? ([
            ['solver/solver.py', () => fs.readFileSync(path.join(PROJECT_ROOT, 'examples', 'solvers', 'local_search.py'))],
            ['solver/saikoro_client.py', () => fs.readFileSync(path.join(clientFolder(), 'saikoro_client.py'))],
          ] as [string, () => Buffer][])
        : []),
      ['README.md', () => studyReadme(withPython)],
    ];
    // The solver's folder is the program's whole world in its sandbox: one that exists already is not used.
    const names = ['study.saikoro', 'study.json', ...(withPython ? ['solver'] : []), 'README.md'];
    const there = names.filter((name) => fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false }) !== undefined);
    if (there.length) throw new InputError(`${given}: already holds ${there.join(', ')}; saikoro init never overwrites anything (choose a new folder)`);

    // Everything or nothing: what this call made is removed again when a step fails.
    const madeDir = !stat;
    const made: string[] = [];
    let madeSolverDir = false;
    try {
      fs.mkdirSync(dir, { recursive: true });
      if (withPython) {
        fs.mkdirSync(path.join(dir, 'solver'));
        madeSolverDir = true;
      }
      for (const [name, content] of files) {
        fs.writeFileSync(path.join(dir, name), content(), { flag: 'wx' });
        made.push(name);
      }
      // The experiment goes in exactly as `saikoro experiment add` puts it (validated, its program resolved and hashed).
      const { createProject } = await import('./project.ts');
      createProject(path.join(dir, 'study.saikoro'), io).close();
      made.push('study.saikoro');
      const { experimentCommand } = await import('./experiment.ts');
      const added = await experimentCommand.run(['add', 'study.saikoro', '--spec', 'study.json'], { ...io, cwd: dir });
      if (added !== 0) throw new InputError(`${given}: the study's experiment could not be added (above)`);
    } catch (e) {
      for (const name of made) fs.rmSync(path.join(dir, name), { force: true });
      if (madeSolverDir) fs.rmSync(path.join(dir, 'solver'), { recursive: true, force: true });
      if (madeDir) {
        try {
          fs.rmdirSync(dir);
        } catch {
          // not empty (something else was put there meanwhile): left as it is
        }
      }
      if (e instanceof InputError || e instanceof UsageError) throw e;
      throw new InputError(`${given}: cannot make the study there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was left behind`);
    }

    const shown = given.endsWith('/') ? given : `${given}/`;
    const lines = [
      `made a first study in ${shown}:`,
      `  study.saikoro      the project, with the experiment "${STUDY_EXPERIMENT}"`,
      `  study.json         its spec: 2 instances x ${withPython ? 4 : 3} solvers x 10 seeds, 3,000 evaluations a run`,
      ...(withPython ? ['  solver/            a Python solver to change (solver.py: hill climbers), on saikoro_client.py'] : []),
      '  README.md          these commands, and what to try next',
      ...(withPython ? [] : ['(no python3 on the PATH: the study has the built-in solvers only)']),
      'next:',
      `  cd ${given}`,
      ...nextCommands().map((c) => `  ${c}`),
    ];
    for (const line of lines) writeLine(io.stdout, line);
    return 0;
  },
};
