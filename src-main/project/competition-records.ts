/**
 * The checks of a competition file's own rows (schema 6: competition, entrants, entrant_files),
 * as records.ts checks the others: used when reading and before writing, so a damaged or forged
 * row is refused with the column named, never used.
 */
import { describeValue, JsonInputError, parseJsonSafe } from '../../src-shared/json.ts';
import {
  checkDefinition,
  checkEntrantName,
  checkStoredProblems,
  CompetitionError,
  type Commitment,
  type CompetitionDefinition,
  type EntrantEntry,
  type StoredProblem,
} from '../../src-shared/competition/competition.ts';
import { SuiteError } from '../../src-shared/competition/suite.ts';
import { RecordError } from './records.ts';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function jsonOf(column: string, text: unknown): unknown {
  if (typeof text !== 'string') throw new RecordError(column, `must be JSON text, got ${describeValue(text)}`);
  try {
    return parseJsonSafe(text);
  } catch (e) {
    if (e instanceof JsonInputError) throw new RecordError(column, e.message);
    throw e;
  }
}

const SHA256 = /^[0-9a-f]{64}$/;

/** The definition column: {definition, problems}. */
export function definitionColumn(field: string, v: unknown): { definition: CompetitionDefinition; problems: StoredProblem[] } {
  if (!isRecord(v) || !isRecord(v.definition) || !Array.isArray(v.problems)) throw new RecordError(field, 'must be {"definition": {...}, "problems": [...]}');
  const definition = v.definition as unknown as CompetitionDefinition;
  try {
    checkDefinition(definition);
    checkStoredProblems(definition, v.problems as StoredProblem[]);
  } catch (e) {
    if (e instanceof SuiteError) throw new RecordError(`${field}.${e.field}`, e.rule);
    if (e instanceof CompetitionError) throw new RecordError(`${field}.${e.field}`, e.message);
    if (e instanceof TypeError) throw new RecordError(field, e.message);
    throw e;
  }
  return { definition, problems: v.problems as StoredProblem[] };
}

export function commitmentColumn(field: string, v: unknown): Commitment {
  if (
    !isRecord(v) ||
    v.scheme !== 'sha256-salted-1' ||
    typeof v.salt !== 'string' ||
    !/^[0-9a-f]{32}$/.test(v.salt) ||
    typeof v.sha256 !== 'string' ||
    !SHA256.test(v.sha256)
  )
    throw new RecordError(field, 'must be {"scheme": "sha256-salted-1", "salt": 32 hex digits, "sha256": 64 hex digits}');
  return { scheme: v.scheme, salt: v.salt, sha256: v.sha256 };
}

