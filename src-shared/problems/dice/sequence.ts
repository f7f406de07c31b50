/** A die-roll sequence: parsed from its digit string, held as faces 1..6 in a Uint8Array. */

export class SequenceError extends Error {
  constructor(
    message: string,
    /** 0-based position of the offending character, when there is one. */
    readonly position?: number,
  ) {
    super(message);
    this.name = 'SequenceError';
  }
}

/** Parses a string of digits 1-6 of exactly `n` characters into faces 1..6. */
export function parseSequence(x: string, n: number): Uint8Array {
  if (typeof x !== 'string') throw new SequenceError(`the sequence must be a string of digits 1-6, got ${x === null ? 'null' : typeof x}`);
  if (x.length !== n) throw new SequenceError(`the sequence has ${x.length} characters, expected N = ${n}`);
  const faces = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = x.charCodeAt(i) - 48;
    if (c < 1 || c > 6) throw new SequenceError(`character ${JSON.stringify(x[i])} at position ${i + 1} is not a die face 1-6`, i);
    faces[i] = c;
  }
  return faces;
}

/** The digit-string form of a sequence of faces 1..6. */
export function formatSequence(faces: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < faces.length; i++) s += String.fromCharCode(48 + faces[i]);
  return s;
}

/** Accepts a digit string or faces 1..6; checks length and range either way. */
export function toFaces(x: string | Uint8Array, n: number): Uint8Array {
  if (typeof x === 'string') return parseSequence(x, n);
  if (x.length !== n) throw new SequenceError(`the sequence has ${x.length} rolls, expected N = ${n}`);
  for (let i = 0; i < n; i++) if (x[i] < 1 || x[i] > 6) throw new SequenceError(`roll ${x[i]} at position ${i + 1} is not a die face 1-6`, i);
  return x;
}
