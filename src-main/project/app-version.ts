import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * "saikoro 0.1.0", from the package.json at the repository root. (A path, not
 * `new URL('../../package.json', import.meta.url)`, which Vite rewrites into a page-relative URL
 * when it transforms this file for a DOM test environment.)
 */
export function appVersion(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../package.json'), 'utf8')) as { name: string; version: string };
      cached = `${pkg.name} ${pkg.version}`;
    } catch {
      cached = 'saikoro (unknown version)';
    }
  }
  return cached;
}
