import { defineActivity, labelSelectorString } from '@chaoskit/core';
import { ns, phaseArg } from './args.js';
import { listPods } from './list-pods.js';
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
    // The phase is filtered on the server (pods support the status.phase field selector).
    const pods = await listPods(
      ctx.kube,
      args.ns,
      args.label_selector,
      args.phase ? `status.phase=${args.phase}` : undefined,
    );
    ctx.log(
      `${pods.length} pod(s)${args.phase ? ` in phase ${args.phase}` : ''} match '${args.label_selector}' in namespace ${args.ns}`,
    );
    return pods.length;
  },
});

export const countPods = countPodsActivity.fn;
