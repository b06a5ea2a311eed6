// What `revert` will not do on a record's say-so alone (D86): touch a kind that carries privilege
// without the operator naming that kind, or replay a change the recorded activity could not have
// made. A record that passes its seal is still checked against both.

import type { RbacRule } from '../transport/access.js';
import type { ObjectRef, TouchedObject } from './entries.js';

const groupOf = (ref: ObjectRef) => (ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0]! : '');

/** `plural.group` (or `plural` for the core group): how --allow-kind names a kind. */
export const kindName = (ref: ObjectRef) => (groupOf(ref) ? `${ref.plural}.${groupOf(ref)}` : ref.plural);

/** Kinds whose objects grant or redirect access: a revert changes them only when allowed by name. */
const PRIVILEGED_GROUPS = new Set([
  'rbac.authorization.k8s.io',
  'admissionregistration.k8s.io',
  'apiregistration.k8s.io',
  'certificates.k8s.io',
]);
const PRIVILEGED_KINDS = new Set([
  'customresourcedefinitions.apiextensions.k8s.io',
  'namespaces',
  // Service accounts' tokens and every other credential.
  'secrets',
  'serviceaccounts',
]);

/** Whether the kind of `ref` carries privilege; its name when it does. */
export function privilegedKind(ref: ObjectRef): string | undefined {
  const kind = kindName(ref);
  return PRIVILEGED_GROUPS.has(groupOf(ref)) || PRIVILEGED_KINDS.has(kind) ? kind : undefined;
}

/** Kubernetes' own API groups: the core group, the dotless ones (apps, batch…) and *.k8s.io. */
export const isBuiltInGroup = (group: string) =>
  group === '' || !group.includes('.') || group.endsWith('.k8s.io');

/** What a recorded change needs the activity to have been allowed: the verbs, any of them. */
function verbsFor(entry: TouchedObject): string[] {
  if (entry.created) return ['create'];
  if (entry.deleted) return ['delete', 'deletecollection'];
  return ['patch', 'update'];
}

function allows(rule: RbacRule, group: string, plural: string, verbs: string[]): boolean {
  const anyGroup = rule.apiGroups.includes('*');
  // A rule on every group is how custom-object activities say "any custom resource": never one
  // of Kubernetes' own kinds.
  const groupOk = rule.apiGroups.includes(group) || (anyGroup && !isBuiltInGroup(group));
  const resourceOk = rule.resources.includes(plural) || rule.resources.includes('*');
  const verbOk = rule.verbs.includes('*') || verbs.some((v) => rule.verbs.includes(v));
  return groupOk && resourceOk && verbOk;
}

/**
 * Why the entry is not something its activities could have done, by their declared RBAC rules;
 * undefined when one of them could. `rulesOf` gives an installed activity's rules.
 */
export function inconsistency(
  entry: TouchedObject,
  rulesOf: (activity: string) => readonly RbacRule[] | undefined,
): string | undefined {
  const verbs = verbsFor(entry);
  const group = groupOf(entry.ref);
  const unknown: string[] = [];
  for (const activity of entry.activities) {
    const rules = rulesOf(activity);
    if (!rules) {
      unknown.push(activity);
      continue;
    }
    if (rules.some((rule) => allows(rule, group, entry.ref.plural, verbs))) return undefined;
  }
  const did = `${verbs[0]} ${kindName(entry.ref)}`;
  if (unknown.length === entry.activities.length && unknown.length > 0)
    return `the record says ${unknown.join(', ')} did ${did}, and no installed package declares ${unknown.length === 1 ? 'that activity' : 'those activities'}: install it to check the record`;
  return `the record says ${entry.activities.join(', ') || 'no activity'} did ${did}, which ${entry.activities.length === 1 ? 'that activity cannot do' : 'none of them can do'}`;
}

/**
 * What a revert needs to undo what `rules` let activities change: to read each object, and the
 * inverse of each write — patch back a patch or an update, delete what was created, create again
 * what was deleted (D122). Left out: kinds that carry privilege (a revert without --allow-kind
 * refuses them), pods (removed pods are not reverted, their controllers replace them),
 * subresources, and rules on every resource or group (custom objects: no narrower right to give).
 */
export function undoRules(rules: readonly RbacRule[]): RbacRule[] {
  const out: RbacRule[] = [];
  for (const rule of rules) {
    const verbs = new Set<string>();
    const has = (...vs: string[]) => vs.some((v) => rule.verbs.includes(v));
    if (has('patch', 'update')) verbs.add('patch');
    if (has('create')) verbs.add('delete');
    if (has('delete', 'deletecollection')) verbs.add('create');
    if (verbs.size === 0 || rule.apiGroups.includes('*')) continue;
    for (const group of rule.apiGroups) {
      const resources = rule.resources.filter((plural) => {
        if (plural === '*' || plural === 'pods' || plural.includes('/')) return false;
        const apiVersion = group ? `${group}/v1` : 'v1';
        return !privilegedKind({ apiVersion, plural, namespaced: true, noun: plural, name: '' });
      });
      if (resources.length) out.push({ apiGroups: [group], resources, verbs: ['get', ...verbs].sort() });
    }
  }
  return out;
}
