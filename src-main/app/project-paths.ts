/**
 * Where the app may open and create project files, and how it names them to the user.
 *
 * - Web mode (`saikoro serve --workspace DIR`): every path is relative to DIR and must stay
 *   inside it. `..` that leaves it, an absolute path outside it and a symlink that leads out
 *   (the file, or the folder it would be created in) are refused with a PathError naming the
 *   path. The app lists the workspace's `*.saikoro` files.
 * - Desktop: a path the user picked in a native dialog or dropped onto the window (the main
 *   process approves it: `approve`), or one opened before (the recent list, which only the
 *   main process writes); any other path, as a message from the page could name, is refused.
 *   The app lists the files opened recently, kept in a small JSON file in the app's data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FieldError } from '../../src-shared/base/field-error.ts';
import type { ProjectFileEntry } from '../../src-shared/projects/project-api.ts';

/** A project path the app will not use; `field` is "path". */
export class PathError extends FieldError {
  override readonly name = 'PathError';
}

export interface ProjectPaths {
  /** The absolute file for a path the user gave; PathError when it is refused. */
  resolve(userPath: unknown, purpose: 'open' | 'create'): string;
  /** How the app shows an absolute path (workspace-relative in web mode). */
  display(absolute: string): string;
  /**
   * Text for the client with the workspace's absolute paths made relative (web mode: an error
   * message or a JSON answer, `WORKSPACE/a/b` → `a/b`, the workspace alone → `.`); the desktop
   * shows paths as they are.
   */
  redact(text: string): string;
  /** Project files to offer (the workspace's, or the recent ones). */
  list(): ProjectFileEntry[];
  /** Notes that a file was opened or created (the recent list). */
  remember(absolute: string): void;
}

const EXTENSION = '.saikoro';
const MAX_PATH = 1024;

/** The rules every project path follows (a string ending in .saikoro, not too long, no NUL); PathError otherwise. */
export function checkProjectPathText(userPath: unknown): string {
  if (typeof userPath !== 'string' || userPath.trim() === '')
    throw new PathError('path', `must be a file name ending in ${EXTENSION}, got ${JSON.stringify(userPath)}`);
  if (userPath.length > MAX_PATH) throw new PathError('path', `is longer than ${MAX_PATH} characters`);
  if (userPath.includes('\0')) throw new PathError('path', 'contains a NUL character');
  if (!userPath.endsWith(EXTENSION)) throw new PathError('path', `must end in ${EXTENSION}, got ${JSON.stringify(userPath)}`);
  return userPath;
}

function entry(absolute: string, shown: string): ProjectFileEntry {
  let sizeBytes: number | null = null;
  let modifiedAt: string | null = null;
  try {
    const stat = fs.statSync(absolute);
    sizeBytes = stat.size;
    modifiedAt = stat.mtime.toISOString();
  } catch {
    // gone since: listed without size
  }
  return { path: shown, name: path.basename(absolute, EXTENSION), sizeBytes, modifiedAt };
}

