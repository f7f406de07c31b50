import { inject, type App, type InjectionKey } from 'vue';
import { apiFromBridge, type SaikoroApi } from '../../src-shared/api.ts';
import { createHttpApi } from './http-client.ts';

export const API_KEY: InjectionKey<SaikoroApi> = Symbol('saikoro-api');

/** The desktop preload's bridge when there is one; otherwise the HTTP/WebSocket client of the page's own server. */
export function resolveApi(win: Window = window): SaikoroApi {
  return win.saikoroBridge ? apiFromBridge(win.saikoroBridge) : createHttpApi(win.location.origin);
}

export function provideApi(app: App, api: SaikoroApi): void {
  app.provide(API_KEY, api);
}

/** The API inside components and stores (stores run inside the app's injection context). */
export function useApi(): SaikoroApi {
  const api = inject(API_KEY);
  if (!api) throw new Error('the Saikoro API was not provided to this app');
  return api;
}
