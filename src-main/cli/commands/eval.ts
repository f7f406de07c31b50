import type { Writable } from 'node:stream';
import { parseCommandArgs, readLines, TooLongLine, type Command } from '../command.ts';
import { evalHelp } from './eval.help.ts';
import { configFromPartial, type DiceConfig } from '../../../src-shared/problems/dice/config.ts';
import { DiceEvaluator } from '../../../src-shared/problems/dice/evaluate.ts';
import { JsonInputError, parseJsonSafe, topLevelMemberText } from '../../../src-shared/json.ts';

const CONFIG_FIELDS = new Set(['alpha', 'beta', 'gamma', 'objectives', 'constraints', 'lowerBounds', 'upperBounds']);
const CACHE_LIMIT = 64;

/**
 * Evaluators per (N, config), reused across lines; the least recently used one is dropped past
 * CACHE_LIMIT, so 200,000 lines with 200,000 different configs hold 64 evaluators, not all.
 */
export class EvaluatorCache {
  private readonly evaluators = new Map<string, DiceEvaluator>();

  get size(): number {
    return this.evaluators.size;
  }

  get(n: number, partial: Record<string, unknown>): DiceEvaluator {
    const key = `${n}|${JSON.stringify(partial)}`;
    let evaluator = this.evaluators.get(key);
    if (evaluator) {
      // Most recently used last: Map keeps insertion order.
      this.evaluators.delete(key);
    } else {
      evaluator = new DiceEvaluator(configFromPartial({ ...(partial as Partial<DiceConfig>), n }));
      if (this.evaluators.size >= CACHE_LIMIT) this.evaluators.delete(this.evaluators.keys().next().value!);
    }
    this.evaluators.set(key, evaluator);
    return evaluator;
  }
}

/** The id as written on the line (its JSON text), or "null". */
function idText(line: string, request: object): string {
  if (!Object.hasOwn(request, 'id')) return 'null';
  return topLevelMemberText(line, 'id') ?? 'null';
}

function evaluateLine(line: string, cache: EvaluatorCache): { id: string; output: object; ok: boolean } {
  let request: unknown;
  try {
    request = parseJsonSafe(line);
  } catch (e) {
    if (!(e instanceof JsonInputError)) throw e;
    const error = e.message.startsWith('nested') ? `line ${e.message}` : `not valid JSON: ${JSON.stringify(line.slice(0, 60))}`;
    return { id: 'null', output: { error }, ok: false };
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    return { id: 'null', output: { error: 'each line must be a JSON object {"x": ...}' }, ok: false };
  const id = idText(line, request);
  const { x, config = {} } = request as { x?: unknown; config?: unknown };
  try {
    if (typeof x !== 'string') throw new Error(`"x" must be a string of digits 1-6, got ${x === undefined ? 'nothing' : typeof x}`);
    if (x.length === 0) throw new Error('"x" is empty');
    if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new Error('"config" must be an object');
    const unknown = Object.keys(config).filter((k) => !CONFIG_FIELDS.has(k));
    if (unknown.length) throw new Error(`unknown config field ${unknown.map((k) => `"${k}"`).join(', ')}; allowed: ${[...CONFIG_FIELDS].join(', ')}`);
    const evaluation = cache.get(x.length, config as Record<string, unknown>).evaluate(x);
    return { id, output: evaluation, ok: true };
  } catch (e) {
    return { id, output: { error: (e as Error).message }, ok: false };
  }
}

function write(stream: Writable, text: string): Promise<void> | undefined {
  if (stream.write(text)) return undefined;
  return new Promise((resolve) => stream.once('drain', resolve));
}

export const evalCommand: Command = {
  name: 'eval',
  async run(argv, io) {
    parseCommandArgs(argv, evalHelp);
    const cache = new EvaluatorCache();
    let failures = 0;
    for await (const line of readLines(io.stdin)) {
      if (typeof line === 'string' && line.trim() === '') continue;
      const { id, output, ok } = line instanceof TooLongLine ? { id: 'null', output: { error: line.message }, ok: false } : evaluateLine(line, cache);
      if (!ok) failures++;
      // The id's own text, then the rest: {"id":<as written>,...}.
      const body = JSON.stringify(output);
      const pending = write(io.stdout, body === '{}' ? `{"id":${id}}\n` : `{"id":${id},${body.slice(1)}\n`);
      if (pending) await pending;
    }
    if (failures) io.stderr.write(`saikoro eval: ${failures} line(s) had errors (see their "error" fields)\n`);
    return failures ? 1 : 0;
  },
};
