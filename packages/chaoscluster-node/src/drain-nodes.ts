import {
  Aborted,
  ActivityFailed,
  DEFAULT_CONCURRENCY,
  defineActivity,
  isChaosError,
  type KubeClient,
  mapLimit,
  objectName,
  Pods,
  seedArg,
  z,
} from '@chaoskit/core';
import type { V1Pod } from '@kubernetes/client-node';
import { checkHostingPods, hostingPodArgs, nodeNameArg, nodeSelectorArg } from './args.js';
import { needingPatch, patchUnschedulable } from './cordon.js';
import { type NodePlan, planNode, podKey } from './drain-plan.js';
import { evictAll, type Refusal } from './eviction.js';
import { findNodes } from './find-nodes.js';
import { ACTIONS } from './modules.js';
import { waitGone } from './wait-gone.js';

export interface DrainResult {
  /** The nodes drained (cordoned, and every evictable pod gone). */
  nodes: string[];
  /** `namespace/name` of every pod evicted. */
  evicted: string[];
  /** Pods left in place: mirror, DaemonSet, or local storage without the flag. */
  skipped: Array<{ pod: string; node: string; reason: string }>;
  /** Present when count picked the nodes at random. */
  seed?: number;
}

export const drainNodesActivity = defineActivity({
  name: 'drain_nodes',
  kind: 'action',
  module: ACTIONS,
  doc: 'Drains the matching nodes, as kubectl drain --ignore-daemonsets: cordons them, then evicts (Eviction API, so disruption budgets are honoured) every pod but mirror and DaemonSet pods, and pods with local storage (emptyDir) unless delete_pods_with_local_storage; waits with a watch until the evicted pods are gone, then lists the nodes again and drains the pods that landed after the cordon (a scheduler whose view lagged, a pod naming the node), up to 4 rounds. A pod without a controller refuses the drain before anything is evicted (the cordon is undone). An eviction refused by a disruption budget is retried until timeout; at the timeout, an ActivityFailed names the pods left and the budgets that blocked them. Returns the nodes drained, the pods evicted and skipped (and the seed of a random choice). Undo with uncordon_node.',
  returns: "`{ nodes, evicted: ['ns/pod'], skipped: [{ pod, node, reason }], seed? }`",
  args: {
    name: nodeNameArg('Name of the node to drain (combined with label_selector when both are given).'),
    label_selector: nodeSelectorArg(
      'Label selector of the nodes to drain; with neither this nor name, every node.',
    ),
    delete_pods_with_local_storage: z
      .boolean()
      .default(false)
      .describe('Evict pods with local storage (emptyDir volumes) too; otherwise they are left in place.'),
    timeout: z
      .int()
      .min(0)
      .default(120)
      .describe(
        'Seconds the whole drain may take, evictions refused by a disruption budget and the wait for the pods to go included.',
      ),
    count: z
      .int()
      .min(1)
      .nullable()
      .default(null)
      .describe('Drain this many distinct matching nodes picked at random; absent: every matching node.'),
    ...hostingPodArgs(),
    seed: seedArg(
      'Seed of the random choice of count nodes; the seed used is part of the result, to repeat a run.',
    ),
  },
  check: checkHostingPods,
  rbac: [
    { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'patch'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
    { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  ],
  async run(args, ctx): Promise<DrainResult> {
    const started = Date.now();
    const deadline = started + args.timeout * 1000;
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const { kube } = ctx;
    const { nodes, seed } = await findNodes(
      kube,
      {
        name: args.name,
        labelSelector: args.label_selector,
        podLabelSelector: args.pod_label_selector,
        podNamespace: args.pod_namespace,
        all: args.count === null,
        count: args.count,
        seed: args.seed,
      },
      true,
    );
    const names = nodes.map(objectName);

    // 1. Cordon, so that nothing new lands on the nodes while they are drained. An abort from
    // here on leaves the nodes this call cordoned cordoned, as kubectl drain does, and the error
    // says which (D105).
    const cordoned = needingPatch(nodes, true);
    const already = names.filter((n) => !cordoned.includes(n));
    let cordonedHere: readonly string[] = [];
    const whileCordoned = async <T>(step: () => Promise<T>): Promise<T> => {
      try {
        return await step();
      } catch (err) {
        throw stayCordoned(err, cordonedHere, already);
      }
    };
    await whileCordoned(() => patchUnschedulable(kube, cordoned, true, nodes));
    cordonedHere = cordoned;
    ctx.log(
      `cordoned ${cordoned.length ? cordoned.join(', ') : 'no node'}${already.length ? ` (already cordoned: ${already.join(', ')})` : ''}`,
    );

    // 2. What to do with every pod of every node, before anything is evicted.
    const options = { deletePodsWithLocalStorage: args.delete_pods_with_local_storage };
    const seen = new Set<string | undefined>();
    const planAll = () =>
      whileCordoned(() =>
        mapLimit(names, DEFAULT_CONCURRENCY, async (node) => {
          const pods = await kube.list<V1Pod>(Pods, { fieldSelector: `spec.nodeName=${node}` });
          return planNode(
            node,
            pods.filter((pod) => !seen.has(pod.metadata?.uid)),
            options,
          );
        }),
      );
    let plans = await planAll();
    await refuseUnmanaged(kube, cordoned, plans);
    const timedOut = (what: string) =>
      new ActivityFailed(
        `drain_nodes did not finish within ${args.timeout}s: ${what}. The nodes stay cordoned; uncordon_node undoes it.`,
      );
    const allPlans = [...plans];
    const evictedAll: V1Pod[] = [];
    // A scheduler whose view of a node lags (its watch broken by an apiserver restart, say) can
    // still place a pod there after the cordon; once the first pods are gone the nodes are listed
    // again and what landed meanwhile is drained too, so a drained node is empty. Bounded rounds.
    for (let round = 1; ; round++) {
      for (const plan of plans) {
        for (const pod of [...plan.evict, ...plan.wait, ...plan.skipped.map((s) => s.pod)])
          seen.add(pod.metadata?.uid);
      }
      // 3. Evict, retrying what a disruption budget refuses until the deadline.
      const nodeOf = new Map<V1Pod, string>();
      for (const plan of plans) for (const pod of plan.evict) nodeOf.set(pod, plan.node);
      // In plan mode one dry-run attempt says whether each eviction would be allowed now.
      const evicted = await whileCordoned(() =>
        evictAll(kube, [...nodeOf.keys()], ctx.dryRun ? Date.now() : deadline, ctx.log, ctx.signal),
      );
      if ('refusals' in evicted) throw timedOut(refusedEvictions(evicted.refusals, nodeOf));
      evictedAll.push(...evicted.done);
      if (evicted.done.length > 0) {
        ctx.log(`evicted ${evicted.done.length} pod(s) in ${elapsed()}; waiting for them to go`);
      }
      // 4. Wait, with a watch per node, until every evicted or terminating pod is gone (not in
      // plan mode: nothing was really evicted).
      if (ctx.dryRun) break;
      const evictedSet = new Set(evicted.done);
      const leftover = await whileCordoned(() =>
        mapLimit(plans, DEFAULT_CONCURRENCY, (plan) => waitGone(kube, plan, evictedSet, deadline, ctx)),
      );
      const left = leftover.flat();
      if (left.length > 0) throw timedOut(`${left.length} pod(s) left: ${left.join(', ')}`);
      plans = await planAll();
      const landed = plans.flatMap((plan) => [...plan.evict, ...plan.wait, ...plan.refused]);
      if (landed.length === 0) break;
      const unmanaged = plans.flatMap((plan) =>
        plan.refused.map((pod) => `${podKey(pod)} (node ${plan.node})`),
      );
      if (unmanaged.length > 0 || round === MAX_ROUNDS) {
        throw timedOut(
          `${landed.length} pod(s) landed on the cordoned node(s) while they were drained${
            unmanaged.length
              ? `, ${unmanaged.length} of them not managed by a controller: ${unmanaged.join(', ')}`
              : ''
          }`,
        );
      }
      ctx.log(`${landed.length} pod(s) landed on the cordoned node(s) during the drain; draining them too`);
      allPlans.push(...plans);
    }

    const result: DrainResult = {
      nodes: names,
      evicted: evictedAll.map(podKey),
      skipped: allPlans.flatMap((plan) =>
        plan.skipped.map(({ pod, reason }) => ({ pod: podKey(pod), node: plan.node, reason })),
      ),
    };
    ctx.log(
      `drained ${names.length} node(s) in ${elapsed()}: ${names.join(', ')}; ${result.evicted.length} pod(s) evicted, ${result.skipped.length} left in place${seed === undefined ? '' : ` (random choice, seed ${seed})`}`,
    );
    return seed === undefined ? result : { ...result, seed };
  },
});

export const drainNodes = drainNodesActivity.fn;

/**
 * A pod without a controller refuses the whole drain before anything is evicted, and the
 * cluster is left as it was: the nodes this call cordoned are uncordoned.
 */
async function refuseUnmanaged(
  kube: KubeClient,
  cordoned: readonly string[],
  plans: NodePlan[],
): Promise<void> {
  const refused = plans.flatMap((plan) => plan.refused.map((pod) => `${podKey(pod)} on node ${plan.node}`));
  if (refused.length === 0) return;
  const undone = await patchUnschedulable(kube, cordoned, false).then(
    () => 'the nodes it cordoned are uncordoned again',
    (err: unknown) => `undoing the cordon failed (${(err as Error).message}); use uncordon_node`,
  );
  throw new ActivityFailed(
    `cannot drain: ${refused.length} pod(s) are not managed by a controller, which would not re-create them elsewhere: ${refused.join(', ')}. Delete them first (there is no forced drain). Nothing was evicted; ${undone}.`,
  );
}

/** The pods whose eviction stayed refused until the deadline, and by what. */
function refusedEvictions(refusals: Refusal[], nodeOf: Map<V1Pod, string>): string {
  const left = refusals.map((r) => `${podKey(r.pod)} (node ${nodeOf.get(r.pod)})`);
  const budgets = [...new Set(refusals.map((r) => r.budget).filter(Boolean))];
  const reasons = [...new Set(refusals.map((r) => r.message))];
  return `${left.length} pod(s) left, their eviction refused ${
    budgets.length ? `by the disruption budget(s) ${budgets.join(', ')}` : 'by the server'
  }: ${left.join(', ')} (${reasons.join('; ')})`;
}

/** Rounds of list, evict, wait: the first, and those for pods placed after the cordon. */
const MAX_ROUNDS = 4;

/**
 * An abort once the drain has begun: what it had done (the cordon's own report when the abort
 * came while cordoning), and that the nodes it cordoned stay so. Other errors pass unchanged.
 */
function stayCordoned(err: unknown, cordoned: readonly string[], already: readonly string[]): unknown {
  if (!isChaosError(err, 'Aborted')) return err;
  const inner = err as Aborted;
  const progress = 'cordoned' in inner.progress ? inner.progress : { cordoned, ...inner.progress };
  const stay = progress.cordoned ?? [];
  const all = [...stay, ...already];
  const before = already.length > 0 ? `, ${already.join(', ')} already before the drain` : '';
  return new Aborted(inner.cause, {
    progress,
    ...(all.length > 0
      ? { note: `The node(s) ${all.join(', ')} stay cordoned${before}; uncordon_node undoes it` }
      : {}),
  });
}
