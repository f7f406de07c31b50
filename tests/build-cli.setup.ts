// vitest globalSetup: the tests that start `bin/saikoro.mjs` run the built CLI (out/cli), which
// must match the sources under test. bin/saikoro.mjs would rebuild a stale build itself; doing
// it once here, before any test starts, spares the test processes from racing to do it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('../scripts/build-cli.mjs', import.meta.url));
  execFileSync(process.execPath, [script, '--ensure'], { stdio: 'inherit' });
}
