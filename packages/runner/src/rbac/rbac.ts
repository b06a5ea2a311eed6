// `chaoskit rbac`: the Role (or ClusterRole) an experiment or a list of activities needs, from
// the RBAC rules each activity declares in its definition.

import type { AnyActivity, RbacRule } from '@chaoskit/core';
import { EVENT_RULES, LEDGER_RULES, type Right, rightsOf } from '@chaoskit/core/runner';
import { dump } from 'js-yaml';
import { CLUSTER_HALT_NAMESPACE, HALT_RULES } from '../guards/halt.js';
import { JOB_EVENT_RULES, JOURNAL_RULES } from '../journals/rules.js';

// Resources that live outside namespaces: a rule on them needs a ClusterRole.
const CLUSTER_SCOPED = new Set([
  'nodes',
  'namespaces',
  'persistentvolumes',
  'customresourcedefinitions',
  'clusterroles',
  'clusterrolebindings',
  '*',
]);

/**
 * The rights one call of `activity` needs with these (validated) arguments, as the run's
 * preflight asks them: its rules in the namespace its `ns` names (cluster-wide for cluster-wide
 * resources, and for an activity without `ns`, which acts in every namespace); a wildcard rule
 * narrowed to the resource its `group` and `plural` name (the custom-object activities), and
 * left out when they name none, as nothing narrower can be asked.
 */
export function rightsOfCall(activity: AnyActivity, args: Record<string, unknown>): Right[] {
  const ns = typeof args.ns === 'string' ? args.ns : undefined;
  return rightsOf(activity.rbac).flatMap((right) => {
    let { group, resource } = right;
    if (group === '*' || resource === '*') {
      if (typeof args.group !== 'string' || typeof args.plural !== 'string') return [];
      group = args.group;
      resource = args.plural;
    }
    const where = ns !== undefined && !CLUSTER_SCOPED.has(resource) ? { namespace: ns } : {};
    return [{ ...right, group, resource, ...where }];
  });
}

/** The rules of `activities`, merged: one rule per API group and resource, verbs united. */
export function mergeRules(activities: readonly AnyActivity[]): RbacRule[] {
  return mergeRuleList(activities.flatMap((a) => a.rbac));
}

/** Rules merged: one rule per API group and resource, verbs united. */
export function mergeRuleList(rules: readonly RbacRule[]): RbacRule[] {
  const byTarget = new Map<string, { apiGroup: string; resource: string; verbs: Set<string> }>();
  for (const rule of rules) {
    for (const apiGroup of rule.apiGroups) {
      for (const resource of rule.resources) {
        const key = `${apiGroup}\u0000${resource}`;
        const entry = byTarget.get(key) ?? { apiGroup, resource, verbs: new Set<string>() };
        for (const verb of rule.verbs) entry.verbs.add(verb);
        byTarget.set(key, entry);
      }
    }
  }
  // Resources of one group with the same verbs share a rule, as people write them.
  const grouped = new Map<string, RbacRule>();
  for (const { apiGroup, resource, verbs } of byTarget.values()) {
    const sorted = [...verbs].sort();
    const key = `${apiGroup}\u0000${sorted.join(',')}`;
    const rule = grouped.get(key) ?? { apiGroups: [apiGroup], resources: [], verbs: sorted };
    rule.resources.push(resource);
    grouped.set(key, rule);
  }
  return [...grouped.values()]
    .map((r) => ({ ...r, resources: [...r.resources].sort() }))
    .sort((a, b) =>
      `${a.apiGroups[0]}/${a.resources[0]}`.localeCompare(`${b.apiGroups[0]}/${b.resources[0]}`),
    );
}

/**
 * A Role when every rule is on namespaced resources (bind it in each namespace the activities
 * act in), else a ClusterRole. Returned as the object and as YAML with a comment saying which
 * activities it serves.
 */
export function roleFor(
  activities: readonly AnyActivity[],
  name: string,
  options: { journal?: boolean } = {},
): { role: object; ledger?: object; halt?: object; journal?: object; yaml: string } {
  // A run posts an Event on each object its actions change, where it changes it (D134): a right
  // the run goes on without, so the preflight never asks for it.
  const changes = activities.some((a) => a.kind === 'action');
  const rules = mergeRuleList([...activities.flatMap((a) => a.rbac), ...(changes ? EVENT_RULES : [])]);
  const clusterWide = rules.some((r) => r.resources.some((res) => CLUSTER_SCOPED.has(res)));
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: clusterWide ? 'ClusterRole' : 'Role',
    metadata: { name },
    rules,
  };
  const names = [...new Set(activities.map((a) => a.qualifiedName))].sort();
  const header = [
    `# What ${names.length === 1 ? 'this activity needs' : `these ${names.length} activities need`}, from their definitions:`,
    ...names.map((n) => `#   ${n}`),
    clusterWide
      ? '# A ClusterRole: some rules are on cluster-wide resources. Bind it with a ClusterRoleBinding.'
      : '# A Role: bind it with a RoleBinding in each namespace the experiment acts in.',
    ...(changes
      ? ['# create events: the Event on each object the run changes (kubectl describe shows it; optional).']
      : []),
  ];
  let yaml = `${header.join('\n')}\n${dump(role, { lineWidth: 120 })}`;
  const more = (suffix: string, rules: readonly RbacRule[], note: string[], namespace?: string) => {
    const extra = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: `${name}-${suffix}`, ...(namespace ? { namespace } : {}) },
      rules: rules.map((rule) => ({ ...rule })),
    };
    yaml += `---\n${note.join('\n')}\n${dump(extra, { lineWidth: 120 })}`;
    return extra;
  };
  // Actions record what they change before they change it (chaoskit run without --no-ledger),
  // and a run that changes a cluster watches the halt lever there (D128).
  const ledger = changes
    ? more(
        'ledger',
        [...LEDGER_RULES, ...HALT_RULES],
        [
          "# The run's record of its changes (chaoskit status, chaoskit revert) and the namespace's halt lever",
          '# (chaoskit halt -n): bind this Role in the ledger namespace (--ledger-namespace; default',
          "# $CHAOSKIT_LEDGER_NAMESPACE, else the kubeconfig context's namespace, else default). The Secret",
          '# chaoskit-ledger-key there (the operators key, created by the first run of someone who may create',
          '# Secrets) seals the records of the people and CI identities who hold this Role: they vouch for',
          '# each other, never for a deployed runner, which seals with a key of its own. Each record is only',
          '# ever undone as its writer.',
        ],
      )
    : undefined;
  const halt = changes
    ? more(
        'halt',
        HALT_RULES,
        [
          "# The cluster's halt lever (chaoskit halt), which a run watches wherever it records: bind this",
          `# Role in ${CLUSTER_HALT_NAMESPACE} (chaoskit rbac --halt lets every identity read it instead).`,
        ],
        CLUSTER_HALT_NAMESPACE,
      )
    : undefined;
  const journal = options.journal
    ? more(
        'journal',
        [...JOURNAL_RULES, ...JOB_EVENT_RULES],
        [
          "# The run's journal kept in the cluster (run --journal-to-cluster; chaoskit journals) and the",
          "# Events on its Job: bind this Role in the ledger namespace, which deploy's runs are given.",
        ],
      )
    : undefined;
  return { role, ...(ledger ? { ledger, halt } : {}), ...(journal ? { journal } : {}), yaml };
}
