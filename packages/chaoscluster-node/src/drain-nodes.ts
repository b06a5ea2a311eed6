import { ActivityFailed, defineActivity, isApiError, toApiError, watchUntil, z } from '@chaoskit/core';
import type { CoreV1Api, KubeConfig, V1Pod } from '@kubernetes/client-node';
import { blockingBudget, type NodePlan, planNode } from './drain-plan.js';
import {
  checkHostingPods,
  findNodes,
  hostingPodArgs,
  listPodsOnNode,
  mapLimit,
  needingPatch,
  nodeApi,
  nodeName,
  nodeNameArg,
  nodeSeedArg,
  nodeSelectorArg,
  patchUnschedulable,
  podKey,
} from './nodes.js';

/** Requests at once: evictions, and nodes listed or watched. */
const CONCURRENCY = 10;
/** Retries of an eviction a disruption budget refused: from 1 s, doubling, at most 5 s apart. */
const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 5000;

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

interface Refusal {
  pod: V1Pod;
  budget?: string;
  message: string;
}

interface StatusBody {
  details?: { causes?: Array<{ message?: unknown }> };
}

type Outcome = { pod: V1Pod; evicted: true } | { pod: V1Pod; gone: true } | ({ refused: true } & Refusal);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(new ActivityFailed('the drain was cancelled'));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });

async function evictOnce(core: CoreV1Api, pod: V1Pod, dryRun: boolean): Promise<Outcome> {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  try {
    await core.createNamespacedPodEviction({
      name,
      namespace,
      body: {
        apiVersion: 'policy/v1',
        kind: 'Eviction',
        metadata: { name, namespace },
        ...(dryRun ? { deleteOptions: { dryRun: ['All'] } } : {}),
      },
      ...(dryRun ? { dryRun: 'All' } : {}),
    });
    return { pod, evicted: true };
  } catch (err) {
    const apiError = toApiError(err, { verb: 'evict', resource: 'pod', name, namespace });
    if (isApiError(apiError, 'NotFound')) return { pod, gone: true };
    // 429: a disruption budget (or the server's rate limits) said no for now. 409: the budget
    // changed under concurrent evictions more often than the server retries; try again too.
    if (isApiError(apiError) && (apiError.status === 429 || apiError.status === 409)) {
      const budget = blockingBudget(apiError.body);
      // The budget's own words ("needs 3 healthy pods and has 3 currently") say the most.
      const causes = ((apiError.body as StatusBody | undefined)?.details?.causes ?? [])
        .map((cause) => cause.message)
        .filter((message): message is string => typeof message === 'string' && message !== '');
      return {
        refused: true,
        pod,
        ...(budget ? { budget: `${namespace}/${budget}` } : {}),
        message: causes.length > 0 ? causes.join('; ') : apiError.serverMessage,
      };
    }
    throw apiError;
  }
}

