/**
 * Rolls back a hot rollback journal before SQLite opens the file.
 *
 * node-sqlite3-wasm's VFS uses one lock (the directory FILE.lock) for every lock level, so
 * when a connection takes its SHARED lock and asks "does anyone hold RESERVED?", the VFS sees
 * that directory (its own) and says yes. SQLite then never treats a journal as hot and never
 * rolls it back: a writer killed mid-commit would leave its half-written pages in place.
 * So the store plays the journal back itself, exactly as SQLite's pager would
 * (https://www.sqlite.org/fileformat2.html#the_rollback_journal, pager.c pager_playback),
 * but only when no live process has the file open (lock.ts).
 *
 * Journal layout: a header (magic, record count nRec, checksum seed, original size in pages,
 * sector size, page size) padded to the sector size, then nRec records of
 * (page number, original page content, checksum); further header+records segments start at
 * sector boundaries. A record whose checksum does not match ends the playback.
 *
 * Nothing is deleted that could matter: a journal that is not a journal (some other file under
 * that name), or one with a record that does not match its checksum (damaged: the header counts
 * only records that were synced), is kept aside under a new name (keep-aside.ts) and reported.
 * Only a journal played back in full, or one whose header was never completed (SQLite zeroes
 * magic and count until the records are synced: nothing was written to FILE), is deleted, as
 * SQLite deletes it.
 */
import fs from 'node:fs';
import { keepAside } from './keep-aside.ts';

const MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

function isPowerOfTwo(n: number, min: number, max: number): boolean {
  return n >= min && n <= max && (n & (n - 1)) === 0;
}

function pageChecksum(seed: number, page: Buffer, pageSize: number): number {
  let sum = seed;
  for (let i = pageSize - 200; i > 0; i -= 200) sum = (sum + page[i]) >>> 0;
  return sum >>> 0;
}

export interface Playback {
  /** Pages written back into the database file. */
  pages: number;
  /** The database size in pages after the rollback (null when nothing was played back). */
  sizePages: number | null;
  /** A journal that could not be used up: why, and the base name it was kept aside under. */
  keptAside: { reason: string; as: string } | null;
}

/** SQLite's header before the first sync: magic and record count zeroed, the rest in place. */
function isUnfinishedHeader(journal: Buffer): boolean {
  return journal.length >= 28 && journal.subarray(0, 12).every((b) => b === 0);
}

/**
 * If FILE-journal holds a transaction that was interrupted, restores FILE to its state before
 * that transaction and deletes the journal (or keeps it aside, see the module comment).
 * Returns null when there was no journal.
 */
export function rollbackHotJournal(file: string): Playback | null {
  const journalFile = `${file}-journal`;
  let journal: Buffer;
  try {
    journal = fs.readFileSync(journalFile);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  if (journal.length < 28 || !journal.subarray(0, 8).equals(MAGIC)) {
    if (journal.length === 0 || isUnfinishedHeader(journal)) {
      fs.rmSync(journalFile, { force: true });
      return { pages: 0, sizePages: null, keptAside: null };
    }
    return { pages: 0, sizePages: null, keptAside: { reason: 'not a rollback journal (no journal header)', as: keepAside(journalFile) } };
  }
  const sectorSize = journal.readUInt32BE(20);
  const pageSize = journal.readUInt32BE(24);
  if (!isPowerOfTwo(sectorSize, 32, 65536) || !isPowerOfTwo(pageSize, 512, 65536))
    throw new Error(`${journalFile}: unreadable journal header (sector ${sectorSize}, page ${pageSize})`);
  const recordSize = pageSize + 8;
  const fd = fs.openSync(file, 'r+');
  let pages = 0;
  let sizePages = -1;
  let damage: string | null = null;
  try {
    let headerOffset = 0;
    segments: while (headerOffset + 28 <= journal.length && journal.subarray(headerOffset, headerOffset + 8).equals(MAGIC)) {
      const nRec = journal.readUInt32BE(headerOffset + 8);
      const seed = journal.readUInt32BE(headerOffset + 12);
      const originalPages = journal.readUInt32BE(headerOffset + 16);
      if (sizePages < 0) {
        sizePages = originalPages;
        fs.ftruncateSync(fd, originalPages * pageSize);
      }
      let offset = headerOffset + sectorSize;
      const count = nRec === 0xffffffff ? Math.floor((journal.length - offset) / recordSize) : nRec;
      for (let r = 0; r < count; r++, offset += recordSize) {
        if (offset + recordSize > journal.length) break segments;
        const pageNumber = journal.readUInt32BE(offset);
        const page = journal.subarray(offset + 4, offset + 4 + pageSize);
        if (journal.readUInt32BE(offset + 4 + pageSize) !== pageChecksum(seed, page, pageSize)) {
          damage = `record ${r + 1} of ${nRec === 0xffffffff ? count : nRec} does not match its checksum (${pages} page(s) played back)`;
          break segments;
        }
        if (pageNumber === 0 || pageNumber > sizePages) continue;
        fs.writeSync(fd, page, 0, pageSize, (pageNumber - 1) * pageSize);
        pages++;
      }
      if (nRec === 0 || nRec === 0xffffffff) break;
      headerOffset = Math.ceil(offset / sectorSize) * sectorSize;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (damage) return { pages, sizePages, keptAside: { reason: damage, as: keepAside(journalFile) } };
  fs.rmSync(journalFile, { force: true });
  return { pages, sizePages, keptAside: null };
}
