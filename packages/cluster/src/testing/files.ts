import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A test file's own directory of files (removed after its tests), for arguments that name a file. */
export interface ScratchFiles {
  dir: string;
  /** Writes `text` to the file `name` of the directory; returns its path. */
  write(name: string, text: string): string;
}

/** A new directory under the system's temporary one, named `<prefix>…`. */
export function scratchFiles(prefix: string): ScratchFiles {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  };
}
