import {
  checkPodSelection,
  defineActivity,
  deleteAll,
  objectName,
  Pods,
  podSelectionArgs,
  selectPods,
  z,
} from '@chaoskit/core';
import { listPodMetadata } from './list-pods.js';
import { ACTIONS } from './modules.js';

export const terminatePodsActivity = defineActivity({
  name: 'terminate_pods',
  kind: 'action',
  module: ACTIONS,
  doc: 'Terminates the selected pods gracefully. With neither label_selector nor name_pattern, every pod of the namespace is a candidate. Returns the names of the pods deleted (and the seed of a random choice).',
  returns: '`{ pods: string[], seed? }`: the pods deleted, and the seed of a random choice',
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
    const pods = await listPodMetadata(ctx.kube, args.ns, args.label_selector);
    const { selected, seed } = selectPods(pods, args);
    if (selected.length === 0) ctx.log(`no pod of namespace ${args.ns} matched; nothing terminated`);
    const deleted = await deleteAll(ctx.kube, Pods, selected, {
      ...(args.grace_period >= 0 ? { query: { gracePeriodSeconds: args.grace_period } } : {}),
      verb: 'terminate pod',
      words: { done: 'terminated' },
    });
    const names = deleted.map(objectName);
    ctx.log(
      `terminated ${names.length} pod(s): ${names.join(', ')}${seed === undefined ? '' : ` (random choice, seed ${seed})`}`,
    );
    return seed === undefined ? { pods: names } : { pods: names, seed };
  },
});

export const terminatePods = terminatePodsActivity.fn;
