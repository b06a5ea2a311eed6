// create_deployment's file: one apps/v1 Deployment, read by core's readDocumentFile inside
// argument validation, so a bad file is refused before any request reaches the cluster.

import {
  DocumentFileError,
  type DocumentFormat,
  documentFormat,
  parseDocument,
  readDocumentFile,
} from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';

export { DocumentFileError as SpecFileError, documentFormat as specFormat };
export type SpecFormat = DocumentFormat;

/** What a good spec file gives: where it was, how it was read, and the document. */
export interface DeploymentSpec {
  path: string;
  format: SpecFormat;
  body: V1Deployment;
}

/** Reads, parses and checks the file at `path`. Throws SpecFileError. */
export function loadDeploymentSpec(path: string): DeploymentSpec {
  const { format, document } = readDocumentFile(path);
  return { path, format, body: checkDeployment(document) };
}

/** Parses the text of a spec file and checks that it is one Deployment. Throws SpecFileError. */
export function parseDeploymentSpec(text: string, format: SpecFormat): V1Deployment {
  return checkDeployment(parseDocument(text, format));
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkDeployment(doc: unknown): V1Deployment {
  if (!isMapping(doc)) {
    const what = Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`;
    throw new DocumentFileError(`the document is ${what}, not a Deployment mapping`);
  }
  if (doc.kind !== 'Deployment') {
    throw new DocumentFileError(
      doc.kind === undefined
        ? "the document has no kind; a Deployment has 'kind: Deployment'"
        : `the document is a ${JSON.stringify(doc.kind)}, not a Deployment`,
    );
  }
  if (doc.apiVersion !== undefined && doc.apiVersion !== 'apps/v1') {
    throw new DocumentFileError(
      `the document's apiVersion is ${JSON.stringify(doc.apiVersion)}; Deployments are served as apps/v1`,
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
  return { ...doc, apiVersion: 'apps/v1' } as V1Deployment;
}
