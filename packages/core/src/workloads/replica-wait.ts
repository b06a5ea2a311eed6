// The waits of the workload probes (deployment_fully_available, deployment_not_fully_available,
// statefulset_fully_available, statefulset_not_fully_available): a list then a watch on the one
// object, returning as soon as the condition holds. `timeout` is the total time allowed (D17),
// not an idle time; absent readyReplicas counts as 0, and spec.replicas absent is the API's 1.

import { z } from 'zod';
import { checkNameSelector, formatNameSelector, nameSelectorArg, namespaceArg } from '../arguments/args.js';
import { kubernetesName } from '../arguments/names.js';
import type { Activity } from '../definition/activity.js';
import type { ActivityContext } from '../definition/activity-context.js';
import { defineActivity } from '../definition/define-activity.js';
import { ActivityFailed } from '../errors/errors.js';
import { apiGroupOf, type ResourceType } from '../transport/resources.js';
import { watchUntil } from '../transport/watch-until.js';

export type ReplicaWant = 'fully available' | 'not fully available';

/** A workload with replicas: a Deployment, a StatefulSet, a ReplicaSet. */
export interface Replicated {
  metadata?: { name?: string; namespace?: string };
  spec?: { replicas?: number };
  status?: { readyReplicas?: number };
}

export interface ReplicaWaitArgs {
  name: string;
  ns: string;
  label_selector: string | null;
  timeout: number;
}

/** `timeout` of the waits: seconds, the total time allowed (D17). */
export function timeoutArg(doc: string) {
  return z.int().min(1).max(86_400).default(30).describe(doc);
}

/** The arguments of a wait on one object of `type`, as 0.25.1 names them. */
export function replicaWaitArgs(type: ResourceType, want: ReplicaWant) {
  return {
    name: kubernetesName(`a ${type.noun} name`).describe(`Name of the ${type.noun} (its own name).`),
    ns: namespaceArg(`Namespace of the ${type.noun}.`),
    label_selector: nameSelectorArg(null).describe(
      `Label selector the ${type.noun} must also match; {name} is replaced by the name argument. Default: none.`,
    ),
    timeout: timeoutArg(
      `Seconds to wait, in total, for the ${type.noun} to be ${want}, after which the probe fails.`,
    ),
  };
}

/** The RBAC of a wait on objects of `type`. */
export function replicaWaitRbac(type: ResourceType) {
  return [{ apiGroups: [apiGroupOf(type)], resources: [type.plural], verbs: ['list', 'watch'] }];
}

/** spec.replicas (the API server defaults it to 1) and status.readyReplicas (absent: 0, D17). */
export function readyCounts(o: Replicated): { desired: number; ready: number } {
  return { desired: o.spec?.replicas ?? 1, ready: o.status?.readyReplicas ?? 0 };
}

/** Whether `want` holds for the object (undefined: not found, never holds). */
export function replicasHold(want: ReplicaWant, o: Replicated | undefined): boolean {
  if (!o) return false;
  const { desired, ready } = readyCounts(o);
  return want === 'fully available' ? ready === desired : ready !== desired;
}

/** "3 of 3 replicas ready" */
export function readiness(o: Replicated): string {
  const { ready, desired } = readyCounts(o);
  return `${ready} of ${desired} replica${desired === 1 ? '' : 's'} ready`;
}

/** "namespace 'x'" or "namespace 'x' matching label selector 'y'": where an object was looked for. */
export function whereLooked(ns: string, labelSelector: string | null | undefined): string {
  return `namespace '${ns}'${labelSelector ? ` matching label selector '${labelSelector}'` : ''}`;
}

/** The ActivityFailed message when the time is up (the Python originals' first words). */
export function replicaTimeoutMessage(
  type: ResourceType,
  want: ReplicaWant,
  args: ReplicaWaitArgs,
  labelSelector: string | null,
  o: Replicated | undefined,
): string {
  const head =
    want === 'fully available'
      ? `${type.noun} '${args.name}' failed to recover within ${args.timeout}s`
      : `${type.noun} '${args.name}' failed to stop running within ${args.timeout}s`;
  if (!o) return `${head}: it was not found in ${whereLooked(args.ns, labelSelector)}`;
  return want === 'fully available'
    ? `${head}: ${readiness(o)}`
    : `${head}: ${readiness(o)}, it stayed fully available`;
}

/** Waits until `want` holds for the object of `type` called `args.name`; true, or ActivityFailed. */
export async function waitForReplicas(
  type: ResourceType,
  want: ReplicaWant,
  args: ReplicaWaitArgs,
  ctx: ActivityContext,
): Promise<true> {
  const labelSelector = args.label_selector ? formatNameSelector(args.label_selector, args.name) : null;
  const started = Date.now();
  const found = await watchUntil<Replicated, Replicated>({
    kube: ctx.kube,
    type,
    select: { namespace: args.ns, fieldSelector: `metadata.name=${args.name}`, labelSelector },
    until: (items) => {
      const o = items[0];
      return o && replicasHold(want, o) ? o : undefined;
    },
    timeoutMs: args.timeout * 1000,
    onTimeout: (items) =>
      new ActivityFailed(replicaTimeoutMessage(type, want, args, labelSelector, items[0])),
    progress: (elapsedMs, items) => {
      const state = items[0] ? readiness(items[0]) : 'not found yet';
      ctx.log(
        `waiting for ${type.noun} ${args.name} to be ${want}: ${state} (${Math.round(elapsedMs / 1000)}s of ${args.timeout}s)`,
      );
    },
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  ctx.log(
    `${type.noun} ${args.name} is ${want} (${readiness(found)}) after ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
  return true;
}

/**
 * The probe that waits until `want` holds for one object of `type`: deployment_fully_available,
 * statefulset_not_fully_available and the like are this one mechanism, each with its own name,
 * module and documentation.
 */
export function replicaWaitProbe(
  type: ResourceType,
  want: ReplicaWant,
  identity: { name: string; module: string; doc: string },
): Activity<ReturnType<typeof replicaWaitArgs>, Awaited<ReturnType<typeof waitForReplicas>>, 'probe'> {
  return defineActivity({
    ...identity,
    kind: 'probe',
    returns:
      want === 'fully available'
        ? '`true` once all replicas are ready; `ActivityFailed` at `timeout`'
        : '`true` once not all are ready; `ActivityFailed` at `timeout`',
    args: replicaWaitArgs(type, want),
    check: checkNameSelector,
    rbac: replicaWaitRbac(type),
    run: (args, ctx) => waitForReplicas(type, want, args, ctx),
  });
}
