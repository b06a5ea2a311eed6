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
      // The server filters by phase: only the pods that break the rule come whole; the others
      // are counted from a metadata-only list, and the filtered list is read as of that one so
      // that both describe the same moment ("1 of 3 pods …").
      const { items: all, resourceVersion } = await ctx.kube.listWithVersion(Pods, {
        namespace: args.ns,
        labelSelector: args.label_selector,
        metadataOnly: true,
      });
      if (all.length === 0) throw noPodMatched(args.label_selector, args.ns);
      const selection = describeSelection(args.label_selector, args.ns);
      const breaking = await ctx.kube.list<V1Pod>(Pods, {
        namespace: args.ns,
        labelSelector: args.label_selector,
        fieldSelector: `status.phase${wantIn ? '!=' : '='}${args.phase}`,
        ...(resourceVersion ? { resourceVersion } : {}),
      });
      const problems = breaking.map((pod) =>
        wantIn
          ? `pod ${objectName(pod)} is ${phaseOf(pod)}, expected ${args.phase}`
          : `pod ${objectName(pod)} is ${args.phase}, expected not to be ${args.phase}`,
      );
      if (problems.length > 0) {
        throw notAsExpected(problems, all.length, `${selection} are ${wantIn ? 'not ' : ''}${args.phase}`);
      }
      ctx.log(
        wantIn
          ? `${selection}: all ${all.length} ${args.phase}`
          : `${selection}: none of ${all.length} is ${args.phase}`,
      );
      return true;
    },
  });
}
