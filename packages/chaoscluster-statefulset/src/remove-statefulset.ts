import {
  ActivityFailed,
  checkNameSelector,
  checkPodRemoval,
  defineActivity,
  deleteAll,
  formatNameSelector,
  nameSelectorArg,
  namespaceArg,
  objectName,
  Pods,
  StatefulSets,
  whereLooked,
} from '@chaoskit/core';
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { statefulSetNameArg } from './args.js';
import { ACTIONS } from './modules.js';

export const removeStatefulsetActivity = defineActivity({
  name: 'remove_statefulset',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes the stateful set called name in namespace ns (when label_selector is given, only if it also matches it), with background propagation: its pods follow. Returns the names deleted; fails when there is no such stateful set (D77).',
  returns: '`{ statefulsets: string[] }`',
  args: {
    name: statefulSetNameArg('Name of the stateful set (its own name).'),
    ns: namespaceArg('Namespace of the stateful set.'),
    label_selector: nameSelectorArg(null).describe(
      'Label selector the stateful set must also match; {name} is replaced by the name argument. Default: none.',
    ),
  },
  check: checkNameSelector,
  rbac: [
    { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['list', 'delete'] },
    // The pod share rail counts the pods that go with it.
    { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
  ],
  async run(args, ctx) {
    const labelSelector = args.label_selector ? formatNameSelector(args.label_selector, args.name) : null;
    const found = await ctx.kube.list<V1StatefulSet>(StatefulSets, {
      namespace: args.ns,
      fieldSelector: `metadata.name=${args.name}`,
      labelSelector,
    });
    if (found.length === 0) {
      throw new ActivityFailed(
        `there is no stateful set '${args.name}' in ${whereLooked(args.ns, labelSelector)}; nothing was removed`,
      );
    }
    // Its pods go with it: the pod share rail decides before anything is deleted.
    if (ctx.kube.safety) {
      const owners = new Set(found.map((s) => s.metadata?.uid));
      const pods = await ctx.kube.list<V1Pod>(Pods, { namespace: args.ns });
      // The stateful set is named: its pods are the experiment's stated target (D88).
      await checkPodRemoval(
        ctx.kube,
        pods.filter((p) => p.metadata?.ownerReferences?.some((o) => owners.has(o.uid))),
        { named: true },
      );
    }
    const deleted = await deleteAll(ctx.kube, StatefulSets, found, {
      query: { propagationPolicy: 'Background' },
    });
    const names = deleted.map(objectName);
    ctx.log(`removed stateful set(s) of namespace ${args.ns}: ${names.join(', ')}`);
    return { statefulsets: names };
  },
});

export const removeStatefulset = removeStatefulsetActivity.fn;