export const drainNodesActivity = defineActivity({
  name: 'drain_nodes',
  kind: 'action',
  module: 'chaoscluster.node.actions',
  doc: 'Drains the matching nodes, as kubectl drain --ignore-daemonsets: cordons them, then evicts (Eviction API, so disruption budgets are honoured) every pod but mirror and DaemonSet pods, and pods with local storage (emptyDir) unless delete_pods_with_local_storage; waits with a watch until the evicted pods are gone. A pod without a controller refuses the drain before anything is evicted (the cordon is undone). An eviction refused by a disruption budget is retried until timeout; at the timeout, an ActivityFailed names the pods left and the budgets that blocked them. Returns the nodes drained, the pods evicted and skipped (and the seed of a random choice). Undo with uncordon_node.',
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
    seed: nodeSeedArg(
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
    const { kc, core } = nodeApi(ctx.secrets);
    const { nodes, seed } = await findNodes(core, {
      name: args.name,
      labelSelector: args.label_selector,
      podLabelSelector: args.pod_label_selector,
      podNamespace: args.pod_namespace,
      all: args.count === null,
      count: args.count,
      seed: args.seed,
    });
    const names = nodes.map(nodeName);

    // 1. Cordon, so that nothing new lands on the nodes while they are drained.
    const cordoned = needingPatch(nodes, true);
    await patchUnschedulable(core, cordoned, true, ctx.dryRun);
    const already = names.filter((n) => !cordoned.includes(n));
    ctx.log(
      `cordoned ${cordoned.length ? cordoned.join(', ') : 'no node'}${already.length ? ` (already cordoned: ${already.join(', ')})` : ''}`,
    );

    // 2. What to do with every pod of every node, before anything is evicted.
    const options = { deletePodsWithLocalStorage: args.delete_pods_with_local_storage };
    const plans = await mapLimit(names, CONCURRENCY, async (node) =>
      planNode(node, await listPodsOnNode(core, node), options),
    );
    const refused = plans.flatMap((plan) => plan.refused.map((pod) => `${podKey(pod)} on node ${plan.node}`));
    if (refused.length > 0) {
      // Leave the cluster as it was: the nodes this call cordoned are uncordoned.
      const undone = await patchUnschedulable(core, cordoned, false, ctx.dryRun).then(
        () => 'the nodes it cordoned are uncordoned again',
        (err: unknown) => `undoing the cordon failed (${(err as Error).message}); use uncordon_node`,
      );
      throw new ActivityFailed(
        `cannot drain: ${refused.length} pod(s) are not managed by a controller, which would not re-create them elsewhere: ${refused.join(', ')}. Delete them first (there is no forced drain). Nothing was evicted; ${undone}.`,
      );
    }

    // 3. Evict, retrying what a disruption budget refuses until the deadline.
    const nodeOf = new Map<V1Pod, string>();
    for (const plan of plans) for (const pod of plan.evict) nodeOf.set(pod, plan.node);
    // In plan mode one dry-run attempt says whether each eviction would be allowed now.
    const evicted = await evictAll(
      core,
      [...nodeOf.keys()],
      ctx.dryRun ? Date.now() : deadline,
      ctx.log,
      ctx.signal,
      !!ctx.dryRun,
    );
    const timedOut = (what: string) =>
      new ActivityFailed(
        `drain_nodes did not finish within ${args.timeout}s: ${what}. The nodes stay cordoned; uncordon_node undoes it.`,
      );
    if ('refusals' in evicted) {
      const left = evicted.refusals.map((r) => `${podKey(r.pod)} (node ${nodeOf.get(r.pod)})`);
      const budgets = [...new Set(evicted.refusals.map((r) => r.budget).filter(Boolean))];
      const reasons = [...new Set(evicted.refusals.map((r) => r.message))];
      throw timedOut(
        `${left.length} pod(s) left, their eviction refused ${
          budgets.length ? `by the disruption budget(s) ${budgets.join(', ')}` : 'by the server'
        }: ${left.join(', ')} (${reasons.join('; ')})`,
      );
    }
    if (evicted.done.length > 0) {
      ctx.log(`evicted ${evicted.done.length} pod(s) in ${elapsed()}; waiting for them to go`);
    }

    // 4. Wait, with a watch per node, until every evicted or terminating pod is gone (not in
    // plan mode: nothing was really evicted).
    const evictedSet = new Set(evicted.done);
    const leftover = ctx.dryRun
      ? []
      : await mapLimit(plans, CONCURRENCY, (plan) => waitGone(kc, core, plan, evictedSet, deadline, ctx));
    const left = leftover.flat();
    if (left.length > 0) throw timedOut(`${left.length} pod(s) left: ${left.join(', ')}`);

    const result: DrainResult = {
      nodes: names,
      evicted: evicted.done.map(podKey),
      skipped: plans.flatMap((plan) =>
        plan.skipped.map(({ pod, reason }) => ({ pod: podKey(pod), node: plan.node, reason })),
      ),
    };
    ctx.log(
      `drained ${names.length} node(s) in ${elapsed()}: ${names.join(', ')}; ${result.evicted.length} pod(s) evicted, ${result.skipped.length} left in place${seed === undefined ? '' : ` (random choice, seed ${seed})`}`,
    );
    return seed === undefined ? result : { ...result, seed };
  },
});

