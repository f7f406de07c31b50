/**
 * `saikoro help TOPIC`: a page of the manual (docs/*.md, shipped with the package) printed on
 * stdout, so an installed saikoro needs no checkout and no browser to say what a spec holds or
 * what a solver program speaks. A topic is a whole page or one of its "## " sections. Each page
 * starts with the file it comes from, as installed here, and the files it is about (the Slurm
 * script, the Python client), so `saikoro help slurm` also says where the script is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../server/renderer-dir.ts';

export interface HelpTopic {
  name: string;
  summary: string;
  /** The page, relative to the package's root. */
  file: string;
  /** A "## " heading of the page: only that section is printed. */
  section?: string;
  /** Files the page is about, relative to the package's root: named, with their paths here, above the page. */
  about?: string[];
}

export const HELP_TOPICS: HelpTopic[] = [
  { name: 'spec', summary: 'the experiment spec: instances x solvers x seeds, a budget (JSON)', file: 'docs/projects.md', section: 'Experiment spec (JSON)' },
  { name: 'protocol', summary: 'the external-solver protocol: any program as a solver, over JSON lines', file: 'docs/external-solvers.md' },
  { name: 'clients', summary: 'the Python client and the example solvers', file: 'docs/external-clients.md', about: ['clients/python', 'examples/solvers'] },
  {
    name: 'examples',
    summary: 'the example solvers: Python (plain, DEAP, pymoo) and Node',
    file: 'docs/external-clients.md',
    section: 'The examples',
    about: ['examples/solvers'],
  },
  { name: 'projects', summary: 'project files, experiments, runs, shards and merge', file: 'docs/projects.md' },
  {
    name: 'slurm',
    summary: 'experiments on a cluster: shards as a Slurm job array, then merge',
    file: 'docs/projects.md',
    section: 'Scale-out: shards, merge and Slurm',
    about: ['docs/examples/slurm-experiment.sh'],
  },
  { name: 'reports', summary: 'report formats (HTML, PDF, CSV, JSON, LaTeX) and what they hold', file: 'docs/report.md' },
  { name: 'stats', summary: 'the statistics of compare: Mann-Whitney U, A12, Friedman, Holm', file: 'docs/stats.md' },
  { name: 'metrics', summary: 'hypervolume, IGD+, epsilon, spacing and their normalisation', file: 'docs/metrics.md' },
  { name: 'so-solvers', summary: 'the single-objective solvers and what their parameters do', file: 'docs/solvers.md' },
  { name: 'mo-solvers', summary: 'the multi-objective solvers', file: 'docs/mo-solvers.md' },
  { name: 'cli', summary: 'the command-line tool: install, start-up, rngbias and eval in detail', file: 'docs/cli.md' },
  { name: 'limits', summary: 'limits: memory, input sizes, neutralised outputs', file: 'docs/limits.md' },
];

export function helpTopic(name: string): HelpTopic | undefined {
  return HELP_TOPICS.find((t) => t.name === name);
}

/** The lines of `heading`'s "## " section (the heading included), up to the next "## " heading outside a code block. */
export function markdownSection(text: string, heading: string): string | null {
  const lines = text.split('\n');
  let start = -1;
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('```')) fenced = !fenced;
    if (fenced || !lines[i].startsWith('## ')) continue;
    if (start >= 0) return lines.slice(start, i).join('\n').trimEnd();
    if (lines[i].slice(3).trim() === heading) start = i;
  }
  return start >= 0 ? lines.slice(start).join('\n').trimEnd() : null;
}

/** A topic's page as printed: where it comes from, the files it is about, then the page (or its section). */
export function helpPage(topic: HelpTopic, root = PROJECT_ROOT): string {
  const file = path.join(root, topic.file);
  const text = fs.readFileSync(file, 'utf8');
  const body = topic.section === undefined ? text.trimEnd() : markdownSection(text, topic.section);
  if (body === null) throw new Error(`${file} has no section "${topic.section}"`);
  const head = [`saikoro help ${topic.name}: ${topic.section ? `"${topic.section}" in ` : ''}${file}`];
  for (const about of topic.about ?? []) head.push(`${about}: ${path.join(root, about)}`);
  return `${head.join('\n')}\n\n${body}\n`;
}

/** The file a topic is about, absolute: the first of `about` (the Slurm script, the client's folder), else its page. */
export function topicPath(topic: HelpTopic, root = PROJECT_ROOT): string {
  return path.join(root, topic.about?.[0] ?? topic.file);
}

/** The topics, as `saikoro --help` lists them. */
export function topicList(): string[] {
  const width = Math.max(...HELP_TOPICS.map((t) => t.name.length));
  return HELP_TOPICS.map((t) => `  ${t.name.padEnd(width)}  ${t.summary}`);
}
