/**
 * What the program gate (src-main/app/program-gate.ts) resolved and hashed for a solver
 * program, carried from the gate to the spawn (src-main/host/program-process.ts) on the run's
 * request. The protocol code passes it along without reading it: whether and how the program
 * is sandboxed is the spawn's business (src-main/host/sandbox.ts).
 */

/**
 * One entry of a program's folder: a file with its content's hash, a folder (kept even when
 * empty), or a link that leads inside the folder (kept a link).
 */
export interface FolderEntry {
  /** Relative to the folder, with `/` between names. */
  path: string;
  kind: 'file' | 'dir' | 'link';
  /** Links: where the link leads, relative to the link's folder. */
  target?: string;
  /** Files: the size in bytes, sha256 (hex) of the content, and whether it is executable. */
  bytes?: number;
  sha256?: string;
  executable?: boolean;
}

/**
 * A program's folder as hashed: every file's sha256 (links followed, the project file and what
 * the gate leaves out excluded), and one sha256 over the whole list (`sha256`), which names the
 * folder's content: the same files with the same contents give the same hash wherever it lies.
 */
export interface FolderManifest {
  /** The folder, absolute. */
  root: string;
  /** Sorted by path. */
  entries: FolderEntry[];
  /** Files and their total size. */
  files: number;
  bytes: number;
  sha256: string;
}

/** What a sandboxed program sees besides the system: everything but `readOnly` is hashed. */
export interface ProgramView {
  /** Its folder (the working directory): copied into a fresh scratch folder, each file checked against its hash. */
  folder: FolderManifest;
  /** Files its command names outside that folder (a script given by an absolute path): copied read-only, checked. */
  files: { path: string; sha256: string }[];
  /** Folders shown read-only as they are: the interpreter's installation when it lies outside the system folders. */
  readOnly: string[];
}

export interface ProgramAdmission {
  /** The executable to start (absolute, as the gate resolved it on the spec's PATH). */
  executable: string;
  /** The working directory it starts in (absolute); the result records the cwd the entry gives. */
  cwd: string;
  /** What the program may see when it runs in a sandbox (left out: the spawn works it out from the command). */
  view?: ProgramView;
}
