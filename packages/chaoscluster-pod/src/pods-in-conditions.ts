import { defineActivity, objectName, z } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { ns, podsLabelSelector } from './args.js';
import { listPods } from './list-pods.js';
import { PROBES } from './modules.js';
import { describeSelection, noPodMatched, notAsExpected } from './probe-failures.js';

const condition = z.strictObject({
  type: z.string().min(1),
  status: z.enum(['True', 'False', 'Unknown']),
});
type Condition = z.output<typeof condition>;

/** What is wrong with one pod, or undefined when it has every wanted condition. */
function mismatch(pod: V1Pod, wanted: readonly Condition[]): string | undefined {
  // A pod without conditions yet (not scheduled) has none: an empty list (D15).
  const actual = pod.status?.conditions ?? [];
  const wrong: string[] = [];
  for (const want of wanted) {
    const found = actual.find((c) => c.type === want.type);
    if (!found) wrong.push(`has no condition ${want.type}, expected ${want.type}=${want.status}`);
    else if (found.status !== want.status)
      wrong.push(`has ${want.type}=${found.status}, expected ${want.type}=${want.status}`);
  }
  return wrong.length ? `pod ${objectName(pod)} ${wrong.join(' and ')}` : undefined;
}

export const podsInConditionsActivity = defineActivity({
  name: 'pods_in_conditions',
  kind: 'probe',
  module: PROBES,
  doc: 'Returns true when every pod matching the label selector has every given condition with the given status; raises ActivityFailed naming each pod and condition that is not as expected (or saying that no pod matched).',
  returns: '`true`, or `ActivityFailed` naming each pod and what was expected',
  args: {
    label_selector: podsLabelSelector,
    conditions: z
      .array(condition)
      .min(1)
      .describe(
        'The conditions every pod must have, e.g. [{"type": "Ready", "status": "True"}]; status is "True", "False" or "Unknown".',
      ),
    ns,
  },
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  async run(args, ctx): Promise<boolean> {
    const pods = await listPods(ctx.kube, args.ns, args.label_selector);
    if (pods.length === 0) throw noPodMatched(args.label_selector, args.ns);
    const problems = pods.map((pod) => mismatch(pod, args.conditions)).filter((p) => p !== undefined);
    const wanted = args.conditions.map((c) => `${c.type}=${c.status}`).join(', ');
    if (problems.length > 0)
      throw notAsExpected(
        problems,
        pods.length,
        `${describeSelection(args.label_selector, args.ns)} do not have ${wanted}`,
      );
    ctx.log(`${describeSelection(args.label_selector, args.ns)}: all ${pods.length} have ${wanted}`);
    return true;
  },
});

export const podsInConditions = podsInConditionsActivity.fn;
