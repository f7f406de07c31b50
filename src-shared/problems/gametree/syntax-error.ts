/** A syntax or structure error in the tree (or association-list) S-expression format. */
export class TreeSyntaxError extends Error {
  /** 1-based line of the offending character. */
  readonly line: number;
  /** 1-based column (UTF-16 code units) of the offending character. */
  readonly column: number;
  /** The message without the location. */
  readonly reason: string;

  constructor(reason: string, line: number, column: number) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'TreeSyntaxError';
    this.reason = reason;
    this.line = line;
    this.column = column;
  }
}
