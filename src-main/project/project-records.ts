/**
 * What a project holds, as the store reads and writes it: experiments, dice runs of experiments,
 * lab runs (single N-Queens runs, identified by the content hash of their request), notes, and
 * the summary `saikoro project info` prints.
 */
import os from 'node:os';
import type { DiceConfig } from '../../src-shared/problems/dice/config.ts';
import type { BudgetSpec, ExperimentSpec } from '../../src-shared/experiments/spec.ts';
import type { SolverResult } from '../../src-shared/solvers/types.ts';
import type { ParamValue } from '../../src-shared/core/params.ts';
import { canonicalJson } from '../../src-shared/experiments/canonical-json.ts';
import { sha256Hex } from '../../src-shared/experiments/sha256.ts';
import type { NqueensResult, NqueensRunRequest } from '../../src-shared/runtime/kinds/index.ts';
import type { RunKey, RunProgram } from '../../src-shared/experiments/grid.ts';

export interface RunRecord {
  id: string;
  instance: string;
  label: string;
  config: DiceConfig;
  solver: string;
  params: Record<string, ParamValue>;
  seed: number;
  budget: BudgetSpec;
  /** A solver program's run: the program as its spec entry stored it (part of the run id); else null. */
  program: RunProgram | null;
  /** A built-in solver's run of a blind experiment (part of the run id; schema 6); absent otherwise. */
  blind?: true;
  /** A remote entrant's run, played against `saikoro serve --competition` (part of the run id; schema 7); absent otherwise. */
  remote?: true;
  status: 'done' | 'failed';
  error: string | null;
  /** The solver's result (null for a failed run). */
  result: SolverResult | null;
  appVersion: string;
  host: string;
  /** ISO 8601 times. */
  startedAt: string;
  finishedAt: string;
  elapsedMs: number;
  evaluations: number | null;
}

/** What identifies a lab run: the request without its delivery options (snapshots, memory). */
export interface LabRunRequest {
  kind: 'nqueens';
  method: NqueensRunRequest['method'];
  n: number;
  params: NqueensRunRequest['params'];
  seed: number;
  limits: NonNullable<NqueensRunRequest['limits']>;
}

/** A single run outside any experiment (an N-Queens run from `saikoro nqueens --project`). */
export interface LabRunRecord {
  /** labRunId(request): equal requests share one row. */
  id: string;
  kind: LabRunRequest['kind'];
  request: LabRunRequest;
  status: 'done' | 'failed';
  error: string | null;
  /** The run's result (null for a failed run). */
  result: NqueensResult | null;
  appVersion: string;
  host: string;
  /** ISO 8601 times. */
  startedAt: string;
  finishedAt: string;
  elapsedMs: number;
}

const LAB_RUN_ID_VERSION = 1;

/** The identifying part of a host request (kind, method, n, params, seed, limits). */
export function labRunRequest(request: NqueensRunRequest): LabRunRequest {
  const { kind, method, n, params, seed } = request;
  return { kind, method, n, params, seed, limits: { ...(request.limits ?? {}) } };
}

/** Content hash of the request: SHA-256 of its canonical JSON, 32 hex digits (as runId). */
export function labRunId(request: LabRunRequest | NqueensRunRequest): string {
  const { kind, method, n, params, seed, limits } = labRunRequest(request as NqueensRunRequest);
  return sha256Hex(canonicalJson({ v: LAB_RUN_ID_VERSION, kind, method, n, params, seed, limits })).slice(0, 32);
}

/** What of a stored run its id hashes (runId): the same fields as the grid run it was. */
export function runKeyOf(record: RunRecord): RunKey {
  return {
    problem: 'dice',
    config: record.config,
    solver: record.solver,
    params: record.params,
    seed: record.seed,
    budget: record.budget,
    ...(record.program ? { program: record.program } : {}),
    ...(record.blind ? { blind: true as const } : {}),
    ...(record.remote ? { remote: true as const } : {}),
  };
}

/** An entrant's token as the file keeps it: only its sha256, never the token (schema 7). */
export interface EntrantTokenRecord {
  sha256: string;
  entrant: string;
  createdAt: string;
  /** When it was revoked (by `competition token --revoke`, or by the next token of its entrant); null while valid. */
  revokedAt: string | null;
}

/**
 * One request of a remote run that was evaluated (schema 7): its place in the run (`seq`, from
 * 0), the valid sequences it held (`sequences`: packed and deflated, remote-requests.ts) and how
 * many of them were evaluated (fewer only in the request the budget cut).
 */
export interface RemoteRequestRecord {
  runId: string;
  seq: number;
  entrant: string;
  evaluations: number;
  sequences: Uint8Array;
  receivedAt: string;
}

/** A file of a program entrant's archived folder (a competition file, schema 6). */
export interface EntrantFile {
  /** Relative to the folder, with `/` between names. */
  path: string;
  /** 0o755 (executable) or 0o644. */
  mode: number;
  sha256: string;
  content: Uint8Array;
}

export interface ExperimentRecord {
  name: string;
  spec: ExperimentSpec;
  createdAt: string;
}

export interface NoteRecord {
  id: number;
  experiment: string | null;
  text: string;
  createdAt: string;
}

export interface ProjectInfo {
  path: string;
  schemaVersion: number;
  createdAt: string | null;
  createdBy: string | null;
  sizeBytes: number;
  experiments: number;
  runs: { done: number; failed: number };
  notes: number;
  labRuns: { done: number; failed: number };
}

/** This machine's name, stored with each run. */
export function hostName(): string {
  return os.hostname();
}
