import { defineActivity, labelSelectorString, Pods } from '@chaoskit/core';
import { ns, phaseArg } from './args.js';
import { PROBES } from './modules.js';

export const countPodsActivity = defineActivity({
  name: 'count_pods',
  kind: 'probe',
  module: PROBES,
  doc: 'Counts the pods matching the label selector, only those in the given phase when one is given. Returns an integer.',
  returns: 'an integer',
  args: {
    label_selector: labelSelectorString().describe(
      'Label selector of the pods to count ("" counts every pod of the namespace).',
    ),
    phase: phaseArg('Count only the pods in this phase; null: every phase.').nullable().default(null),
    ns,
  },
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  async run(args, ctx): Promise<number> {
    // The server counts: no pod is sent whole (see KubeClient.count).
    const count = await ctx.kube.count(Pods, {
      namespace: args.ns,
      labelSelector: args.label_selector,
      fieldSelector: args.phase ? `status.phase=${args.phase}` : null,
    });
    ctx.log(
      `${count} pod(s)${args.phase ? ` in phase ${args.phase}` : ''} match '${args.label_selector}' in namespace ${args.ns}`,
    );
    return count;
  },
});

export const countPods = countPodsActivity.fn;
