// create_deployment's file: one apps/v1 Deployment, read and checked by core's manifest reader
// inside argument validation, so a bad file is refused before any request reaches the cluster.

import {
  Deployments,
  DocumentFileError,
  type DocumentFormat,
  documentFormat,
  loadManifestFile,
  type ManifestFile,
  parseManifest,
} from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';

export { DocumentFileError as SpecFileError, documentFormat as specFormat };
export type SpecFormat = DocumentFormat;

/** What a good spec file gives: where it was, how it was read, and the document. */
export type DeploymentSpec = ManifestFile<V1Deployment>;

/** Reads, parses and checks the file at `path`. Throws SpecFileError. */
export function loadDeploymentSpec(path: string): DeploymentSpec {
  return loadManifestFile<V1Deployment>(path, Deployments);
}

/** Parses the text of a spec file and checks that it is one Deployment. Throws SpecFileError. */
export function parseDeploymentSpec(text: string, format: SpecFormat): V1Deployment {
  return parseManifest<V1Deployment>(text, format, Deployments);
}
