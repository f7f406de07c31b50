// The npm package as a user gets it: `npm pack` of this checkout, installed with
// `npm install -g --prefix <temporary folder>` (the dependencies come from the npm cache that
// `npm ci` filled, or the registry), so tests can run the installed `saikoro` from a folder
// outside the checkout, with no devDependency, no source and no tsx in reach.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, '../..');

export interface InstalledPackage {
  /** The temporary prefix: bin/saikoro, lib/node_modules/saikoro. */
  prefix: string;
  /** The installed command (a symbolic link to the package's bin/saikoro.mjs). */
  bin: string;
  /** Where the package landed. */
  home: string;
  tarball: string;
}

/**
 * Makes the build current (out/cli, out/renderer; `npm ci` has made them, this catches an edit
 * since), packs it without running the package's scripts again, and installs the tarball.
 */
export async function installPackage(): Promise<InstalledPackage> {
  await run(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), '--ensure'], { cwd: ROOT });
  const { rendererBuildIsStale, DEFAULT_RENDERER_OUT } = await import('../../src-main/server/renderer-dir.ts');
  if (rendererBuildIsStale(DEFAULT_RENDERER_OUT)) {
    const { buildRenderer } = await import('../../src-main/server/renderer-build.ts');
    await buildRenderer(DEFAULT_RENDERER_OUT);
  }
  const dir = mkdtempSync(join(tmpdir(), 'saikoro-package-'));
  const npmEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env: npmEnv, maxBuffer: 64 * 1024 * 1024 });
  const tarball = join(dir, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
  const prefix = join(dir, 'prefix');
  await run('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], { cwd: dir, env: npmEnv, timeout: 600_000 });
  const home = join(prefix, 'lib', 'node_modules', 'saikoro');
  const bin = join(prefix, 'bin', 'saikoro');
  if (!existsSync(bin)) throw new Error(`npm install -g put no saikoro in ${join(prefix, 'bin')}: ${readdirSync(prefix).join(', ')}`);
  return { prefix, bin, home, tarball };
}
