import { readFileSync } from 'node:fs';
import type { AppInfo } from '../../src-shared/api.ts';

/** Name and version from the package.json at the project root (plain Node, not Electron). */
export function packageAppInfo(runtime: AppInfo['runtime'], packageJsonUrl = new URL('../../package.json', import.meta.url)): AppInfo {
  const pkg = JSON.parse(readFileSync(packageJsonUrl, 'utf8')) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version, platform: process.platform, runtime };
}
