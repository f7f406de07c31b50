/**
 * A solver program's folder as a list of hashed files (src-shared/solvers/program/admission.ts):
 * what the program gate approves (src-main/app/program-gate.ts), what a competition archives,
 * and what the sandbox copies into a program's scratch folder (sandbox.ts), each file checked
 * against its hash while it is copied, so the program runs exactly what was hashed.
 *
 * - A link that leads inside the folder stays a link (a venv's lib64 -> lib); one that leads
 *   outside is followed (the copy holds what it leads to), each folder once; a link that leads
 *   nowhere, and what is neither a file nor a folder (a socket, a fifo), is left out.
 * - `exclude` leaves out paths (the project file and its side files): neither hashed nor copied.
 * - A folder over the limits (FOLDER_LIMITS: files and bytes) is refused with a message naming
 *   it and how to give the program a folder of its own.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FolderEntry, FolderManifest } from '../../src-shared/solvers/program/admission.ts';

/** The most a program's folder may hold (files, bytes): a program's folder is copied for each run. */
export const FOLDER_LIMITS = { files: 10_000, bytes: 128 * 1024 * 1024 } as const;

export interface FolderLimits {
  files: number;
  bytes: number;
}

/** A program's folder that cannot be hashed or copied: too large, unreadable, changed since it was hashed. */
export class ProgramFolderError extends Error {
  override name = 'ProgramFolderError';
}

export interface HashFolderOptions {
  /** True for an absolute path to leave out (the path as found, and where its links lead, are both asked). */
  exclude?: (absolute: string) => boolean;
  limits?: FolderLimits;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function formatMiB(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
}

const fileHashes = new Map<string, { key: string; sha256: string }>();

function statKey(st: fs.Stats): string {
  return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${st.dev}`;
}

/**
 * sha256 (hex) of a file, remembered while its size, times and inode stay the same (a folder is
 * hashed again before each run: unchanged files cost a stat).
 */
export function sha256OfFile(file: string): string {
  const st = fs.statSync(file);
  const key = statKey(st);
  const known = fileHashes.get(file);
  if (known && known.key === key) return known.sha256;
  const sha256 = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  fileHashes.set(file, { key, sha256 });
  return sha256;
}

/** The text a manifest's hash is taken over: one line per entry, sorted by path. */
function manifestText(entries: readonly FolderEntry[]): string {
  return entries
    .map((e) =>
      e.kind === 'dir'
        ? `dir ${JSON.stringify(e.path)}\n`
        : e.kind === 'link'
          ? `link ${JSON.stringify(e.path)} ${JSON.stringify(e.target)}\n`
          : `file ${e.sha256} ${e.bytes} ${e.executable ? 'x' : '-'} ${JSON.stringify(e.path)}\n`,
    )
    .join('');
}

/** The manifest's own hash (what names the folder's content). */
export function manifestHash(entries: readonly FolderEntry[]): string {
  return createHash('sha256').update(manifestText(entries)).digest('hex');
}

/**
 * Hashes every file of `root` (an absolute folder). Throws ProgramFolderError when the folder is
 * not one, cannot be read, or holds more than the limits allow.
 */
export function hashFolder(root: string, options: HashFolderOptions = {}): FolderManifest {
  const limits = options.limits ?? FOLDER_LIMITS;
  const exclude = options.exclude ?? (() => false);
  const absolute = path.resolve(root);
  let rootStat: fs.Stats;
  try {
    rootStat = fs.statSync(absolute);
  } catch (e) {
    throw new ProgramFolderError(`the program's folder ${absolute} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!rootStat.isDirectory()) throw new ProgramFolderError(`the program's folder ${absolute} is not a folder`);
  const entries: FolderEntry[] = [];
  let files = 0;
  let bytes = 0;
  const seen = new Set<string>();
  const sources = new Map<string, string>();
  const tooLarge = (what: string) =>
    new ProgramFolderError(
      `the program's folder ${absolute} holds more than ${what}, the limit for a program's folder (it is copied for each run): give the program a folder of its own that holds only what it needs (its cwd)`,
    );
  const realRoot = fs.realpathSync(absolute);
  const walk = (dir: string, relative: string) => {
    const real = fs.realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    let names: string[];
    try {
      names = fs.readdirSync(dir).sort();
    } catch (e) {
      throw new ProgramFolderError(`the program's folder ${absolute}: cannot read ${dir} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    for (const name of names) {
      const full = path.join(dir, name);
      const rel = relative ? `${relative}/${name}` : name;
      if (exclude(full)) continue;
      let st: fs.Stats;
      let target: string;
      try {
        st = fs.statSync(full);
        target = fs.realpathSync(full);
      } catch {
        continue; // a link that leads nowhere
      }
      if (target !== full && exclude(target)) continue;
      if (fs.lstatSync(full).isSymbolicLink() && isInside(target, realRoot)) {
        // Kept a link, relative, so that the copy's link leads inside the copy.
        entries.push({ path: rel, kind: 'link', target: path.relative(path.dirname(path.join(realRoot, rel)), target) || '.' });
        continue;
      }
      if (st.isDirectory()) {
        entries.push({ path: rel, kind: 'dir' });
        walk(full, rel);
      } else if (st.isFile()) {
        files++;
        bytes += st.size;
        if (files > limits.files) throw tooLarge(`${limits.files.toLocaleString('en-US')} files`);
        if (bytes > limits.bytes) throw tooLarge(formatMiB(limits.bytes));
        entries.push({ path: rel, kind: 'file', bytes: st.size, executable: (st.mode & 0o111) !== 0 });
        sources.set(rel, full);
      }
    }
  };
  // The whole folder is listed (and its limits checked) before any file is read.
  walk(absolute, '');
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    try {
      entry.sha256 = sha256OfFile(sources.get(entry.path)!);
    } catch (e) {
      throw new ProgramFolderError(
        `the program's folder ${absolute}: cannot read ${entry.path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root: absolute, entries, files, bytes, sha256: manifestHash(entries) };
}

/**
 * Copies a file, hashing what it copies: throws ProgramFolderError when the content is not the
 * one hashed (`sha256`), naming `what`.
 */
export function copyCheckedFile(source: string, target: string, sha256: string, executable: boolean, what: string): void {
  let content: Buffer;
  try {
    content = fs.readFileSync(source);
  } catch (e) {
    throw new ProgramFolderError(
      `${what} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); it was there when the program was approved`,
    );
  }
  const now = createHash('sha256').update(content).digest('hex');
  if (now !== sha256)
    throw new ProgramFolderError(
      `${what} has changed since the program was approved (sha256 ${sha256.slice(0, 12)}... then, ${now.slice(0, 12)}... now); nothing ran`,
    );
  fs.writeFileSync(target, content, { mode: executable ? 0o755 : 0o644 });
}

/**
 * Copies the manifest's files from its root into `target` (an empty folder), each checked
 * against its hash: what is copied is exactly what was hashed, or ProgramFolderError.
 */
export function copyFolder(manifest: FolderManifest, target: string): void {
  for (const entry of manifest.entries) {
    const to = path.join(target, ...entry.path.split('/'));
    if (entry.kind === 'dir') fs.mkdirSync(to, { recursive: true });
    else if (entry.kind === 'link') fs.symlinkSync(entry.target!, to);
    else
      copyCheckedFile(
        path.join(manifest.root, ...entry.path.split('/')),
        to,
        entry.sha256!,
        entry.executable === true,
        `${entry.path} in the program's folder ${manifest.root}`,
      );
  }
}
