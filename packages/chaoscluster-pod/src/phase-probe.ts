import { defineActivity, objectName } from '@chaoskit/core';
import { ns, phaseArg, podsLabelSelector } from './args.js';
import { listPods } from './list-pods.js';
import { PROBES } from './modules.js';
import { describeSelection, noPodMatched, notAsExpected, phaseOf } from './probe-failures.js';

/** pods_in_phase and pods_not_in_phase: one mechanism, every pod in (or none in) `phase`. */
export function phaseProbe<const Name extends 'pods_in_phase' | 'pods_not_in_phase'>(
  name: Name,
  doc: string,
) {
  const wantIn = name === 'pods_in_phase';
  return defineActivity({
    name,
    kind: 'probe',
    module: PROBES,
    doc,
    returns: '`true`, or `ActivityFailed` naming each pod and what was expected',
    args: {
      label_selector: podsLabelSelector,
      phase: phaseArg(wantIn ? 'The phase every pod must be in.' : 'The phase no pod may be in.').default(
        'Running',
      ),
      ns,
    },
    rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
    async run(args, ctx): Promise<boolean> {
      // Every matching pod is listed, not only those a status.phase field selector would keep:
      // the verdict names how many pods matched in all ("1 of 3 pods …"), and a second list
      // would cost a request and could disagree with the first.
      const pods = await listPods(ctx.kube, args.ns, args.label_selector);
      if (pods.length === 0) throw noPodMatched(args.label_selector, args.ns);
      const selection = describeSelection(args.label_selector, args.ns);
      const problems = pods
        .filter((pod) => (pod.status?.phase === args.phase) !== wantIn)
        .map((pod) =>
          wantIn
            ? `pod ${objectName(pod)} is ${phaseOf(pod)}, expected ${args.phase}`
            : `pod ${objectName(pod)} is ${args.phase}, expected not to be ${args.phase}`,
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
