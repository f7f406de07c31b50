/**
 * Canonical JSON: object keys sorted, no whitespace, only finite numbers. Two values that are
 * equal as data give the same text, so the text can be hashed into a content id.
 */
export function canonicalJson(value: unknown, path = '$'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${path}: ${value} cannot be stored (only finite numbers)`);
      return JSON.stringify(value);
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => canonicalJson(v, `${path}[${i}]`)).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined)
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k], `${path}.${k}`)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`${path}: a ${typeof value} cannot be stored in JSON`);
  }
}
