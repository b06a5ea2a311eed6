import {
  checkNameSelector,
  defineActivity,
  deleteAll,
  formatNameSelector,
  nameSelectorArg,
  objectName,
  Pods,
  z,
} from '@chaoskit/core';
import { ns } from './args.js';
import { listPodMetadata } from './list-pods.js';
import { ACTIONS } from './modules.js';

export const deletePodsActivity = defineActivity({
  name: 'delete_pods',
  kind: 'action',
  module: ACTIONS,
  doc: 'Deletes every pod matching the selector (by default the pods labelled name=<name>) at once, without a grace period (abrupt termination). Returns the names of the pods deleted.',
  returns: '`{ pods: string[] }`',
  args: {
    name: z
      .string()
      .describe('Value of the `name` label of the pods to delete; replaces {name} in label_selector.'),
    ns,
    label_selector: nameSelectorArg(),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete'] }],
  async run(args, ctx) {
    const selector = formatNameSelector(args.label_selector ?? '', args.name);
    const pods = await listPodMetadata(ctx.kube, args.ns, selector);
    if (pods.length === 0) ctx.log(`no pod matched '${selector}' in namespace ${args.ns}; nothing deleted`);
    // D26: no grace period, as 0.25.1's documentation says.
    const deleted = await deleteAll(ctx.kube, Pods, pods, {
      // By the default selector the pods are named (name=<name>): the experiment's stated
      // target, which the pod share rail does not second-guess (D88).
      named: (args.label_selector ?? '{name}').includes('{name}'),
      query: { gracePeriodSeconds: 0 },
      verb: 'delete pod',
    });
    const names = deleted.map(objectName);
    if (names.length) ctx.log(`deleted ${names.length} pod(s) without a grace period: ${names.join(', ')}`);
    return { pods: names };
  },
});

export const deletePods = deletePodsActivity.fn;
