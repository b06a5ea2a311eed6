// create_network_policy's document: one networking.k8s.io/v1 NetworkPolicy, given inline (`spec`)
// or as a JSON or YAML file (`spec_path`, read by core's readDocumentFile). Both are checked
// while the arguments are validated, so a bad policy is refused before any request.

import { DocumentFileError, type DocumentFormat, parseDocument, readDocumentFile } from '@chaoskit/core';
import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { type FieldType, OBJECTS, type ObjectName, PROPERTY_NAMES } from './network-policy-fields.js';
import { API_VERSION } from './policies.js';

/** Why a document is not a NetworkPolicy that can be created; the message is the reason alone. */
export class PolicySpecError extends Error {
  override name = 'PolicySpecError';
}

/** A policy read from a file: where it was, how it was read, and the document. */
export interface PolicyFile {
  path: string;
  format: DocumentFormat;
  body: V1NetworkPolicy;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

// The document is checked field by field against the API's NetworkPolicy: a field it does not
// have (a typo such as `podSelectr`) would be dropped by the server without a word, and the
// policy created would let in more than it says, so it is refused before any request. The
// checked policy is client-node's V1NetworkPolicy (an ingress rule's `from` is `_from` there),
// what a TypeScript caller writes too; `toApiFields` gives it back its API names to be sent.

const normal = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

function fieldsOf(object: ObjectName): Array<{ name: string; property: string; type: FieldType }> {
  const renamed: Record<string, string> = PROPERTY_NAMES[object] ?? {};
  return Object.entries(OBJECTS[object]).map(([name, type]) => ({
    name,
    property: renamed[name] ?? name,
    type: type as FieldType,
  }));
}

/**
 * `value`, written with the API's field names (or the model's own, `_from`), as the client-node
 * model of `type`. Throws PolicySpecError at the first field the API object does not have, or at
 * a list or mapping of the wrong shape.
 */
export function toModel(value: unknown, type: FieldType, path = ''): unknown {
  if (value === null || value === undefined || type === 'value') return value;
  const where = path || 'the document';
  if (type.endsWith('[]')) {
    if (!Array.isArray(value)) throw new PolicySpecError(`${where} must be a list`);
    const item = type.slice(0, -2) as FieldType;
    return value.map((inner, i) => toModel(inner, item, `${path}[${i}]`));
  }
  if (!isMapping(value)) throw new PolicySpecError(`${where} must be a mapping`);
  if (type === 'map') return { ...value };
  const fields = fieldsOf(type as ObjectName);
  const converted: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const field = fields.find((f) => f.name === key) ?? fields.find((f) => f.property === key);
    if (!field) {
      const close = fields.find((f) => normal(f.name) === normal(key));
      throw new PolicySpecError(
        `'${at}' is not a field of a NetworkPolicy${close ? `; did you mean '${close.name}'?` : ` (known here: ${fields.map((f) => f.name).join(', ')})`}`,
      );
    }
    converted[field.property] = toModel(inner, field.type, at);
  }
  return converted;
}

/** The checked policy with the API's field names (`from`), as the request sends it. */
export function toApiFields(value: unknown, type: FieldType = 'NetworkPolicy'): unknown {
  if (value === null || value === undefined || type === 'value' || type === 'map') return value;
  if (type.endsWith('[]')) {
    const item = type.slice(0, -2) as FieldType;
    return Array.isArray(value) ? value.map((inner) => toApiFields(inner, item)) : value;
  }
  if (!isMapping(value)) return value;
  const fields = fieldsOf(type as ObjectName);
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const field = fields.find((f) => f.property === key);
      return field ? [field.name, toApiFields(inner, field.type)] : [key, inner];
    }),
  );
}

/**
 * Checks that `doc` is one NetworkPolicy with a name (or generateName) and a spec, written with
 * the API's field names, and returns it as the client-node model. An absent apiVersion is filled
 * in; any other than networking.k8s.io/v1 is refused. Throws PolicySpecError.
 */
export function checkNetworkPolicy(doc: unknown): V1NetworkPolicy {
  if (!isMapping(doc)) {
    const what = Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`;
    throw new PolicySpecError(`the document is ${what}, not a NetworkPolicy mapping`);
  }
  if (doc.kind !== 'NetworkPolicy') {
    throw new PolicySpecError(
      doc.kind === undefined
        ? "the document has no kind; a network policy has 'kind: NetworkPolicy'"
        : `the document is a ${JSON.stringify(doc.kind)}, not a NetworkPolicy`,
    );
  }
  if (doc.apiVersion !== undefined && doc.apiVersion !== API_VERSION) {
    throw new PolicySpecError(
      `the document's apiVersion is ${JSON.stringify(doc.apiVersion)}; network policies are served as ${API_VERSION}`,
    );
  }
  const metadata = doc.metadata;
  if (!isMapping(metadata)) throw new PolicySpecError('the document has no metadata');
  if (!nonEmptyString(metadata.name) && !nonEmptyString(metadata.generateName))
    throw new PolicySpecError('the document has no metadata.name');
  if (
    metadata.namespace !== undefined &&
    metadata.namespace !== null &&
    typeof metadata.namespace !== 'string'
  )
    throw new PolicySpecError('metadata.namespace of the document is not a string');
  if (!isMapping(doc.spec)) throw new PolicySpecError('the document has no spec mapping');
  return toModel({ ...doc, apiVersion: API_VERSION }, 'NetworkPolicy') as V1NetworkPolicy;
}

/** Reads, parses and checks the file at `path`. Throws DocumentFileError or PolicySpecError. */
export function loadNetworkPolicyFile(path: string): PolicyFile {
  const { format, document } = readDocumentFile(path);
  return { path, format, body: checkNetworkPolicy(document) };
}

/** Parses the text of a policy file and checks it. Throws DocumentFileError or PolicySpecError. */
export function parseNetworkPolicy(text: string, format: DocumentFormat): V1NetworkPolicy {
  return checkNetworkPolicy(parseDocument(text, format));
}

/** The reason of a DocumentFileError or PolicySpecError, or the error itself as text. */
export function specProblem(err: unknown): string {
  return err instanceof DocumentFileError || err instanceof PolicySpecError ? err.message : String(err);
}
