// The two requests every activity of the module makes — create one policy, delete one policy —
// through the call's client (which makes them server-side dry runs in plan mode), the failures
// they turn into, and the RBAC they need.

import {
  type ActivityContext,
  ActivityFailed,
  isApiError,
  NetworkPolicies,
  type RbacRule,
} from '@chaoskit/core';
import type { V1NetworkPolicy } from '@kubernetes/client-node';
import { toApiFields } from './policy-spec.js';

const RESOURCE = { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'] };
export const CREATE_RBAC: RbacRule[] = [{ ...RESOURCE, verbs: ['create'] }];
export const DELETE_RBAC: RbacRule[] = [{ ...RESOURCE, verbs: ['delete'] }];

export interface PolicyResult {
  /** The name of the network policy created or deleted. */
  policy: string;
  namespace: string;
}

/**
 * Creates `body` in namespace `ns`. A policy of that name already there is an ActivityFailed
 * (with `whenPresent` telling how to remove it); other API errors come out as ApiError.
 */
export async function createPolicy(
  ctx: ActivityContext,
  ns: string,
  body: V1NetworkPolicy,
  whenPresent = '',
): Promise<PolicyResult> {
  const wanted = body.metadata?.name ?? `${body.metadata?.generateName ?? ''}…`;
  let created: V1NetworkPolicy;
  try {
    created = await ctx.kube.create<V1NetworkPolicy>(
      NetworkPolicies,
      toApiFields({ ...body, metadata: { ...body.metadata, namespace: ns } }),
      { namespace: ns },
    );
  } catch (err) {
    if (isApiError(err) && err.status === 409) {
      throw new ActivityFailed(
        `network policy '${wanted}' already exists in namespace '${ns}'; nothing was changed${whenPresent}`,
        { cause: err },
      );
    }
    throw err;
  }
  const name = created.metadata?.name ?? wanted;
  ctx.log(`created network policy ${name} in namespace ${ns}`);
  return { policy: name, namespace: ns };
}

/**
 * Deletes the policy `name` of namespace `ns`. Its absence is an ActivityFailed naming both
 * (upstream issue #116: a 404 escaped), with `whenAbsent` telling what creates it. In plan mode
 * an absent policy is only logged: an earlier action of the plan would have created it.
 */
export async function removePolicy(
  ctx: ActivityContext,
  ns: string,
  name: string,
  whenAbsent = '',
): Promise<PolicyResult> {
  try {
    await ctx.kube.delete(NetworkPolicies, name, { namespace: ns });
  } catch (err) {
    if (!isApiError(err, 'NotFound')) throw err;
    if (ctx.dryRun) {
      ctx.log(
        `network policy ${name} is not in namespace ${ns} now; in a real run an earlier action must have created it (dry run: nothing changed)`,
      );
      return { policy: name, namespace: ns };
    }
    throw new ActivityFailed(
      `there is no network policy '${name}' in namespace '${ns}' to remove${whenAbsent}`,
      { cause: err },
    );
  }
  ctx.log(`deleted network policy ${name} of namespace ${ns}`);
  return { policy: name, namespace: ns };
}
