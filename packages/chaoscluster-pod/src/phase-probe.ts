import { defineActivity, objectName, Pods } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { ns, phaseArg, podsLabelSelector } from './args.js';
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
      // The server filters by phase: only the pods that break the rule come whole (usually
      // none); the others are only counted, as of that list or later.
      const { items: breaking, resourceVersion } = await ctx.kube.listWithVersion<V1Pod>(Pods, {
        namespace: args.ns,
        labelSelector: args.label_selector,
        fieldSelector: `status.phase${wantIn ? '!=' : '='}${args.phase}`,
      });
      const total = await ctx.kube.count(Pods, {
        namespace: args.ns,
        labelSelector: args.label_selector,
        ...(resourceVersion ? { resourceVersion } : {}),
      });
      if (total === 0 && breaking.length === 0) throw noPodMatched(args.label_selector, args.ns);
      const selection = describeSelection(args.label_selector, args.ns);
      const problems = breaking.map((pod) =>
        wantIn
          ? `pod ${objectName(pod)} is ${phaseOf(pod)}, expected ${args.phase}`
          : `pod ${objectName(pod)} is ${args.phase}, expected not to be ${args.phase}`,
      );
      if (problems.length > 0) {
        throw notAsExpected(
          problems,
          Math.max(total, breaking.length),
          `${selection} are ${wantIn ? 'not ' : ''}${args.phase}`,
        );
      }
      ctx.log(
        wantIn
          ? `${selection}: all ${total} ${args.phase}`
          : `${selection}: none of ${total} is ${args.phase}`,
      );
      return true;
    },
  });
}
