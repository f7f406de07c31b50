/**
 * JSON from outside (command lines, environment variables, files, request bodies, project
 * files) with a bound on nesting.
 *
 * JSON.parse itself copes with deep nesting, but everything recursive that touches the value
 * afterwards does not: JSON.stringify in an error message, structuredClone, a validator.
 * `[[[...1...]]]` 6,000 deep then ends the process with "RangeError: Maximum call stack size
 * exceeded". No input of this program nests deeper than a few levels (a spec: spec, instances,
 * instance, config, objectives, group), so anything deeper than MAX_JSON_DEPTH is refused
 * before it is parsed, with a message that says so.
 */

/** Deepest nesting of arrays and objects accepted (a spec needs 6, a stored result 4). */
export const MAX_JSON_DEPTH = 64;

/** Input that is not JSON, or is nested too deep. The message says which and where. */
export class JsonInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonInputError';
  }
}

/**
 * The deepest nesting of [ and { in a JSON text, ignoring brackets inside strings; stops
 * counting (and returns a value above `limit`) as soon as `limit` is exceeded.
 */
export function jsonTextDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * JSON.parse with a nesting limit (MAX_JSON_DEPTH by default). Throws JsonInputError:
 * "nested deeper than 64 levels" or "not valid JSON (<the parser's reason>)".
 * Use it for every JSON text that comes from outside the program.
 */
export function parseJsonSafe(text: string, options: { maxDepth?: number } = {}): unknown {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  if (jsonTextDepth(text, maxDepth) > maxDepth) throw new JsonInputError(`nested deeper than ${maxDepth} levels`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new JsonInputError(`not valid JSON (${(e as Error).message})`);
  }
}

/**
 * Checks the nesting of an already parsed value (a YAML document, an API argument) without
 * recursion; throws JsonInputError naming `what` when it is deeper than maxDepth.
 */
export function checkValueDepth(value: unknown, what: string, maxDepth = MAX_JSON_DEPTH): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > maxDepth) throw new JsonInputError(`${what}: nested deeper than ${maxDepth} levels`);
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
}

/** JSON.stringify for messages: never throws, never longer than maxChars (then ends in "..."). */
export function describeValue(value: unknown, maxChars = 60): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? '[...]' : typeof value === 'object' && value !== null ? '{...}' : String(value);
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}...` : text;
}

/**
 * The original text of one member of the top-level object in a JSON text (the last one when
 * the key repeats, as JSON.parse keeps the last), or undefined when there is none. `text` must
 * be valid JSON (parse it first). Used to echo an id exactly as it was written, so
 * 12345678901234567890 is not rounded to a double on the way back.
 */
export function topLevelMemberText(text: string, key: string): string | undefined {
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const skipString = () => {
    // at the opening quote
    i++;
    while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
  };
  const skipValue = () => {
    if (text[i] === '"') return skipString();
    if (text[i] === '[' || text[i] === '{') {
      let depth = 0;
      while (i < n) {
        const c = text[i];
        if (c === '"') {
          skipString();
          continue;
        }
        if (c === '[' || c === '{') depth++;
        else if (c === ']' || c === '}') {
          depth--;
          if (depth === 0) {
            i++;
            return;
          }
        }
        i++;
      }
      return;
    }
    while (i < n && !',}] \t\n\r'.includes(text[i])) i++;
  };
  ws();
  if (text[i] !== '{') return undefined;
  i++;
  let found: string | undefined;
  for (;;) {
    ws();
    if (i >= n || text[i] === '}') return found;
    if (text[i] !== '"') return found;
    const keyStart = i;
    skipString();
    const name = JSON.parse(text.slice(keyStart, i)) as string;
    ws();
    i++; // the colon
    ws();
    const valueStart = i;
    skipValue();
    if (name === key) found = text.slice(valueStart, i);
    ws();
    if (text[i] === ',') i++;
  }
}
