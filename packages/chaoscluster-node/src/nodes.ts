// What the node activities share: the API client, node and pod lists filtered on the server,
// the node selection of 0.25.1 (with D1, D3 and D29 of docs/decisions.md), cordoning, and turning
// client-node's model objects back into the JSON the API sent.

import {
  ActivityFailed,
  bulk,
  createClusterClient,
  isApiError,
  labelSelectorString,
  listAll,
  MAX_SEED,
  namespaceArg,
  selectNodes,
  toApiError,
  z,
} from '@chaoskit/core';
import {
  CoreV1Api,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';

export function nodeApi(secrets: Record<string, unknown>): { kc: KubeConfig; core: CoreV1Api } {
  const kc = createClusterClient(secrets).kubeConfig;
  return { kc, core: kc.makeApiClient(CoreV1Api) };
}

export const nodeName = (node: V1Node): string => node.metadata?.name ?? '';
export const podKey = (pod: V1Pod): string => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

// ---------------------------------------------------------------------------------------------
// Argument schemas shared by the node activities
// ---------------------------------------------------------------------------------------------

// RFC 1123 subdomain, as Kubernetes requires of node names.
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `name`: one node's name. */
export function nodeNameArg(doc: string) {
  return z
    .string()
    .superRefine((value, ctx) => {
      if (value.length > 253 || !DNS_SUBDOMAIN.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'a node name: lower-case letters, digits, "-" and ".", at most 253, starting and ending alphanumeric',
        });
      }
    })
    .nullable()
    .default(null)
    .describe(doc);
}

/** `label_selector` of the nodes. */
export function nodeSelectorArg(doc: string) {
  return labelSelectorString().nullable().default(null).describe(doc);
}

/** `pod_label_selector` and `pod_namespace`: keep the nodes hosting matching pods. */
export function hostingPodArgs() {
  return {
    pod_label_selector: labelSelectorString()
      .nullable()
      .default(null)
      .describe(
        'Keep only the nodes hosting at least one pod that matches this label selector, in pod_namespace (give both).',
      ),
    pod_namespace: namespaceArg()
      .unwrap()
      .nullable()
      .default(null)
      .describe('Namespace of the pods that pod_label_selector matches (give both).'),
  };
}

/** `seed` of a random choice of nodes. */
export function nodeSeedArg(doc: string) {
  return z.int().min(0).max(MAX_SEED).nullable().default(null).describe(doc);
}

/**
 * A `check` hook (D29, docs/decisions.md): 0.25.1 silently ignored one of pod_label_selector
 * and pod_namespace without the other, and so acted on nodes the experiment did not mean.
 */
