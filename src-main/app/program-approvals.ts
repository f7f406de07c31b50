/**
 * The solver programs a person approved on this machine, per project, as the command line
 * remembers them (program-policy.ts, commandLinePrograms; docs/external-solvers.md, "Security").
 * They are kept outside every project file, in the user's configuration folder
 * (`$XDG_CONFIG_HOME/saikoro/approved-programs.json`, `~/.config/...` without it,
 * `%APPDATA%\saikoro\...` on Windows): a project from someone else carries no approval.
 *
 * An approval is the sha256 of what it covers: the project file's path, the resolved executable
 * and its hash, the command, the working folder's path, the variables and the hashes of the
 * scripts its command names. Not the hash of every file in the working folder (the sandbox's
 * copy, program-gate.ts): results, shards and reports are written there, and each would undo
 * the approval. The file says nothing a reader could turn into a permission elsewhere; each
 * entry also names the project, the solver and the command, for a person who reads it.
 * Written whole or not at all (a temporary file, then a rename); a file that cannot be read is
 * treated as empty and replaced at the next approval, never an error that stops a command.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { formatCommand } from '../../src-shared/solvers/program/protocol.ts';
import type { RememberedApprovals, ResolvedProgram } from './program-policy.ts';

interface ApprovalFile {
  version: 1;
  approved: Record<string, { project: string; solver: string; command: string; at: string }>;
}

/** Where the approvals are kept for this environment, or null when it names no home or configuration folder. */
export function approvalsFile(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | null {
  const base = platform === 'win32' ? env.APPDATA : env.XDG_CONFIG_HOME || (env.HOME ? path.join(env.HOME, '.config') : undefined);
  return base ? path.join(base, 'saikoro', 'approved-programs.json') : null;
}

/** What a remembered approval covers (see the header), hashed. */
function digest(place: string, p: ResolvedProgram): string {
  const covered = [place, p.executable, p.target ?? null, p.command, p.cwd, Object.entries(p.env).sort(), Object.entries(p.files).sort()];
  return createHash('sha256').update(JSON.stringify(covered)).digest('hex');
}

function read(file: string): ApprovalFile {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as ApprovalFile;
    if (data && data.version === 1 && typeof data.approved === 'object' && data.approved !== null && !Array.isArray(data.approved)) return data;
  } catch {
    // missing or unreadable: nothing approved
  }
  return { version: 1, approved: {} };
}

/** The approvals kept in `file` (null: none are kept, and add says so). */
export function fileApprovals(file: string | null): RememberedApprovals {
  return {
    has(place, program) {
      return file !== null && Object.hasOwn(read(file).approved, digest(place, program));
    },
    add(place, programs) {
      if (file === null) return 'no configuration folder to keep it in (HOME and XDG_CONFIG_HOME are not set)';
      const data = read(file);
      const at = new Date().toISOString();
      for (const p of programs) data.approved[digest(place, p)] = { project: place, solver: p.name, command: formatCommand(p.command), at };
      const temporary = `${file}.${process.pid}.tmp`;
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        fs.writeFileSync(temporary, JSON.stringify(data, null, 2) + '\n', { mode: 0o600 });
        fs.renameSync(temporary, file);
        return null;
      } catch (e) {
        fs.rmSync(temporary, { force: true });
        return `${file} could not be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
      }
    },
  };
}