/**
 * Evicts every pod, CONCURRENCY at once. Refusals (429: a disruption budget, or the server's
 * rate limits) are retried, all together, with a growing pause, until the deadline; then the
 * refusals left are returned. Any other error fails the drain at once.
 */
async function evictAll(
  core: CoreV1Api,
  pods: V1Pod[],
  deadline: number,
  log: (message: string) => void,
  signal?: AbortSignal,
  dryRun = false,
): Promise<{ done: V1Pod[] } | { refusals: Refusal[] }> {
  const done: V1Pod[] = [];
  let pending = pods;
  let pause = FIRST_RETRY_MS;
  let reported = false;
  for (;;) {
    const failures: string[] = [];
    const outcomes = await mapLimit(pending, CONCURRENCY, (pod) =>
      evictOnce(core, pod, dryRun).catch((err: unknown) => {
        failures.push(`${podKey(pod)}: ${(err as Error).message}`);
        return undefined;
      }),
    );
    const refusals: Refusal[] = [];
    for (const outcome of outcomes) {
      if (!outcome) continue;
      if ('refused' in outcome) refusals.push(outcome);
      else done.push(outcome.pod);
    }
    if (failures.length > 0) {
      throw new ActivityFailed(
        `could not evict ${failures.length} pod(s): ${failures.join('; ')}. ${done.length} pod(s) were evicted; the nodes stay cordoned (uncordon_node undoes it).`,
      );
    }
    if (refusals.length === 0) return { done };
    const left = deadline - Date.now();
    if (left <= 0) return { refusals };
    if (!reported) {
      const budgets = [...new Set(refusals.map((r) => r.budget ?? 'the server'))];
      log(
        `eviction of ${refusals.length} pod(s) refused by ${budgets.join(', ')}; retrying until the timeout`,
      );
      reported = true;
    }
    await sleep(Math.min(pause, left), signal);
    pause = Math.min(pause * 2, MAX_RETRY_MS);
    pending = refusals.map((r) => r.pod);
  }
}

/**
 * Watches the pods of one node until none of the evicted or terminating ones is left (a pod
 * re-created under the same name has another uid and does not count). Returns what is left at
 * the deadline, as `namespace/name (node …)`.
 */
async function waitGone(
  kc: KubeConfig,
  core: CoreV1Api,
  plan: NodePlan,
  evicted: ReadonlySet<V1Pod>,
  deadline: number,
  ctx: { log: (message: string) => void; signal?: AbortSignal },
): Promise<string[]> {
  const targets = [...plan.evict.filter((pod) => evicted.has(pod)), ...plan.wait];
  if (targets.length === 0) return [];
  const uids = new Set(targets.map((pod) => pod.metadata?.uid));
  const remaining = (items: V1Pod[]) =>
    items.filter((pod) => uids.has(pod.metadata?.uid)).map((pod) => `${podKey(pod)} (node ${plan.node})`);
  const fieldSelector = `spec.nodeName=${plan.node}`;
  const list = () => core.listPodForAllNamespaces({ fieldSelector });
  const timeoutMs = deadline - Date.now();
  if (timeoutMs <= 0) return remaining((await list()).items);
  let last: string[] = targets.map((pod) => `${podKey(pod)} (node ${plan.node})`);
  const timeUp = new ActivityFailed('time is up');
  try {
    await watchUntil<V1Pod, true>({
      kubeConfig: kc,
      path: '/api/v1/pods',
      fieldSelector,
      list,
      until: (items) => {
        last = remaining(items);
        return last.length === 0 ? true : undefined;
      },
      timeoutMs,
      onTimeout: () => timeUp,
      progress: (ms) =>
        ctx.log(`node ${plan.node}: ${last.length} pod(s) still going after ${Math.round(ms / 1000)} s`),
      progressEveryMs: 10_000,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    return [];
  } catch (err) {
    if (err === timeUp) return last;
    throw err;
  }
}

export const drainNodes = drainNodesActivity.fn;
