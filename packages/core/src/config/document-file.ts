// Reading the JSON and YAML documents chaoskit is given: experiment files, var files, and files
// given as activity arguments (a deployment spec, a network policy, a custom object). It runs
// before any request, so a bad document is refused before anything changes. YAML is read safely
// (js-yaml's core schema: no code, no custom types), and no document can hang or lie: duplicate
// keys are refused (JSON's included), aliases and nesting are bounded, and so is what a
// document expands to (a YAML "billion laughs" is refused, not expanded).

import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { CORE_SCHEMA, JSON_SCHEMA, load, loadAll, mergeTag } from 'js-yaml';

export type DocumentFormat = 'json' | 'yaml';

/** Why a file cannot be used; the message is the reason alone, without the path. */
export class DocumentFileError extends Error {
  override name = 'DocumentFileError';
}

/** Large enough for any real manifest, small enough never to read a wrong file whole. */
export const MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
/** How deep a document may nest (real experiments and manifests stay far below). */
export const MAX_DOCUMENT_DEPTH = 64;
/** How many YAML aliases (`*name`) a document may use. */
export const MAX_ALIASES = 100;
/** How many values a document may hold once its aliases are expanded. */
export const MAX_DOCUMENT_VALUES = 200_000;

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
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DocumentFileError(`the file is not valid JSON: ${(err as Error).message}`);
  }
  // JSON.parse keeps the last of two equal keys: read again as YAML (a superset of JSON), which
  // refuses them, and bound the nesting the same way.
  bounded(value);
  try {
    load(text, { schema: JSON_SCHEMA, maxDepth: MAX_DOCUMENT_DEPTH, maxAliases: 0 });
  } catch (err) {
    throw new DocumentFileError(`the file is not valid JSON: ${yamlReason(err)}`);
  }
  return value;
}

/** Refuses a value nested deeper than MAX_DOCUMENT_DEPTH or holding more than MAX_DOCUMENT_VALUES. */
function bounded(root: unknown): void {
  let values = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > MAX_DOCUMENT_VALUES) {
      throw new DocumentFileError(
        `the document holds more than ${MAX_DOCUMENT_VALUES} values once its aliases are expanded (is it a YAML alias bomb?)`,
      );
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DOCUMENT_DEPTH) {
      throw new DocumentFileError(`the document nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
    }
    for (const inner of Object.values(value)) stack.push([inner, depth + 1]);
  }
}

function yamlReason(err: unknown): string {
  const { reason, mark } = err as { reason?: unknown; mark?: { line: number; column: number } };
  return typeof reason === 'string'
    ? `${reason}${mark ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : ''}`
    : (String((err as Error).message ?? err).split('\n')[0] ?? '');
}

function parseYaml(text: string): unknown {
  let documents: unknown[];
  try {
    documents = loadAll(text, {
      schema: CORE_SCHEMA.withTags(mergeTag),
      maxAliases: MAX_ALIASES,
      maxDepth: MAX_DOCUMENT_DEPTH,
    });
  } catch (err) {
    throw new DocumentFileError(`the file is not valid YAML: ${yamlReason(err)}`);
  }
  for (const document of documents) bounded(document);
  // Empty documents (a trailing `---`, comments only) are skipped, as kubectl skips them.
  const present = documents.filter((d) => d !== null && d !== undefined);
  if (present.length === 0) throw new DocumentFileError('the file holds no document');
  if (present.length > 1)
    throw new DocumentFileError(`the file holds ${present.length} documents; one is expected`);
  return present[0];
}
