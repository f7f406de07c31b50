/**
 * YAML from outside (rngbias's config.yml, solve's --config x.yaml) with a bound on nesting,
 * as src-shared/json.ts bounds JSON.
 *
 * The yaml package builds values recursively: a document nested a few thousand deep ends in
 * "Maximum call stack size exceeded", and `- - - ...` 100,000 deep even aborts the process out
 * of memory while it formats that error. Its concrete syntax tree (CST) parser does not recurse,
 * so the nesting is measured on the CST first, without recursion, and anything deeper than
 * MAX_JSON_DEPTH (64) is refused before a value is built.
 */
import { CST, Parser, parse as parseYaml, YAMLParseError } from 'yaml';
import { MAX_JSON_DEPTH } from '../../src-shared/json.ts';

/** A YAML text that is not valid, or is nested too deep. The message says which and where. */
export class YamlInputError extends Error {
  override readonly name = 'YamlInputError';
}

/**
 * The deepest nesting of collections (block and flow sequences and maps) in a YAML text, as
 * the parsed value nests; stops counting (returns a value above `limit`) once `limit` is
 * passed. Keys that are collections count as well.
 */
export function yamlDepth(text: string, limit = Infinity): number {
  let deepest = 0;
  const stack: [CST.Token, number][] = [];
  for (const token of new Parser().parse(text)) stack.push([token, 0]);
  while (stack.length) {
    const [token, depth] = stack.pop()!;
    if (token.type === 'document') {
      if (token.value) stack.push([token.value, depth]);
      continue;
    }
    if (!CST.isCollection(token)) continue;
    const inside = depth + 1;
    if (inside > deepest) deepest = inside;
    if (deepest > limit) return deepest;
    for (const item of token.items as CST.CollectionItem[]) {
      if (item.key) stack.push([item.key, inside]);
      if (item.value) stack.push([item.value, inside]);
    }
  }
  return deepest;
}

/**
 * YAML's parse with a nesting limit (MAX_JSON_DEPTH by default). Throws YamlInputError:
 * "nested deeper than 64 levels" or "not valid YAML at line L, column C: <the parser's reason>".
 */
export function parseYamlSafe(text: string, options: { maxDepth?: number } = {}): unknown {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (yamlDepth(text, maxDepth) > maxDepth) throw new YamlInputError(`nested deeper than ${maxDepth} levels`);
  try {
    return parseYaml(text);
  } catch (e) {
    const where = e instanceof YAMLParseError && e.linePos ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
    throw new YamlInputError(`not valid YAML${where}: ${(e as Error).message.split('\n')[0]}`);
  }
}
