// The resource an activity addresses (group, version, plural, and the namespace of the
// namespaced variants), how messages name it, and how core's client reaches it.

import { customResource, type ResourceType } from '@chaoskit/core';

export interface Target {
  group: string;
  version: string;
  plural: string;
  /** Absent for the cluster-wide variants. */
  namespace?: string;
}

/** The arguments that name the resource, and with `ns` the namespace. */
export type TargetArgs = { group: string; version: string; plural: string; ns?: string };

export function targetOf(args: TargetArgs): Target {
  const { group, version, plural, ns } = args;
  return ns === undefined ? { group, version, plural } : { group, version, plural, namespace: ns };
}

/**
 * The resource type of core's client: the namespaced paths when the target has a namespace,
 * the cluster-wide ones otherwise (for a namespaced resource: every namespace).
 */
export function resourceType(t: Target): ResourceType {
  return customResource(t.group, t.version, t.plural, t.namespace !== undefined, 'custom object');
}

/** `widgets.example.com/v1`: the resource, as a person reads it. */
export function resourceName(t: Target): string {
  return `${t.plural}.${t.group}/${t.version}`;
}

/** "custom object 'w1' of widgets.example.com/v1 in namespace 'ns'" (or "cluster-wide"). */
export function describeObject(t: Target, name: string | undefined): string {
  const where = t.namespace === undefined ? 'cluster-wide' : `in namespace '${t.namespace}'`;
  return `${name === undefined ? 'custom objects' : `custom object '${name}'`} of ${resourceName(t)} ${where}`;
}
