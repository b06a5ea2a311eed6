// Reading an experiment: a file or an http(s) URL, parsed as JSON or YAML; the directory of a
// file is kept, as its activity packages and js controls are looked for there first.
import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { parseDocument } from '@chaoskit/core';
import { MAX_DOCUMENT_BYTES } from '@chaoskit/core/runner';
import { InvalidExperiment } from '../output/errors.js';
import type { Json } from './raw.js';
import { fetchExperiment, isUrl, shownUrl } from './url.js';

// The directory each experiment was read from: its activity packages are looked for there first.
const directories = new WeakMap<object, string>();

/** The directory an experiment was read from: a file's; none for a URL or an experiment not read. */
export function experimentDir(raw: Json): string | undefined {
  return directories.get(raw);
}

/**
 * Reads an experiment: a .json, .yaml or .yml file, or an http(s) URL (D82). `debug` receives
 * the request's status line.
 */
export async function loadExperiment(source: string, debug?: (line: string) => void): Promise<Json> {
  if (isUrl(source)) {
    const { text, format } = await fetchExperiment(source, debug);
    return parseExperiment(text, format, shownUrl(source));
  }
  const ext = extname(source).toLowerCase();
  if (!['.json', '.yaml', '.yml'].includes(ext)) {
    throw new InvalidExperiment(
      `${source}: only files with json, yaml or yml extensions (or http(s) URLs) are supported`,
    );
  }
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (err) {
    throw new InvalidExperiment(
      `${source}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  if (Buffer.byteLength(text) > MAX_DOCUMENT_BYTES) {
    throw new InvalidExperiment(`${source}: the file is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  }
  const parsed = parseExperiment(text, ext === '.json' ? 'json' : 'yaml', source);
  directories.set(parsed, dirname(resolve(source)));
  return parsed;
}

/** The directory a source's relative paths (js controls) are read from: a file's, or the working one. */
export function experimentBase(source: string): string {
  return isUrl(source) ? process.cwd() : dirname(resolve(source));
}

function parseExperiment(text: string, format: 'json' | 'yaml' | 'either', where: string): Json {
  let parsed: unknown;
  const as = (f: 'json' | 'yaml') => {
    try {
      // Core's reader: no duplicate key, bounded aliases and nesting (no YAML bomb).
      return parseDocument(text, f);
    } catch (err) {
      const reason = (err as Error).message.replace(/^the file is not valid (JSON|YAML): /, '');
      throw new InvalidExperiment(`${where}: failed parsing ${f === 'json' ? 'JSON' : 'YAML'}: ${reason}`);
    }
  };
  if (format === 'either') {
    try {
      parsed = as('json');
    } catch {
      parsed = as('yaml');
    }
  } else parsed = as(format);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InvalidExperiment(`${where}: an experiment is a mapping (title, description, method, …)`);
  }
  return parsed as Json;
}
