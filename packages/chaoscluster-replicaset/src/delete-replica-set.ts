import {
  ActivityFailed,
  checkNameSelector,
  checkPodRemoval,
  defineActivity,
  formatNameSelector,
  NAME_SELECTOR_TEMPLATE,
  nameSelectorArg,
  namespaceArg,
  Pods,
  z,
} from '@chaoskit/core';
import type { V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import { ACTIONS } from './modules.js';
import { deleteReplicaSets, listReplicaSets } from './replica-sets.js';

export const deleteReplicaSetActivity = defineActivity({
  name: 'delete_replica_set',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes every apps/v1 replica set of the namespace that label_selector matches (by default those labelled name=<name>), with background propagation: their pods follow (a deployment that owns one makes a new one). Returns the names of the replica sets deleted; fails when none matches.',
  returns: '`{ replica_sets: string[] }`',
  args: {
    name: z
      .string()
      .min(1)
      .describe('Name put in place of {name} in label_selector (by default: the value of the label "name").'),
    ns: namespaceArg('Namespace of the replica sets.'),
    label_selector: nameSelectorArg().describe(
      `Label selector of the replica sets; {name} is replaced by the name argument. The default "${NAME_SELECTOR_TEMPLATE}" matches replica sets labelled name=<name>, not the replica set called <name>.`,
    ),
  },
  check: checkNameSelector,
  rbac: [
    { apiGroups: ['apps'], resources: ['replicasets'], verbs: ['list', 'delete'] },
    // The pod share rail counts the pods that go with them.
    { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
  ],
  async run(args, ctx) {
    const template = args.label_selector ?? NAME_SELECTOR_TEMPLATE;
    const selector = formatNameSelector(template, args.name);
    if (!selector) ctx.log(`label_selector is empty: every replica set of namespace ${args.ns} is deleted`);
    const found = await listReplicaSets(ctx.kube, args.ns, { labelSelector: selector });
    if (found.length === 0) {
      const named = template.includes('{name}')
        ? await listReplicaSets(ctx.kube, args.ns, { fieldSelector: `metadata.name=${args.name}` }).catch(
            () => [],
          )
        : [];
      throw new ActivityFailed(nothingMatched(args, template, selector, named[0]));
    }
    // Their pods go with them: the pod share rail decides before anything is deleted.
    if (ctx.kube.safety) {
      const owners = new Set(found.map((r) => r.metadata?.uid));
      const pods = await ctx.kube.list<V1Pod>(Pods, { namespace: args.ns });
      // By the default selector the replica sets are named (name=<name>): their pods are the
      // experiment's stated target (D88); another selector is a selection like any other.
      await checkPodRemoval(
        ctx.kube,
        pods.filter((p) => p.metadata?.ownerReferences?.some((o) => owners.has(o.uid))),
        { named: template.includes('{name}') },
      );
    }
    return { replica_sets: await deleteReplicaSets(ctx, args.ns, found) };
  },
});

export const deleteReplicaSet = deleteReplicaSetActivity.fn;

/**
 * Why nothing was deleted (D78), in words a user can act on: the default selector matches the
 * label name=<name>, not the replica set's own name.
 */
function nothingMatched(
  args: { name: string; ns: string },
  template: string,
  selector: string,
  named: V1ReplicaSet | undefined,
): string {
  const base = `no replica set of namespace '${args.ns}' matches label selector '${selector}'; nothing was deleted`;
  if (!template.includes('{name}')) return `${base}.`;
  const hint =
    template === NAME_SELECTOR_TEMPLATE
      ? `. The default label_selector "${NAME_SELECTOR_TEMPLATE}" matches replica sets labelled name=${args.name}, not the replica set whose own name is '${args.name}'`
      : `. label_selector "${template}" matches labels, not the replica set's own name`;
  if (!named)
    return `${base}${hint}; there is no replica set called '${args.name}' in namespace '${args.ns}' either.`;
  const labels = Object.entries(named.metadata?.labels ?? {});
  const suggestion = labels.length
    ? `'${labels.map(([k, v]) => `${k}=${v}`).join(',')}'`
    : "'app=<label>' after labelling it";
  return `${base}${hint}; a replica set called '${args.name}' exists but has no such label: give a label_selector that matches its labels (e.g. ${suggestion}).`;
}
