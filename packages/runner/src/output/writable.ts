// The files a command writes (a run's journal, a log file) are checked before anything else:
// a journal that cannot be written must refuse the run before its first request, not be found
// out after the chaos has run. The checks leave nothing behind and never touch an existing file.

import {
  accessSync,
  closeSync,
  constants,
  openSync,
  rmSync,
  type Stats,
  statfsSync,
  statSync,
  writeSync,
} from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Refusal } from './errors.js';

// What a first write needs at least: a journal's first page, a few log lines.
const PROBE_BYTES = 4096;

const REASONS: Record<string, string> = {
  ENOENT: 'no file can be created there',
  EACCES: 'permission denied',
  EPERM: 'not permitted (an immutable file, or a file system that refuses it)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the file system is full',
  EDQUOT: 'the disk quota is used up',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a folder',
};

function refuse(option: string, path: string, why: string): never {
  throw new Refusal(`${option} ${path} cannot be written: ${why}`);
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return `${REASONS[code] ?? (err as Error).message}${code ? ` (${code})` : ''}`;
}

function stat(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The folder of `path`: it exists and is a folder. */
function folderOf(option: string, path: string): string {
  const folder = dirname(resolve(path));
  const found = stat(folder);
  if (!found) refuse(option, path, `the folder ${folder} does not exist`);
  if (!found.isDirectory()) refuse(option, path, `${folder} is not a folder`);
  return folder;
}

/** An existing `path` may be written (as this process: root too meets a read-only mount). */
function existingWritable(option: string, path: string, found: Stats): void {
  if (found.isDirectory()) refuse(option, path, REASONS.EISDIR!);
  try {
    accessSync(path, constants.W_OK);
  } catch (err) {
    refuse(option, path, reason(err));
  }
}

/**
 * A journal is written whole, as a new file renamed over `path`: its folder must take a new
 * file with data in it, and an existing journal there must be a file this process may write.
 * Refuses (a Refusal naming `option` and why) otherwise.
 */
export function checkJournalPath(option: string, path: string, scratch: string): void {
  const found = stat(path);
  if (found) {
    existingWritable(option, path, found);
    // Renaming over a device or a socket would replace it.
    if (!found.isFile()) refuse(option, path, 'it is not a regular file');
  }
  folderOf(option, path);
  let fd: number | undefined;
  try {
    fd = openSync(scratch, 'wx');
    writeSync(fd, Buffer.alloc(PROBE_BYTES));
  } catch (err) {
    refuse(option, path, reason(err));
  } finally {
    if (fd !== undefined) {
      closeSync(fd);
      rmSync(scratch, { force: true });
    }
  }
}

/**
 * Opens a log file for appending (created when missing), after the checks a journal gets: a
 * file this process may write, on a file system with room left. A device (`/dev/stderr`) is
 * taken as it is.
 */
export function openLogFile(option: string, path: string): number {
  const found = stat(path);
  if (found) existingWritable(option, path, found);
  else folderOf(option, path);
  let fd: number;
  try {
    fd = openSync(path, 'a');
  } catch (err) {
    refuse(option, path, reason(err));
  }
  if (found && !found.isFile()) return fd;
  const fs = statfsSync(path);
  if (fs.bavail * fs.bsize < PROBE_BYTES) {
    closeSync(fd);
    if (!found) rmSync(path, { force: true });
    refuse(option, path, `${REASONS.ENOSPC} (ENOSPC)`);
  }
  return fd;
}

/** Where a journal is written before it is renamed over the old one. */
export const scratchOf = (path: string) => `${path}.${process.pid}.tmp`;

/** Writes a journal whole or not at all (a new file renamed over the old one). */
export async function writeJournal(path: string, text: string): Promise<void> {
  const scratch = scratchOf(path);
  await writeFile(scratch, text);
  await rename(scratch, path);
}
