import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Imports a user's or an installed package's module: a file: URL, or a package name. The
 * single-file chaoskit (D157) cannot import(): Node gives its script no module loader. There it
 * is required, which loads an ES module too (one without top-level await).
 */
export async function importModule(specifier: string): Promise<Record<string, unknown>> {
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING') throw err;
    const path = specifier.startsWith('file:') ? fileURLToPath(specifier) : specifier;
    return createRequire(join(process.cwd(), 'noop.js'))(path) as Record<string, unknown>;
  }
}
