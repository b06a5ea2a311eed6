// The kinds of object chaoskit reads and writes, and where the API serves them.

import type { ApiRequestContext } from '../errors/errors.js';

export interface ResourceType {
  /** `v1` for the core group, else `group/version`. */
  apiVersion: string;
  plural: string;
  kind: string;
  namespaced: boolean;
  /** How errors name one object of it ("pod", "virtual service"). */
  noun: string;
}

function type(
  apiVersion: string,
  plural: string,
  kind: string,
  namespaced: boolean,
  noun?: string,
): ResourceType {
  return {
    apiVersion,
    plural,
    kind,
    namespaced,
    noun: noun ?? kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(),
  };
}

/** The API group of `type` ('' for the core group), as RBAC rules name it. */
export function apiGroupOf(type: ResourceType): string {
  return type.apiVersion.includes('/') ? (type.apiVersion.split('/')[0] ?? '') : '';
}

export const Pods = type('v1', 'pods', 'Pod', true);
export const Nodes = type('v1', 'nodes', 'Node', false);
export const Services = type('v1', 'services', 'Service', true);
export const ConfigMaps = type('v1', 'configmaps', 'ConfigMap', true, 'config map');
export const Secrets = type('v1', 'secrets', 'Secret', true);
export const Namespaces = type('v1', 'namespaces', 'Namespace', false);
export const Deployments = type('apps/v1', 'deployments', 'Deployment', true);
export const ReplicaSets = type('apps/v1', 'replicasets', 'ReplicaSet', true, 'replica set');
export const StatefulSets = type('apps/v1', 'statefulsets', 'StatefulSet', true, 'stateful set');
export const NetworkPolicies = type(
  'networking.k8s.io/v1',
  'networkpolicies',
  'NetworkPolicy',
  true,
  'network policy',
);
export const CustomResourceDefinitions = type(
  'apiextensions.k8s.io/v1',
  'customresourcedefinitions',
  'CustomResourceDefinition',
  false,
  'custom resource definition',
);

/** A custom resource (a CRD's objects), e.g. Istio's virtual services. */
export function customResource(
  group: string,
  version: string,
  plural: string,
  namespaced: boolean,
  noun = 'custom object',
): ResourceType {
  return { apiVersion: `${group}/${version}`, plural, kind: '', namespaced, noun };
}

const prefix = (t: ResourceType) =>
  t.apiVersion.includes('/') ? `/apis/${t.apiVersion}` : `/api/${t.apiVersion}`;

/** `/api/v1/namespaces/ns/pods`, or `/api/v1/nodes` for a cluster-wide kind (or every namespace). */
export function collectionPath(t: ResourceType, namespace?: string | null): string {
  const ns = t.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix(t)}${ns}/${t.plural}`;
}

/** `/api/v1/namespaces/ns/pods/name[/subresource]`. */
export function objectPath(
  t: ResourceType,
  name: string,
  namespace?: string | null,
  subresource?: string,
): string {
  return `${collectionPath(t, namespace)}/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}`;
}

/** A request about an object of `t`, as errors name it: `get pod 'web' in namespace 'shop'`. */
export const requestContext = (
  t: ResourceType,
  verb: string,
  name?: string,
  namespace?: string | null,
): ApiRequestContext => ({
  verb,
  resource: t.noun,
  ...(name ? { name } : {}),
  ...(t.namespaced && namespace ? { namespace } : {}),
});
