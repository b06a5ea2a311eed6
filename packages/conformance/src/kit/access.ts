// What the kit's own identity must be allowed on a user's cluster, asked of the cluster before
// the kit creates anything (SelfSubjectAccessReview): an identity without them gets the list of
// what it lacks and how to grant it, not the first 403 of the run.
import { AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';

interface Right {
  verb: string;
  resource: string;
  group?: string;
  subresource?: string;
}

const RBAC = 'rbac.authorization.k8s.io';

/**
 * For every case the kit creates a namespace per scenario, a ServiceAccount holding exactly the
 * activity's declared rules (a ClusterRole and its bindings: `escalate` and `bind`, since the
 * rules are the activities', not the kit's), the fixtures the scenarios act on, and reads the
 * cluster's nodes and CRDs.
 */
export const KIT_RIGHTS: readonly Right[] = [
  { verb: 'create', resource: 'namespaces' },
  { verb: 'delete', resource: 'namespaces' },
  { verb: 'list', resource: 'nodes' },
  { verb: 'create', resource: 'serviceaccounts' },
  { verb: 'create', resource: 'serviceaccounts', subresource: 'token' },
  { verb: 'create', resource: 'pods' },
  { verb: 'create', resource: 'deployments', group: 'apps' },
  { verb: 'create', resource: 'clusterroles', group: RBAC },
  { verb: 'delete', resource: 'clusterroles', group: RBAC },
  { verb: 'escalate', resource: 'clusterroles', group: RBAC },
  { verb: 'bind', resource: 'clusterroles', group: RBAC },
  { verb: 'create', resource: 'clusterrolebindings', group: RBAC },
  { verb: 'delete', resource: 'clusterrolebindings', group: RBAC },
  { verb: 'create', resource: 'rolebindings', group: RBAC },
  { verb: 'create', resource: 'subjectaccessreviews', group: 'authorization.k8s.io' },
  { verb: 'get', resource: 'customresourcedefinitions', group: 'apiextensions.k8s.io' },
];

const describeRight = (r: Right) =>
  `${r.verb} ${r.resource}${r.subresource ? `/${r.subresource}` : ''}${r.group ? `.${r.group}` : ''}`;

/** The rights of KIT_RIGHTS this identity lacks (asked all at once), as "verb resource.group". */
export async function missingRights(kc: KubeConfig): Promise<string[]> {
  const authz = kc.makeApiClient(AuthorizationV1Api);
  const answers = await Promise.all(
    KIT_RIGHTS.map(async (r) => {
      const review = await authz.createSelfSubjectAccessReview({
        body: {
          spec: {
            resourceAttributes: {
              verb: r.verb,
              resource: r.resource,
              group: r.group ?? '',
              ...(r.subresource ? { subresource: r.subresource } : {}),
            },
          },
        },
      });
      return review.status?.allowed === true ? undefined : describeRight(r);
    }),
  );
  return answers.filter((a): a is string => a !== undefined);
}

/** What the kit says to an identity that lacks rights: which, why, and how to grant them. */
export function missingRightsMessage(missing: string[]): string {
  return [
    `the kit needs rights this identity does not have on the cluster: ${missing.join(', ')}.`,
    "For every case it creates namespaces of its own, fixtures in them, and a ServiceAccount bound to a ClusterRole made of the activity's declared rules; it removes them all afterwards. cluster-admin holds every right it needs.",
    'Grant them to the identity of --context, e.g.:',
    '  kubectl create clusterrolebinding chaoskit-conformance --clusterrole=cluster-admin --user=USER',
    '  (or --serviceaccount=NAMESPACE:NAME), and delete that binding after the run;',
    'or give --context a context whose identity has them.',
  ].join('\n');
}

/**
 * An error from @kubernetes/client-node said as the cluster's answer ("403 Forbidden: nodes is
 * forbidden: …"), without the response headers its message carries.
 */
export function apiErrorMessage(err: unknown): string | undefined {
  const { code, body } = (err ?? {}) as { code?: unknown; body?: unknown };
  if (typeof code !== 'number' || body === undefined) return undefined;
  let status: { reason?: string; message?: string } = {};
  try {
    status = (typeof body === 'string' ? JSON.parse(body) : body) as typeof status;
  } catch {}
  return `the cluster answered ${code}${status.reason ? ` ${status.reason}` : ''}${status.message ? `: ${status.message}` : ''}`;
}
