// The two waits of the deployment probes (deployment_fully_available and
// deployment_not_fully_available): a list then a watch on the one deployment, returning as soon
// as the condition holds. `timeout` is the total time allowed (D17), not an idle time; absent
// readyReplicas counts as 0.

import {
  type ActivityContext,
  ActivityFailed,
  Deployments,
  formatNameSelector,
  nameSelectorArg,
  namespaceArg,
  watchUntil,
} from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';
import { deploymentNameArg, timeoutArg } from './args.js';
import { byName, isFullyReady, replicaCounts, whereLooked } from './deployments.js';

export type Want = 'fully available' | 'not fully available';

export function waitArgs(want: Want) {
  return {
    name: deploymentNameArg('Name of the deployment (its own name).'),
    ns: namespaceArg('Namespace of the deployment.'),
    label_selector: nameSelectorArg(null).describe(
      'Label selector the deployment must also match; {name} is replaced by the name argument. Default: none.',
    ),
    timeout: timeoutArg(
      `Seconds to wait, in total, for the deployment to be ${want}, after which the probe fails.`,
    ),
  };
}

export const WAIT_RBAC = [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['list', 'watch'] }];

export interface WaitArgs {
  name: string;
  ns: string;
  label_selector: string | null;
  timeout: number;
}

/** Whether `want` holds for the deployment (undefined: not found, never holds). */
export function holds(want: Want, deployment: V1Deployment | undefined): boolean {
  if (!deployment) return false;
  return want === 'fully available' ? isFullyReady(deployment) : !isFullyReady(deployment);
}

/** "3 of 3 replicas ready" */
export function readiness(deployment: V1Deployment): string {
  const { ready, desired } = replicaCounts(deployment);
  return `${ready} of ${desired} replica${desired === 1 ? '' : 's'} ready`;
}

/** The ActivityFailed message when the time is up (the Python original's first words). */
export function timeoutMessage(
  want: Want,
  args: WaitArgs,
  labelSelector: string | null,
  deployment: V1Deployment | undefined,
): string {
  const head =
    want === 'fully available'
      ? `deployment '${args.name}' failed to recover within ${args.timeout}s`
      : `deployment '${args.name}' failed to stop running within ${args.timeout}s`;
  if (!deployment) return `${head}: it was not found in ${whereLooked(args.ns, labelSelector)}`;
  return want === 'fully available'
    ? `${head}: ${readiness(deployment)}`
    : `${head}: ${readiness(deployment)}, it stayed fully available`;
}

export async function waitForDeployment(want: Want, args: WaitArgs, ctx: ActivityContext): Promise<true> {
  const labelSelector = args.label_selector ? formatNameSelector(args.label_selector, args.name) : null;
  const started = Date.now();
  const found = await watchUntil<V1Deployment, V1Deployment>({
    kube: ctx.kube,
    type: Deployments,
    select: { namespace: args.ns, fieldSelector: byName(args.name), labelSelector },
    until: (items) => {
      const deployment = items[0];
      return deployment && holds(want, deployment) ? deployment : undefined;
    },
    timeoutMs: args.timeout * 1000,
    onTimeout: (items) => new ActivityFailed(timeoutMessage(want, args, labelSelector, items[0])),
    progress: (elapsedMs, items) => {
      const state = items[0] ? readiness(items[0]) : 'not found yet';
      ctx.log(
        `waiting for deployment ${args.name} to be ${want}: ${state} (${Math.round(elapsedMs / 1000)}s of ${args.timeout}s)`,
      );
    },
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  ctx.log(
    `deployment ${args.name} is ${want} (${readiness(found)}) after ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
  return true;
}
