// create_network_policy's document: one networking.k8s.io/v1 NetworkPolicy, given inline (`spec`)
// or as a JSON or YAML file (`spec_path`, read by core's readDocumentFile). Both are checked
// while the arguments are validated, so a bad policy is refused before any request.

import { DocumentFileError, type DocumentFormat, parseDocument, readDocumentFile } from '@chaoskit/core';
import {
  V1IPBlock,
  V1LabelSelector,
  V1LabelSelectorRequirement,
  V1ManagedFieldsEntry,
  V1NetworkPolicy,
  V1NetworkPolicyEgressRule,
  V1NetworkPolicyIngressRule,
  V1NetworkPolicyPeer,
  V1NetworkPolicyPort,
  V1NetworkPolicySpec,
  V1ObjectMeta,
  V1OwnerReference,
} from '@kubernetes/client-node';
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

// client-node serializes a request body through its models, by their *property* names: an
// ingress rule's `from` is `_from` there, so a policy written as JSON or YAML would lose its
// `from` (and every field a model does not know, such as a typo) without a word, and the policy
// created would let in more than it says. So the document is converted to the models' names
// here, and a field they do not have is refused, before any request.

interface Model {
  getAttributeTypeMap(): Array<{ name: string; baseName: string; type: string }>;
}

const MODELS: Record<string, Model> = {
  V1NetworkPolicy,
  V1ObjectMeta,
  V1OwnerReference,
  V1ManagedFieldsEntry,
  V1NetworkPolicySpec,
  V1NetworkPolicyIngressRule,
  V1NetworkPolicyEgressRule,
  V1NetworkPolicyPeer,
  V1NetworkPolicyPort,
  V1IPBlock,
  V1LabelSelector,
  V1LabelSelectorRequirement,
};

const normal = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

/**
 * `value`, written with the API's field names, converted to the client-node model `type` (its
 * property names). Throws PolicySpecError at the first field the API object does not have, or
 * at a list or mapping of the wrong shape.
 */
export function toModel(value: unknown, type: string, path = ''): unknown {
  if (value === null || value === undefined) return value;
  const where = path || 'the document';
  const list = /^Array<(.+)>$/.exec(type);
  if (list) {
    if (!Array.isArray(value)) throw new PolicySpecError(`${where} must be a list`);
    return value.map((item, i) => toModel(item, list[1] as string, `${path}[${i}]`));
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  const model = MODELS[type];
  if (!map && !model) return value;
  if (!isMapping(value)) throw new PolicySpecError(`${where} must be a mapping`);
  if (map) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, toModel(inner, map[1] as string, `${path}.${key}`)]),
    );
  }
  const attributes = (model as Model).getAttributeTypeMap();
  const converted: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    // The API's name, or the model's own (`_from`), as a TypeScript caller typing V1NetworkPolicy writes it.
    const attribute = attributes.find((a) => a.baseName === key) ?? attributes.find((a) => a.name === key);
    if (!attribute) {
      const close = attributes.find((a) => normal(a.baseName) === normal(key));
      throw new PolicySpecError(
        `'${at}' is not a field of a NetworkPolicy${close ? `; did you mean '${close.baseName}'?` : ` (known here: ${attributes.map((a) => a.baseName).join(', ')})`}`,
      );
    }
    converted[attribute.name] = toModel(inner, attribute.type, at);
  }
  return converted;
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
  return toModel({ ...doc, apiVersion: API_VERSION }, 'V1NetworkPolicy') as V1NetworkPolicy;
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