/** Inside `root` (both resolved): the same folder or below it. */
function inside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The deepest part of `target` that exists, through every symlink (realpath). */
function realExisting(target: string): string {
  let probe = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(probe), ...rest.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      const parent = path.dirname(probe);
      if (parent === probe) return target;
      rest.push(path.basename(probe));
      probe = parent;
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Replaces each root's absolute path in a text: `ROOT/rest` by `rest`, ROOT alone by `.`, or
 * with a `label`, by `LABEL/rest` and `LABEL`
 * (a folder whose name only starts with ROOT's, `ROOT-old`, is another folder and stays).
 * Works on JSON text as well: JSON escapes character by character, so a string holding ROOT
 * holds ROOT's escaped form in the JSON text, and that form is replaced too.
 */
export function pathRedactor(roots: readonly string[], label?: string): (text: string) => string {
  const forms = new Set<string>();
  for (const root of roots) {
    const trimmed = root.length > 1 ? root.replace(/[/\\]+$/, '') : root;
    forms.add(trimmed);
    forms.add(JSON.stringify(trimmed).slice(1, -1));
  }
  // Longest first, so that a root inside another is not replaced in part.
  const alternatives = [...forms]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  // ROOT then a separator (its escaped form in JSON: \\), or ROOT ending a name: not followed
  // by a name character, nor by a dot that goes on into a name.
  const pattern = new RegExp(`(?:${alternatives})(?:(/|\\\\\\\\|\\\\)|(?=$|[^\\w.-]|\\.(?![\\w.-])))`, 'g');
  const inside = label === undefined ? '' : `${label}/`;
  const alone = label ?? '.';
  return (text) => (text.length === 0 ? text : text.replace(pattern, (_m, separator: string | undefined) => (separator ? inside : alone)));
}

export function workspacePaths(workspace: string): ProjectPaths {
  const given = path.resolve(workspace);
  const root = fs.realpathSync(given);
  if (!fs.statSync(root).isDirectory()) throw new Error(`the workspace ${workspace} is not a folder`);
  const redact = pathRedactor(root === given ? [root] : [root, given]);
  return {
    redact,
    resolve(userPath) {
      const text = checkProjectPathText(userPath);
      const absolute = path.resolve(root, text);
      if (!inside(root, absolute)) throw new PathError('path', `${JSON.stringify(text)} is outside the workspace (paths are relative to it, and stay inside)`);
      // A symlink, the file's or a folder's on the way, must not lead out either.
      const real = realExisting(absolute);
      if (!inside(root, real)) throw new PathError('path', `${JSON.stringify(text)} leads outside the workspace through a symbolic link`);
      return absolute;
    },
    display(absolute) {
      return path.relative(root, absolute).split(path.sep).join('/');
    },
    list() {
      const found: ProjectFileEntry[] = [];
      const walk = (dir: string, depth: number) => {
        let names: fs.Dirent[];
        try {
          names = fs.readdirSync(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const d of names) {
          if (d.name.startsWith('.') || d.name === 'node_modules') continue;
          const full = path.join(dir, d.name);
          if (d.isDirectory() && depth < 3) walk(full, depth + 1);
          else if (d.isFile() && d.name.endsWith(EXTENSION)) found.push(entry(full, path.relative(root, full).split(path.sep).join('/')));
          if (found.length >= 500) return;
        }
      };
      walk(root, 0);
      return found.sort((a, b) => (b.modifiedAt ?? '').localeCompare(a.modifiedAt ?? '') || a.path.localeCompare(b.path));
    },
    remember() {},
  };
}

export interface DesktopPaths extends ProjectPaths {
  /** A file the user chose in a native dialog or dropped onto the window (absolute): it may be opened or created from now on. */
  approve(absolute: string): void;
}

/**
 * Files the desktop app may open: those approved (picked or dropped) in this session, and for
 * opening those on the recent list (newest first, kept in `recentFile`, JSON).
 */
export function desktopPaths(recentFile: string | null, cwd = process.cwd(), keep = 12): DesktopPaths {
  const approved = new Set<string>();
  const read = (): string[] => {
    if (!recentFile) return [];
    try {
      const list = JSON.parse(fs.readFileSync(recentFile, 'utf8')) as unknown;
      return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && path.isAbsolute(p)) : [];
    } catch {
      return [];
    }
  };
  return {
    resolve(userPath, purpose) {
      const text = checkProjectPathText(userPath);
      const absolute = path.resolve(cwd, text);
      if (approved.has(absolute) || (purpose === 'open' && read().some((p) => path.resolve(p) === absolute))) return absolute;
      throw new PathError('path', `${JSON.stringify(text)} was not chosen in a file dialog or dropped onto the window (use File > Open Project…)`);
    },
    approve(absolute) {
      if (!path.isAbsolute(absolute)) throw new Error(`approve takes an absolute path, got ${JSON.stringify(absolute)}`);
      approved.add(path.resolve(absolute));
    },
    display(absolute) {
      return absolute;
    },
    redact(text) {
      return text;
    },
    list() {
      return read()
        .filter((p) => fs.existsSync(p))
        .map((p) => entry(p, p));
    },
    remember(absolute) {
      if (!recentFile) return;
      const list = [absolute, ...read().filter((p) => p !== absolute)].slice(0, keep);
      try {
        fs.mkdirSync(path.dirname(recentFile), { recursive: true });
        // Replaced in one rename, so a crash never leaves half a list.
        const tmp = `${recentFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, JSON.stringify(list, null, 2));
        fs.renameSync(tmp, recentFile);
      } catch {
        // the recent list is a convenience: a read-only data folder only loses it
      }
    },
  };
}
