import { isApiCallName, toWireError, type ApiCalls, type CallResult } from '../../src-shared/api.ts';

/**
 * Runs one call by name with arguments received from a transport and wraps the outcome in a
 * CallResult, so no exception crosses the boundary and errors keep their name and fields.
 */
export async function dispatchCall(api: ApiCalls, name: string, args: unknown): Promise<CallResult> {
  if (!isApiCallName(name)) return { ok: false, error: { name: 'UnknownCall', message: `no API call named "${name}"` } };
  if (!Array.isArray(args)) return { ok: false, error: { name: 'BadRequest', message: `arguments of "${name}" must be a list` } };
  try {
    const fn = api[name] as (...a: unknown[]) => Promise<unknown>;
    return { ok: true, value: await fn.apply(api, args) };
  } catch (e) {
    return { ok: false, error: toWireError(e) };
  }
}
