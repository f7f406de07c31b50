import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** "saikoro 0.1.0", from the package.json at the repository root. */
export function appVersion(): string {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
      cached = `${pkg.name} ${pkg.version}`;
    } catch {
      cached = 'saikoro (unknown version)';
    }
  }
  return cached;
}
