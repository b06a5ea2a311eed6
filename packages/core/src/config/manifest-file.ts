// The file of the create activities (create_deployment, create_statefulset,
// create_service_endpoint): one object of a given kind, read and checked while the arguments are
// validated (D32), so a missing, unreadable or malformed file is refused as a bad `spec_path`
// before any request. `run` gets the document.

import { z } from 'zod';
import type { ActivityContext } from '../definition/activity-context.js';
import type { ResourceType } from '../transport/resources.js';
import { DocumentFileError, type DocumentFormat, parseDocument, readDocumentFile } from './document-file.js';

/** What a good file gives: where it was, how it was read, and the object. */
export interface ManifestFile<T> {
  path: string;
  format: DocumentFormat;
  body: T;
}

type Manifest = { metadata?: { name?: string; namespace?: string } };

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks that a parsed document is one object of `type` with a name (or generateName) and a
 * spec; returns it with the apiVersion the API serves it as. Throws DocumentFileError.
 */
export function checkManifest<T>(doc: unknown, type: ResourceType): T {
  const { kind, apiVersion } = type;
  if (!isMapping(doc)) {
    const what = Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`;
    throw new DocumentFileError(`the document is ${what}, not a ${kind} mapping`);
  }
  if (doc.kind !== kind) {
    throw new DocumentFileError(
      doc.kind === undefined
        ? `the document has no kind; a ${kind} has 'kind: ${kind}'`
        : `the document is a ${JSON.stringify(doc.kind)}, not a ${kind}`,
    );
  }
  if (doc.apiVersion !== undefined && doc.apiVersion !== apiVersion) {
    throw new DocumentFileError(
      `the document's apiVersion is ${JSON.stringify(doc.apiVersion)}; ${kind}s are served as ${apiVersion}`,
    );
  }
  const metadata = doc.metadata;
  if (!isMapping(metadata)) throw new DocumentFileError('the document has no metadata');
  const named = typeof metadata.name === 'string' && metadata.name !== '';
  const generated = typeof metadata.generateName === 'string' && metadata.generateName !== '';
  if (!named && !generated) throw new DocumentFileError('the document has no metadata.name');
  if (
    metadata.namespace !== undefined &&
    metadata.namespace !== null &&
    typeof metadata.namespace !== 'string'
  )
    throw new DocumentFileError('metadata.namespace of the document is not a string');
  if (!isMapping(doc.spec)) throw new DocumentFileError('the document has no spec');
  return { ...doc, apiVersion } as T;
}

/** Reads, parses and checks the file at `path`. Throws DocumentFileError. */
export function loadManifestFile<T>(path: string, type: ResourceType): ManifestFile<T> {
  const { format, document } = readDocumentFile(path);
  return { path, format, body: checkManifest<T>(document, type) };
}

/** Parses the text of a file and checks that it is one object of `type`. Throws DocumentFileError. */
export function parseManifest<T>(text: string, format: DocumentFormat, type: ResourceType): T {
  return checkManifest<T>(parseDocument(text, format), type);
}

/**
 * `spec_path` of a create activity: a path when given, the checked file once validated. A bad
 * file is refused with the reason and the path.
 */
export function manifestFileArg<T>(type: ResourceType) {
  const accepted = `a .json, .yaml or .yml file holding one ${type.apiVersion} ${type.kind}`;
  return z
    .string()
    .transform((path, ctx): ManifestFile<T> => {
      try {
        return loadManifestFile<T>(path, type);
      } catch (err) {
        const reason = err instanceof DocumentFileError ? err.message : String(err);
        ctx.addIssue({ code: 'custom', message: `${accepted}; ${reason}`, input: path });
        return z.NEVER;
      }
    })
    .describe(
      `Path of the file holding the ${type.kind}: JSON when it ends in .json, YAML when it ends in .yaml or .yml.`,
    );
}

/** A `check` hook: a namespace in the file must be `ns` (a file without one is created in `ns`). */
export function checkManifestNamespace(args: { spec_path: ManifestFile<Manifest>; ns: string }) {
  const declared = args.spec_path.body.metadata?.namespace;
  if (declared && declared !== args.ns) {
    return {
      argument: 'ns' as const,
      accepted: `'${declared}', the namespace that the file at spec_path '${args.spec_path.path}' gives in metadata.namespace (or a file without metadata.namespace)`,
    };
  }
  return undefined;
}

/** Creates the file's object in `ns`; returns the name the server gave it and the namespace. */
export async function createFromManifest(
  ctx: Pick<ActivityContext, 'kube' | 'log'>,
  type: ResourceType,
  file: ManifestFile<Manifest>,
  ns: string,
): Promise<{ name: string; namespace: string }> {
  const { path, format, body } = file;
  const created = await ctx.kube.create<Manifest>(
    type,
    { ...body, metadata: { ...body.metadata, namespace: ns } },
    { namespace: ns },
  );
  // The server's name: the one a generateName gave.
  const name = created.metadata?.name ?? body.metadata?.name ?? '';
  ctx.log(`created ${type.noun} ${name} in namespace ${ns} from ${path} (${format})`);
  return { name, namespace: ns };
}