export function checkHostingPods(args: { pod_label_selector: string | null; pod_namespace: string | null }) {
  if (args.pod_label_selector && !args.pod_namespace) {
    return {
      argument: 'pod_namespace' as const,
      accepted: 'a namespace, which pod_label_selector needs (the two go together)',
    };
  }
  if (args.pod_namespace && !args.pod_label_selector) {
    return {
      argument: 'pod_label_selector' as const,
      accepted: 'a label selector, which pod_namespace needs (the two go together)',
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

export interface NodeQuery {
  name?: string | null;
  labelSelector?: string | null;
}

/** Nodes by name and/or label selector, filtered on the server and paginated; neither → every node. */
export function listNodes(core: CoreV1Api, query: NodeQuery): Promise<V1Node[]> {
  return listAll(
    (page) =>
      core.listNode({
        ...(query.name ? { fieldSelector: `metadata.name=${query.name}` } : {}),
        ...(query.labelSelector ? { labelSelector: query.labelSelector } : {}),
        ...page,
      }),
    { context: { verb: 'list', resource: 'nodes' } },
  );
}

/** Pods of one namespace matching a label selector. */
export function listPodsIn(core: CoreV1Api, namespace: string, labelSelector: string): Promise<V1Pod[]> {
  return listAll((page) => core.listNamespacedPod({ namespace, labelSelector, ...page }), {
    context: { verb: 'list', resource: 'pods', namespace },
  });
}

/** Every pod bound to a node, in every namespace. */
export function listPodsOnNode(core: CoreV1Api, node: string): Promise<V1Pod[]> {
  return listAll(
    (page) => core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}`, ...page }),
    { context: { verb: 'list', resource: 'pods on node', name: node } },
  );
}

export interface NodeSelectionArgs extends NodeQuery {
  podLabelSelector?: string | null;
  podNamespace?: string | null;
  all?: boolean;
  rand?: boolean;
  count?: number | null;
  first?: boolean;
  seed?: number | null;
}

/** The words of an ActivityFailed when nothing matched. */
export function describeQuery(args: NodeSelectionArgs): string {
  const parts: string[] = [];
  if (args.name) parts.push(`named '${args.name}'`);
  if (args.labelSelector) parts.push(`matching label selector '${args.labelSelector}'`);
  if (args.podLabelSelector && args.podNamespace)
    parts.push(`hosting a pod that matches '${args.podLabelSelector}' in namespace '${args.podNamespace}'`);
  return parts.length ? `no node ${parts.join(' and ')}` : 'no node at all in the cluster';
}

/**
 * The node selection of 0.25.1: list by name/label, keep the nodes hosting matching pods (when
 * both pod arguments are given), then `selectNodes` (first, all, rand, count; never a node
 * twice). Nothing to choose from → ActivityFailed.
 */
export async function findNodes(
  core: CoreV1Api,
  args: NodeSelectionArgs,
): Promise<{ nodes: V1Node[]; seed?: number }> {
  const nodes = await listNodes(core, args);
  let hostingPods: V1Pod[] | undefined;
  if (nodes.length > 0 && args.podLabelSelector && args.podNamespace) {
    hostingPods = await listPodsIn(core, args.podNamespace, args.podLabelSelector);
  }
  const { selected, seed } = selectNodes(nodes, {
    ...(args.all ? { all: true } : {}),
    ...(args.rand ? { rand: true } : {}),
    ...(args.first ? { first: true } : {}),
    ...(args.count !== undefined ? { count: args.count } : {}),
    ...(hostingPods ? { hostingPods } : {}),
    ...(typeof args.seed === 'number' ? { seed: args.seed } : {}),
  });
  if (selected.length === 0) throw new ActivityFailed(describeQuery(args));
  return seed === undefined ? { nodes: selected } : { nodes: selected, seed };
}

// ---------------------------------------------------------------------------------------------
// Cordon
// ---------------------------------------------------------------------------------------------

/** A JSON merge patch (client-node would otherwise send the body as a JSON Patch). */
export const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * Sets spec.unschedulable on each of the named nodes (a merge patch per node, with bounded
 * concurrency). Returns the names patched.
 */
export function patchUnschedulable(
  core: CoreV1Api,
  names: readonly string[],
  unschedulable: boolean,
  dryRun = false,
): Promise<string[]> {
  return bulk(
    names,
    async (name) => {
      try {
        await core.patchNode(
          { name, body: { spec: { unschedulable } }, ...(dryRun ? { dryRun: 'All' } : {}) },
          MERGE_PATCH,
        );
      } catch (err) {
        throw toApiError(err, { verb: 'patch', resource: 'node', name });
      }
    },
    { name: (name) => name, verb: unschedulable ? 'cordon node' : 'uncordon node' },
  );
}

/** The nodes whose spec.unschedulable is not already `unschedulable`. */
export function needingPatch(nodes: readonly V1Node[], unschedulable: boolean): string[] {
  return nodes.filter((node) => Boolean(node.spec?.unschedulable) !== unschedulable).map(nodeName);
}

/** `fn` over `items`, at most `limit` at once; results in the order of `items`. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Whether an error (as thrown by client-node or core) is a 404. */
export function isNotFound(err: unknown): boolean {
  return isApiError(toApiError(err), 'NotFound');
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/**
 * client-node's model objects as the JSON the API sent: timestamps back to RFC 3339 at second
 * precision (the wire format of metav1.Time), absent fields dropped.
 */
export function toPlainJson<T>(value: T): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key: string, current: unknown) {
      const raw = this[key];
      if (raw instanceof Date) return raw.toISOString().replace(/\.000Z$/, 'Z');
      return current;
    }),
  ) as Record<string, unknown>;
}
