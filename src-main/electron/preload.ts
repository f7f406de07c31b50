/**
 * Runs in the sandboxed renderer before the page. Exposes exactly one object,
 * window.saikoroBridge, with one method per API call and one subscription function per API
 * event; nothing of ipcRenderer itself leaks to the page. Calls answer their CallResult
 * envelope untouched (an Error thrown across the context bridge would lose its name and
 * fields); the renderer unwraps it with apiFromBridge.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { API_CALL_NAMES, API_EVENT_NAMES, BRIDGE_GLOBAL, callChannel, eventChannel, type CallResult, type SaikoroBridge } from '../../src-shared/api.ts';

const bridge: Record<string, unknown> = {};
for (const name of API_CALL_NAMES) {
  bridge[name] = (...args: unknown[]): Promise<CallResult> => ipcRenderer.invoke(callChannel(name), ...args);
}
for (const name of API_EVENT_NAMES) {
  bridge[name] = (listener: (payload: unknown) => void) => {
    const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(eventChannel(name), handler);
    return () => {
      ipcRenderer.removeListener(eventChannel(name), handler);
    };
  };
}

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge as unknown as SaikoroBridge);
