import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError, numberOption, parseCommandArgs, UsageError, writeLine, type Command } from '../command.ts';
import { benchHelp } from './bench.help.ts';
import { suites } from '../../bench/registry.ts';
import { renderTable } from '../../bench/suite.ts';

export const benchCommand: Command = {
  name: 'bench',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, benchHelp);
    const names: string[] = positionals;
    const unknown = names.filter((name) => !suites.some((s) => s.name === name));
    if (unknown.length) throw new UsageError(`unknown suite ${unknown.map((n) => `"${n}"`).join(', ')}`);
    const chosen = names.length ? suites.filter((s) => names.includes(s.name)) : suites.filter((s) => s.byDefault);
    const points = values.points === undefined ? undefined : numberOption('points', values.points, 0, { integer: true, min: 1, max: 1_000_000 });
    const reference = values.reference === undefined ? undefined : path.resolve(io.cwd, values.reference);
    if (reference !== undefined && !fs.existsSync(reference))
      throw new InputError(`--reference ${reference}: no such file (the reference evaluator, rngbias.py)`);
    const context = { quick: Boolean(values.quick), points, reference, progress: (message: string) => writeLine(io.stderr, message) };
    const results: Record<string, unknown> = {};
    if (!values.json) writeLine(io.stdout, `Machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}\n`);
    for (const suite of chosen) {
      context.progress(`bench ${suite.name}: running...`);
      const report = await (await suite.load()).run(context);
      results[suite.name] = report.json;
      if (!values.json) for (const table of report.tables) writeLine(io.stdout, renderTable(table));
    }
    if (values.json) writeLine(io.stdout, JSON.stringify(chosen.length === 1 ? results[chosen[0].name] : results));
    return 0;
  },
};
