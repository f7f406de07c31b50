/// <reference types="vite/client" />
import type { SaikoroBridge } from '../src-shared/api.ts';

declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

declare global {
  interface Window {
    /** Present in the desktop app only: the API bridge exposed by the preload script. */
    saikoroBridge?: SaikoroBridge;
  }
}
