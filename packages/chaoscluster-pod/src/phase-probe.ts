import { defineActivity, labelSelectorString, namespaceArg } from '@chaoskit/core';
import { coreApi, listPods, podName } from './list-pods.js';
import { describeSelection, noPodMatched, notAsExpected, phaseArg, phaseOf } from './pod-state.js';

/** pods_in_phase and pods_not_in_phase: one mechanism, every pod in (or none in) `phase`. */
export function phaseProbe<const Name extends 'pods_in_phase' | 'pods_not_in_phase'>(
  name: Name,
  doc: string,
) {
  const wantIn = name === 'pods_in_phase';
  return defineActivity({
    name,
    kind: 'probe',
    module: 'chaoscluster.pod.probes',
    doc,
    args: {
      label_selector: labelSelectorString().describe(
        'Label selector of the pods ("" means every pod of the namespace).',
      ),
      phase: phaseArg(wantIn ? 'The phase every pod must be in.' : 'The phase no pod may be in.').default(
        'Running',
      ),
      ns: namespaceArg('Namespace of the pods.'),
    },
    rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
    async run(args, ctx): Promise<boolean> {
      const { core } = coreApi(ctx.secrets);
      const pods = await listPods(core, args.ns, args.label_selector);
      if (pods.length === 0) throw noPodMatched(args.label_selector, args.ns);
      const selection = describeSelection(args.label_selector, args.ns);
      const problems = pods
        .filter((pod) => (pod.status?.phase === args.phase) !== wantIn)
        .map((pod) =>
          wantIn
            ? `pod ${podName(pod)} is ${phaseOf(pod)}, expected ${args.phase}`
            : `pod ${podName(pod)} is ${args.phase}, expected not to be ${args.phase}`,
        );
      if (problems.length > 0) {
        throw notAsExpected(problems, pods.length, `${selection} are ${wantIn ? 'not ' : ''}${args.phase}`);
      }
      ctx.log(
        wantIn
          ? `${selection}: all ${pods.length} ${args.phase}`
          : `${selection}: none of ${pods.length} is ${args.phase}`,
      );
      return true;
    },
  });
}
