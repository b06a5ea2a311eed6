// Reading a JSON or YAML file given as an activity argument (a deployment spec, a network
// policy, a custom object). It runs inside argument validation, so a bad file is refused before
// any request. YAML is read safely (js-yaml's core schema: no code, no custom types).

import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { CORE_SCHEMA, loadAll, mergeTag } from 'js-yaml';

export type DocumentFormat = 'json' | 'yaml';

/** Why a file cannot be used; the message is the reason alone, without the path. */
export class DocumentFileError extends Error {
  override name = 'DocumentFileError';
}

/** Large enough for any real manifest, small enough never to read a wrong file whole. */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;

const EXTENSIONS: Record<string, DocumentFormat> = { '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml' };

/** The format named by the file's extension (any letter case), or undefined. */
export function documentFormat(path: string): DocumentFormat | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

/**
 * Reads and parses the one document of the file at `path`. The parser is chosen by the
 * extension, unless `format` forces one. Throws DocumentFileError (the reason, without the path).
 */
export function readDocumentFile(
  path: string,
  format = documentFormat(path),
): { path: string; format: DocumentFormat; document: unknown } {
  if (!format) {
    const ext = extname(path);
    throw new DocumentFileError(
      ext ? `the extension '${ext}' is neither .json, .yaml nor .yml` : 'the file name has no extension',
    );
  }
  let text: string;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new DocumentFileError('it is not a file');
    if (stat.size > MAX_DOCUMENT_BYTES)
      throw new DocumentFileError(`the file is ${stat.size} bytes, more than ${MAX_DOCUMENT_BYTES}`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof DocumentFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new DocumentFileError(
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'the file cannot be read (permission denied)'
          : `the file cannot be read (${(err as Error).message})`,
    );
  }
  return { path, format, document: parseDocument(text, format) };
}

/** Parses the text of a one-document file. Throws DocumentFileError. */
export function parseDocument(text: string, format: DocumentFormat): unknown {
  return format === 'json' ? parseJson(text) : parseYaml(text);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new DocumentFileError('the file is empty');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DocumentFileError(`the file is not valid JSON: ${(err as Error).message}`);
  }
}

function parseYaml(text: string): unknown {
  let documents: unknown[];
  try {
    documents = loadAll(text, { schema: CORE_SCHEMA.withTags(mergeTag), maxAliases: 1000 });
  } catch (err) {
    const { reason, mark } = err as { reason?: unknown; mark?: { line: number; column: number } };
    const message =
      typeof reason === 'string'
        ? `${reason}${mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : ''}`
        : String((err as Error).message ?? err).split('\n')[0];
    throw new DocumentFileError(`the file is not valid YAML: ${message}`);
  }
  // Empty documents (a trailing `---`, comments only) are skipped, as kubectl skips them.
  const present = documents.filter((d) => d !== null && d !== undefined);
  if (present.length === 0) throw new DocumentFileError('the file holds no document');
  if (present.length > 1)
    throw new DocumentFileError(`the file holds ${present.length} documents; one is expected`);
  return present[0];
}
