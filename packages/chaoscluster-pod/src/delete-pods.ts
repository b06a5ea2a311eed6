import {
  bulk,
  checkNameSelector,
  defineActivity,
  dryRunParam,
  formatNameSelector,
  isApiError,
  nameSelectorArg,
  namespaceArg,
  toApiError,
  z,
} from '@chaoskit/core';
import { coreApi, listPods, podName } from './list-pods.js';

export const deletePodsActivity = defineActivity({
  name: 'delete_pods',
  kind: 'action',
  module: 'chaoscluster.pod.actions',
  doc: 'Deletes every pod matching the selector (by default the pods labelled name=<name>) at once, without a grace period (abrupt termination). Returns the names of the pods deleted.',
  args: {
    name: z
      .string()
      .describe('Value of the `name` label of the pods to delete; replaces {name} in label_selector.'),
    ns: namespaceArg('Namespace of the pods.'),
    label_selector: nameSelectorArg(),
  },
  check: checkNameSelector,
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete'] }],
  async run(args, ctx) {
    const { core } = coreApi(ctx.secrets);
    const selector = formatNameSelector(args.label_selector ?? '', args.name);
    const pods = await listPods(core, args.ns, selector);
    if (pods.length === 0) ctx.log(`no pod matched '${selector}' in namespace ${args.ns}; nothing deleted`);
    const deleted = await bulk(
      pods,
      async (pod) => {
        try {
          await core.deleteNamespacedPod({
            name: podName(pod),
            namespace: args.ns,
            gracePeriodSeconds: 0,
            ...dryRunParam(ctx),
          });
        } catch (err) {
          // Already gone is what was asked for.
          if (!isApiError(toApiError(err), 'NotFound'))
            throw toApiError(err, {
              verb: 'delete',
              resource: 'pod',
              name: podName(pod),
              namespace: args.ns,
            });
        }
      },
      { name: podName, verb: 'delete pod' },
    );
    const names = deleted.map(podName);
    if (names.length) ctx.log(`deleted ${names.length} pod(s) without a grace period: ${names.join(', ')}`);
    return { pods: names };
  },
});

export const deletePods = deletePodsActivity.fn;
