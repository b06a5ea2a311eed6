import {
  bulk,
  checkPodSelection,
  defineActivity,
  dryRunParam,
  isApiError,
  podSelectionArgs,
  selectPods,
  toApiError,
  z,
} from '@chaoskit/core';
import { coreApi, listPods, podName } from './list-pods.js';

const QUALIFIED = 'chaoscluster.pod.actions.terminate_pods';

export const terminatePodsActivity = defineActivity({
  name: 'terminate_pods',
  kind: 'action',
  module: 'chaoscluster.pod.actions',
  doc: 'Terminates the selected pods gracefully. With neither label_selector nor name_pattern, every pod of the namespace is a candidate. Returns the names of the pods deleted (and the seed of a random choice).',
  args: {
    ...podSelectionArgs(),
    grace_period: z
      .int()
      .default(-1)
      .describe("Grace period in seconds when 0 or more (0: at once); negative: the pod's own."),
  },
  check: checkPodSelection,
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete'] }],
  async run(args, ctx) {
    const { core } = coreApi(ctx.secrets);
    const pods = await listPods(core, args.ns, args.label_selector);
    const { selected, seed } = selectPods(pods, {
      ...args,
      seed: args.seed ?? undefined,
      activity: QUALIFIED,
    });
    if (selected.length === 0) ctx.log(`no pod of namespace ${args.ns} matched; nothing terminated`);
    const deleted = await bulk(
      selected,
      async (pod) => {
        try {
          await core.deleteNamespacedPod({
            name: podName(pod),
            namespace: args.ns,
            ...dryRunParam(ctx),
            ...(args.grace_period >= 0 ? { gracePeriodSeconds: args.grace_period } : {}),
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
      { name: podName, verb: 'terminate pod' },
    );
    const names = deleted.map(podName);
    ctx.log(
      `terminated ${names.length} pod(s): ${names.join(', ')}${seed === undefined ? '' : ` (random choice, seed ${seed})`}`,
    );
    return seed === undefined ? { pods: names } : { pods: names, seed };
  },
});

export const terminatePods = terminatePodsActivity.fn;
