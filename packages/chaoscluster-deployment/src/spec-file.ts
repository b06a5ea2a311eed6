// Loading the file of create_deployment: the parser is chosen by the extension (.json, or
// .yaml/.yml), YAML is read safely (js-yaml's core schema: no code, no custom types), and the
// document must be one apps/v1 Deployment. Everything here runs inside argument validation, so
// a bad file is refused before any request reaches the cluster.

import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import type { V1Deployment } from '@kubernetes/client-node';
import { CORE_SCHEMA, loadAll, mergeTag } from 'js-yaml';

export type SpecFormat = 'json' | 'yaml';

/** What a good spec file gives: where it was, how it was read, and the document. */
export interface DeploymentSpec {
  path: string;
  format: SpecFormat;
  body: V1Deployment;
}

/** Why a spec file cannot be used; the message is the reason alone, without the path. */
export class SpecFileError extends Error {
  override name = 'SpecFileError';
}

/** Large enough for any real Deployment, small enough never to read a wrong file whole. */
export const MAX_SPEC_BYTES = 4 * 1024 * 1024;

const EXTENSIONS: Record<string, SpecFormat> = { '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml' };

/** The format named by the file's extension (any letter case), or undefined. */
export function specFormat(path: string): SpecFormat | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

/** Reads, parses and checks the file at `path`. Throws SpecFileError. */
export function loadDeploymentSpec(path: string): DeploymentSpec {
  const format = specFormat(path);
  if (!format) {
    const ext = extname(path);
    throw new SpecFileError(
      ext ? `the extension '${ext}' is neither .json, .yaml nor .yml` : 'the file name has no extension',
    );
  }
  let text: string;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new SpecFileError('it is not a file');
    if (stat.size > MAX_SPEC_BYTES)
      throw new SpecFileError(`the file is ${stat.size} bytes, more than ${MAX_SPEC_BYTES}`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof SpecFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new SpecFileError(
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'the file cannot be read (permission denied)'
          : `the file cannot be read (${(err as Error).message})`,
    );
  }
  return { path, format, body: parseDeploymentSpec(text, format) };
}

/** Parses the text of a spec file and checks that it is one Deployment. Throws SpecFileError. */
export function parseDeploymentSpec(text: string, format: SpecFormat): V1Deployment {
  return checkDeployment(format === 'json' ? parseJson(text) : parseYaml(text));
}

function parseJson(text: string): unknown {
  if (text.trim() === '') throw new SpecFileError('the file is empty');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SpecFileError(`the file is not valid JSON: ${(err as Error).message}`);
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
    throw new SpecFileError(`the file is not valid YAML: ${message}`);
  }
  // Empty documents (a trailing `---`, comments only) are skipped, as kubectl skips them.
  const present = documents.filter((d) => d !== null && d !== undefined);
  if (present.length === 0) throw new SpecFileError('the file holds no document');
  if (present.length > 1)
    throw new SpecFileError(`the file holds ${present.length} documents; one Deployment is expected`);
  return present[0];
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkDeployment(doc: unknown): V1Deployment {
  if (!isMapping(doc)) {
    const what = Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`;
    throw new SpecFileError(`the document is ${what}, not a Deployment mapping`);
  }
  if (doc.kind !== 'Deployment') {
    throw new SpecFileError(
      doc.kind === undefined
        ? "the document has no kind; a Deployment has 'kind: Deployment'"
        : `the document is a ${JSON.stringify(doc.kind)}, not a Deployment`,
    );
  }
  if (doc.apiVersion !== undefined && doc.apiVersion !== 'apps/v1') {
    throw new SpecFileError(
      `the document's apiVersion is ${JSON.stringify(doc.apiVersion)}; Deployments are served as apps/v1`,
    );
  }
  const metadata = doc.metadata;
  if (!isMapping(metadata)) throw new SpecFileError('the document has no metadata');
  const named = typeof metadata.name === 'string' && metadata.name !== '';
  const generated = typeof metadata.generateName === 'string' && metadata.generateName !== '';
  if (!named && !generated) throw new SpecFileError('the document has no metadata.name');
  if (
    metadata.namespace !== undefined &&
    metadata.namespace !== null &&
    typeof metadata.namespace !== 'string'
  )
    throw new SpecFileError('metadata.namespace of the document is not a string');
  if (!isMapping(doc.spec)) throw new SpecFileError('the document has no spec');
  return { ...doc, apiVersion: 'apps/v1' } as V1Deployment;
}
