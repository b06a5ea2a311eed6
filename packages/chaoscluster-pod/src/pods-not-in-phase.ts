import { defineActivity, labelSelectorString, namespaceArg } from '@chaoskit/core';
import { coreApi, listPods, podName } from './list-pods.js';
import { describeSelection, noPodMatched, notAsExpected, phaseArg } from './pod-state.js';

export const podsNotInPhaseActivity = defineActivity({
  name: 'pods_not_in_phase',
  kind: 'probe',
  module: 'chaoscluster.pod.probes',
  doc: 'Returns true when no pod matching the label selector is in the given phase; raises ActivityFailed naming each pod that is (or saying that no pod matched).',
  args: {
    label_selector: labelSelectorString().describe(
      'Label selector of the pods ("" means every pod of the namespace).',
    ),
    phase: phaseArg('The phase no pod may be in.').default('Running'),
    ns: namespaceArg('Namespace of the pods.'),
  },
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  async run(args, ctx): Promise<boolean> {
    const { core } = coreApi(ctx.secrets);
    const pods = await listPods(core, args.ns, args.label_selector);
    if (pods.length === 0) throw noPodMatched(args.label_selector, args.ns);
    const problems = pods
      .filter((pod) => pod.status?.phase === args.phase)
      .map((pod) => `pod ${podName(pod)} is ${args.phase}, expected not to be ${args.phase}`);
    if (problems.length > 0)
      throw notAsExpected(
        problems,
        pods.length,
        `${describeSelection(args.label_selector, args.ns)} are ${args.phase}`,
      );
    ctx.log(`${describeSelection(args.label_selector, args.ns)}: none of ${pods.length} is ${args.phase}`);
    return true;
  },
});

export const podsNotInPhase = podsNotInPhaseActivity.fn;
