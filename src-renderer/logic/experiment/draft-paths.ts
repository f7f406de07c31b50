/**
 * A draft of an experiment spec and its fields by path: the editor's draft is the spec exactly
 * as it would be sent (plain JSON, invalid values included), so the form and the JSON text are
 * two views of one value. The form reads and writes fields by their path
 * ("instances[0].config.alpha[3]", the paths SpecError names).
 */

export type Draft = Record<string, unknown>;
type Segment = string | number;

/** "instances[0].config.alpha[3]" -> ["instances", 0, "config", "alpha", 3]. */
export function pathSegments(field: string): Segment[] {
  const out: Segment[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

export function joinPath(segments: readonly Segment[]): string {
  return segments.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function getAt(root: unknown, field: string): unknown {
  let v: unknown = root;
  for (const s of pathSegments(field)) {
    if (typeof s === 'number' ? !Array.isArray(v) : !isRecord(v)) return undefined;
    v = (v as Record<Segment, unknown>)[s];
  }
  return v;
}

/**
 * A copy of `root` with the value at `field` replaced (structural sharing: only the objects on
 * the way are copied); `undefined` removes an object member. Missing objects and lists on the
 * way are created.
 */
export function setAt<T>(root: T, field: string, value: unknown): T {
  const segments = pathSegments(field);
  const put = (node: unknown, i: number): unknown => {
    const s = segments[i];
    const last = i === segments.length - 1;
    if (typeof s === 'number') {
      const list = Array.isArray(node) ? [...node] : [];
      list[s] = last ? value : put(list[s], i + 1);
      return list;
    }
    const record: Record<string, unknown> = isRecord(node) ? { ...node } : {};
    const next = last ? value : put(record[s], i + 1);
    if (next === undefined) delete record[s];
    else record[s] = next;
    return record;
  };
  return (segments.length ? put(root, 0) : value) as T;
}

/** Removes empty objects left on the way to `field` (a `config` whose last member went). */
export function pruneEmpty(root: Draft, field: string): Draft {
  const segments = pathSegments(field);
  for (let k = segments.length - 1; k > 0; k--) {
    const parent = joinPath(segments.slice(0, k));
    const v = getAt(root, parent);
    if (isRecord(v) && Object.keys(v).length === 0 && typeof segments[k - 1] === 'string') root = setAt(root, parent, undefined);
    else break;
  }
  return root;
}

/** The error of a field or, when the field has none, of the nearest enclosing field that has one. */
export function nearestError(errors: ReadonlyMap<string, string>, field: string): [string, string] | null {
  for (let segments = pathSegments(field); segments.length; segments = segments.slice(0, -1)) {
    const f = joinPath(segments);
    const rule = errors.get(f);
    if (rule !== undefined) return [f, rule];
  }
  return null;
}

/** Whether `field` is `prefix` or inside it ("instances[0].n" is inside "instances[0]", "instances[10]" is not). */
export function isInside(field: string, prefix: string): boolean {
  return field === prefix || field.startsWith(`${prefix}.`) || field.startsWith(`${prefix}[`);
}
