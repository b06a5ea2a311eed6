import assert from 'node:assert/strict';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { CASE_LABEL, type CaseContext, ScenarioSkipped } from '../../case-context.js';

// Node cases must never touch the shared cluster's own nodes (other tests run on them at the
// same time): every scenario works on kwok nodes of its own and always passes a selector or a
// name that matches only those. They carry the case label and the case's NoSchedule taint, so
// only pods placed with t.onNode(node) land there, and are named and labelled per scenario.

export const SCENARIO_LABEL = 'chaoskit.io/scenario';

/** The label selector matching the current scenario's nodes, and only them. */
export const scenarioSelector = (t: CaseContext): string => `${SCENARIO_LABEL}=${t.ns}`;

/**
 * `count` Ready kwok nodes of the current scenario, named `<scenario ns>-<tag><i>`, labelled
 * with the case and scenario labels (plus `labels`), deleted when the case ends.
 */
export function scenarioNodes(
  t: CaseContext,
  count: number,
  labels: Record<string, string> = {},
  tag = 'n',
): Promise<string[]> {
  return nodesNamed(
    t,
    Array.from({ length: count }, (_, i) => `${t.ns}-${tag}${i}`),
    labels,
  );
}

/** The same, with the names given (to re-create nodes a scenario deleted). */
export async function nodesNamed(
  t: CaseContext,
  names: string[],
  labels: Record<string, string> = {},
): Promise<string[]> {
  if (!t.cluster.fakeNodes)
    throw new ScenarioSkipped('needs kwok managing nodes in this cluster, to create nodes of its own');
  for (const name of names) {
    const body: V1Node = {
      metadata: {
        name,
        labels: {
          ...t.labels,
          [SCENARIO_LABEL]: t.ns,
          'kubernetes.io/hostname': name,
          type: 'kwok',
          ...labels,
        },
        annotations: { 'kwok.x-k8s.io/node': 'fake' },
      },
      spec: { taints: [{ key: CASE_LABEL, value: t.id, effect: 'NoSchedule' }] },
    };
    await t.core.createNode({ body });
    t.onCleanup(() => t.core.deleteNode({ name }));
  }
  await t.until(`${names.length} scenario node(s) Ready`, async () => {
    const nodes = await t.core.listNode({ labelSelector: scenarioSelector(t) });
    const ready = nodes.items.filter(
      (n) =>
        names.includes(n.metadata!.name!) &&
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    );
    return ready.length === names.length;
  });
  return names;
}

/** Names of the scenario's nodes that still exist, sorted. */
export async function existingNodes(t: CaseContext): Promise<string[]> {
  const nodes = await t.core.listNode({ labelSelector: scenarioSelector(t) });
  return nodes.items.map((n) => n.metadata!.name!).sort();
}

export async function isCordoned(t: CaseContext, node: string): Promise<boolean> {
  return (await t.core.readNode({ name: node })).spec?.unschedulable === true;
}

/** The pods bound to a node (every namespace); terminating ones included. */
export async function podsOn(t: CaseContext, node: string): Promise<V1Pod[]> {
  return (await t.core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` })).items;
}

/** Pod spec fields that keep a controller's pods on one node: a nodeSelector and the toleration. */
export function pinnedTo(t: CaseContext, node: string): Partial<V1Pod['spec']> {
  return { nodeSelector: { 'kubernetes.io/hostname': node }, tolerations: t.onNode(node)?.tolerations ?? [] };
}

/** Calls the activity and returns the error it failed with (asserting that it did fail). */
export async function failure(t: CaseContext, args: Record<string, unknown>): Promise<Error> {
  const err = await t.call(args).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof Error, `expected ${t.activity.name}(${JSON.stringify(args)}) to fail`);
  return err;
}

/** Seconds since `started`, for the timing lines the cases log. */
export const secondsSince = (started: number): string => `${((Date.now() - started) / 1000).toFixed(2)} s`;
