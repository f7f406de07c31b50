// The renderer's ambient types for tests that import it (vue-tsc reads src-renderer/env.d.ts;
// plain tsc needs these in script form).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent<object, object, unknown>;
  export default component;
}

interface Window {
  saikoroBridge?: import('../../src-shared/api.ts').SaikoroBridge;
}
