// The default memory limit of a worker: what a host gives each worker unless told otherwise, and
// what `saikoro solve --help` and `saikoro experiment --help` print. A module of its own (node:os
// only), so the commands' help loads it without the host and the solvers.
import os from 'node:os';

const MB = 1024 * 1024;

/** The share of the machine's memory that the workers of one host may use between them. */
export const DEFAULT_MEMORY_SHARE = 0.5;
/** No default limit is below this (MB): a worker needs about 64 MB before its run starts. */
export const MIN_DEFAULT_MEMORY_LIMIT_MB = 256;

/**
 * Every worker's memory limit unless one is given (MB): half of this machine's memory shared
 * by the workers that run at once (`parallelism`), at least 256 MB. 24 GB and one worker:
 * 12,052 MB; two workers: 6,026 MB each.
 */
export function defaultMemoryLimitMb(parallelism: number, totalBytes: number = os.totalmem()): number {
  return Math.max(MIN_DEFAULT_MEMORY_LIMIT_MB, Math.floor(((totalBytes / MB) * DEFAULT_MEMORY_SHARE) / Math.max(1, parallelism)));
}
