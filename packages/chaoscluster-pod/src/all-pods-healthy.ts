import { ActivityFailed, defineActivity, objectName } from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { ns } from './args.js';
import { listPods } from './list-pods.js';
import { PROBES } from './modules.js';

/** How many unhealthy pods an error names before it says "and N more". */
const NAMED = 20;

/** Why a pod makes the system unhealthy, or undefined when it does not. */
export function unhealthy(pod: V1Pod): string | undefined {
  const phase = pod.status?.phase ?? 'Unknown';
  if (phase === 'Failed') return `pod ${objectName(pod)} is Failed`;
  if (phase !== 'Running' && phase !== 'Succeeded')
    return `pod ${objectName(pod)} is ${phase}, not Running or Succeeded`;
  return undefined;
}

export const allPodsHealthyActivity = defineActivity({
  name: 'all_pods_healthy',
  kind: 'probe',
  module: PROBES,
  doc: 'Returns true when no pod of the namespace is Failed and every pod is Running or Succeeded (also when there is none); fails with ActivityFailed ("the system is unhealthy") naming each pod that is not. Container readiness is not looked at.',
  returns: '`true`, or `ActivityFailed` "the system is unhealthy: …" naming the pods',
  args: { ns },
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
  async run(args, ctx): Promise<boolean> {
    const pods = await listPods(ctx.kube, args.ns);
    // Failed pods first, as the original's two lists (failed, then not ready).
    const problems = [
      ...pods.filter((p) => p.status?.phase === 'Failed'),
      ...pods.filter((p) => p.status?.phase !== 'Failed'),
    ]
      .map(unhealthy)
      .filter((p): p is string => p !== undefined);
    if (problems.length > 0) {
      const more = problems.length > NAMED ? `; and ${problems.length - NAMED} more` : '';
      throw new ActivityFailed(
        `the system is unhealthy: ${problems.slice(0, NAMED).join('; ')}${more} (${problems.length} of ${pods.length} pods of namespace '${args.ns}')`,
      );
    }
    ctx.log(`all ${pods.length} pod(s) of namespace ${args.ns} are Running or Succeeded`);
    return true;
  },
});

export const allPodsHealthy = allPodsHealthyActivity.fn;
