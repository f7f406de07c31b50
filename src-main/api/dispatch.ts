import { isApiCallName, toWireError, type ApiCalls, type CallResult } from '../../src-shared/api.ts';
import { checkCallArguments } from './call-arguments.ts';

/**
 * Runs one call by name with arguments received from a transport (the desktop's IPC, the web
 * server's HTTP) and wraps the outcome in a CallResult, so no exception crosses the boundary
 * and errors keep their name and fields. The arguments are checked first (call-arguments.ts:
 * count, types, shapes, sizes, plain data), the same for every transport, before the API sees
 * them.
 */
export async function dispatchCall(api: ApiCalls, name: string, args: unknown): Promise<CallResult> {
  if (!isApiCallName(name)) return { ok: false, error: { name: 'UnknownCall', message: `no API call named "${name}"` } };
  if (!Array.isArray(args)) return { ok: false, error: { name: 'BadRequest', message: `arguments of "${name}" must be a list` } };
  try {
    checkCallArguments(name, args);
    const fn = api[name] as (...a: unknown[]) => Promise<unknown>;
    return { ok: true, value: await fn.apply(api, args) };
  } catch (e) {
    return { ok: false, error: toWireError(e) };
  }
}
