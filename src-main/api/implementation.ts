import type { ApiCalls, AppInfo, EvaluateDiceRequest } from '../../src-shared/api.ts';
import { configFromPartial, DEFAULT_N } from '../../src-shared/problems/dice/config.ts';
import { evaluateDice } from '../../src-shared/problems/dice/evaluate.ts';
import { randomSequence } from './random-sequence.ts';

/**
 * The main side's implementation of every API call. Plain Node (no electron import), so the
 * Electron IPC handlers and the web server share it, and tests call it directly.
 */
export function createApi(appInfo: AppInfo): ApiCalls {
  return {
    async getAppInfo() {
      return { ...appInfo };
    },
    async evaluateDice(request: EvaluateDiceRequest) {
      if (typeof request?.x !== 'string') throw new TypeError('evaluateDice: request.x must be a string of faces 1-6');
      const config = configFromPartial({ ...request.config, n: request.config?.n ?? DEFAULT_N });
      return evaluateDice(request.x, config);
    },
    async randomSequence(n: number, seed: number) {
      return randomSequence(n, seed);
    },
  };
}
