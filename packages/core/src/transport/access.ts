// What an identity may do, asked of the cluster before a run's first change: who its
// credentials are (a SelfSubjectReview), and whether it holds each right the run needs (a
// SelfSubjectAccessReview per right, e.g. of the record's LEDGER_RULES). Both questions are
// allowed to every authenticated identity.

import { isApiError } from '../errors/errors.js';
import { CORE_WRITE } from './request.js';
import type { Transport } from './transport.js';

/** One RBAC rule (the shape of a Kubernetes `PolicyRule`): what an activity needs. */
export interface RbacRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  /** Only these objects (by name). */
  resourceNames?: string[];
}

/**
 * One right: a verb on a resource (of a group; one object of it when named; a subresource of it,
 * as `pods/eviction` is of pods), in a namespace.
 */
export interface Right {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
  namespace?: string;
}

/**
 * Every right a set of rules grants, one per verb, resource and name, in `namespace`. A rule's
 * `pods/eviction` is asked as the resource pods and its subresource eviction, as the API names
 * the request it authorizes.
 */
export function rightsOf(rules: readonly RbacRule[], namespace?: string): Right[] {
  return rules.flatMap((rule) =>
    rule.apiGroups.flatMap((group) =>
      rule.resources.flatMap((written) => {
        const [resource = written, subresource] = written.split('/', 2);
        return rule.verbs.flatMap((verb) =>
          (rule.resourceNames?.length ? rule.resourceNames : [undefined]).map((name) => ({
            verb,
            group,
            resource,
            ...(subresource ? { subresource } : {}),
            ...(name ? { name } : {}),
            ...(namespace ? { namespace } : {}),
          })),
        );
      }),
    ),
  );
}

/**
 * `create configmaps`, `get secrets 'chaoskit-ledger-key'`, `patch virtualservices.networking.istio.io`,
 * `create pods/eviction`.
 */
export function describeRight(right: Right): string {
  const resource = `${right.resource}${right.subresource ? `/${right.subresource}` : ''}`;
  return `${right.verb} ${right.group ? `${resource}.${right.group}` : resource}${right.name ? ` '${right.name}'` : ''}`;
}

/** Who the cluster knows a client's credentials as: the user, and the groups it is in. */
export interface Identity {
  username: string;
  groups?: string[];
}

/**
 * A review of the client's own identity or rights (`kind` in `group`/v1): created, answered and
 * kept nowhere, so it changes nothing, but it is a POST: core's mark lets it through (D171).
 */
function postReview<T>(kube: Transport, group: string, kind: string, spec?: unknown): Promise<T> {
  const resource = kind.toLowerCase();
  return kube.request<T>(
    {
      method: 'POST',
      [CORE_WRITE]: true,
      path: `/apis/${group}/v1/${resource}s`,
      body: { apiVersion: `${group}/v1`, kind, ...(spec !== undefined ? { spec } : {}) },
    },
    { verb: 'create', resource },
  );
}

/**
 * Who the cluster knows the client's credentials as (`system:serviceaccount:shop:runner`, with
 * its groups): the API server's own account. Credentials the cluster does not accept throw its
 * Unauthorized; a cluster older than the SelfSubjectReview API (Kubernetes 1.28) gives undefined.
 */
export async function identityOf(kube: Transport): Promise<Identity | undefined> {
  try {
    const review = await postReview<{
      status?: { userInfo?: { username?: string; groups?: string[] } };
    }>(kube, 'authentication.k8s.io', 'SelfSubjectReview');
    const info = review.status?.userInfo;
    if (!info?.username) return undefined;
    return { username: info.username, ...(info.groups?.length ? { groups: info.groups } : {}) };
  } catch (err) {
    if (isApiError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** The user name of `identityOf`. */
export async function whoAmI(kube: Transport): Promise<string | undefined> {
  return (await identityOf(kube))?.username;
}

/**
 * The rights of `rights` the client's identity does not hold (asked all at once). A right asked
 * without a name that the identity holds only for some objects by name (a rule with
 * resourceNames) is not counted missing: the objects the run meets may be those, and a grant
 * that narrow is what least privilege looks like. Its request is then the server's to judge.
 */
export async function missingRights(kube: Transport, rights: readonly Right[]): Promise<Right[]> {
  const allowed = await Promise.all(
    rights.map(async (right) => {
      const review = await postReview<{ status?: { allowed?: boolean } }>(
        kube,
        'authorization.k8s.io',
        'SelfSubjectAccessReview',
        { resourceAttributes: right },
      );
      return review.status?.allowed === true;
    }),
  );
  const denied = rights.filter((_, i) => !allowed[i]);
  const unnamed = denied.filter((right) => right.name === undefined);
  if (unnamed.length === 0) return denied;
  const namespaces = [...new Set(unnamed.map((right) => right.namespace ?? 'default'))];
  const byName = new Map(
    await Promise.all(namespaces.map(async (ns) => [ns, await namedRules(kube, ns)] as const)),
  );
  return denied.filter(
    (right) =>
      right.name !== undefined ||
      !(byName.get(right.namespace ?? 'default') ?? []).some((rule) => grants(rule, right)),
  );
}

/**
 * The identity's rules in `namespace` that name their objects (a SelfSubjectRulesReview; a
 * cluster-wide grant shows in every namespace's review).
 */
async function namedRules(kube: Transport, namespace: string): Promise<RbacRule[]> {
  const review = await postReview<{ status?: { resourceRules?: RbacRule[] } }>(
    kube,
    'authorization.k8s.io',
    'SelfSubjectRulesReview',
    { namespace },
  );
  return (review.status?.resourceRules ?? []).filter((rule) => (rule.resourceNames ?? []).length > 0);
}

function grants(rule: RbacRule, right: Right): boolean {
  const any = (list: readonly string[] | undefined, value: string) =>
    (list ?? []).some((v) => v === '*' || v === value);
  const resource = right.subresource ? `${right.resource}/${right.subresource}` : right.resource;
  return (
    any(rule.verbs, right.verb) &&
    any(rule.apiGroups, right.group) &&
    (any(rule.resources, resource) ||
      (right.subresource !== undefined && any(rule.resources, `${right.resource}/*`)))
  );
}