/** An entrant's entry column. */
export function entryColumn(field: string, v: unknown): EntrantEntry {
  if (!isRecord(v)) throw new RecordError(field, `must be an entrant's entry, got ${describeValue(v)}`);
  if (v.kind === 'builtin') {
    if (typeof v.solver !== 'string' || v.solver === '') throw new RecordError(`${field}.solver`, `must be a solver name, got ${describeValue(v.solver)}`);
    return { kind: 'builtin', solver: v.solver };
  }
  if (v.kind === 'remote') {
    const extra = Object.keys(v).filter((k) => k !== 'kind');
    if (extra.length) throw new RecordError(`${field}.${extra[0]}`, 'is not a field of a remote entrant\'s entry (it has only "kind")');
    return { kind: 'remote' };
  }
  if (v.kind !== 'program') throw new RecordError(`${field}.kind`, `must be "builtin", "program" or "remote", got ${describeValue(v.kind)}`);
  if (!Array.isArray(v.command) || v.command.length === 0 || !v.command.every((a) => typeof a === 'string' && !a.includes('\0')) || v.command[0] === '')
    throw new RecordError(`${field}.command`, `must be a non-empty list of strings, got ${describeValue(v.command)}`);
  const folder = v.folder;
  if (!isRecord(folder) || typeof folder.sha256 !== 'string' || !SHA256.test(folder.sha256) || !Array.isArray(folder.entries))
    throw new RecordError(`${field}.folder`, 'must be the archived folder {sha256, files, bytes, entries}');
  let files = 0;
  let bytes = 0;
  (folder.entries as unknown[]).forEach((e, i) => {
    const at = `${field}.folder.entries[${i}]`;
    if (!isRecord(e) || typeof e.path !== 'string' || !safeRelative(e.path))
      throw new RecordError(`${at}.path`, `must be a relative path inside the folder, got ${describeValue(isRecord(e) ? e.path : e)}`);
    if (e.kind === 'file') {
      if (typeof e.sha256 !== 'string' || !SHA256.test(e.sha256)) throw new RecordError(`${at}.sha256`, 'must be a sha256 hex digest');
      if (!Number.isSafeInteger(e.bytes) || (e.bytes as number) < 0) throw new RecordError(`${at}.bytes`, 'must be a size in bytes');
      files++;
      bytes += e.bytes as number;
    } else if (e.kind === 'link') {
      if (typeof e.target !== 'string' || e.target === '' || e.target.startsWith('/')) throw new RecordError(`${at}.target`, 'must be a relative link target');
    } else if (e.kind !== 'dir') throw new RecordError(`${at}.kind`, `must be "file", "dir" or "link", got ${describeValue(e.kind)}`);
  });
  if (folder.files !== files || folder.bytes !== bytes)
    throw new RecordError(
      `${field}.folder`,
      `says ${describeValue(folder.files)} files of ${describeValue(folder.bytes)} bytes, its entries ${files} of ${bytes}`,
    );
  const interpreter = v.interpreter;
  if (interpreter !== null) {
    if (
      !isRecord(interpreter) ||
      typeof interpreter.command !== 'string' ||
      typeof interpreter.path !== 'string' ||
      typeof interpreter.sha256 !== 'string' ||
      !SHA256.test(interpreter.sha256) ||
      !(interpreter.version === null || typeof interpreter.version === 'string')
    )
      throw new RecordError(`${field}.interpreter`, 'must be null or {command, path, sha256, version}');
  }
  return v as unknown as EntrantEntry;
}

/** A path of an archived folder: relative, with `/` between names, no `.` or `..` parts. */
export function safeRelative(p: string): boolean {
  if (p === '' || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  return p.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** An entrant token's sha256 (64 hex digits): what the file keeps of a token. */
export function tokenHash(field: string, v: unknown): string {
  if (typeof v !== 'string' || !SHA256.test(v)) throw new RecordError(field, `must be a sha256 hex digest (64 characters 0-9a-f), got ${describeValue(v)}`);
  return v;
}

/** A remote run's request before it is written: its place, counts and bytes. */
export function remoteRequest(
  field: string,
  v: { runId: unknown; seq: unknown; entrant: unknown; evaluations: unknown; sequences: unknown; receivedAt: unknown },
): void {
  if (typeof v.runId !== 'string' || !/^[0-9a-f]{32}$/.test(v.runId))
    throw new RecordError(`${field}.runId`, `must be a run id (32 hex digits), got ${describeValue(v.runId)}`);
  if (!Number.isSafeInteger(v.seq) || (v.seq as number) < 0)
    throw new RecordError(`${field}.seq`, `must be a whole number from 0, got ${describeValue(v.seq)}`);
  entrantName(`${field}.entrant`, v.entrant);
  if (!Number.isSafeInteger(v.evaluations) || (v.evaluations as number) < 0)
    throw new RecordError(`${field}.evaluations`, `must be a whole number from 0, got ${describeValue(v.evaluations)}`);
  if (!(v.sequences instanceof Uint8Array)) throw new RecordError(`${field}.sequences`, 'must be bytes');
  if (typeof v.receivedAt !== 'string') throw new RecordError(`${field}.receivedAt`, 'must be a time');
}

export function entrantName(field: string, v: unknown): string {
  try {
    return checkEntrantName(v);
  } catch (e) {
    if (e instanceof CompetitionError) throw new RecordError(field, e.message);
    throw e;
  }
}
