// The safety lever (D128): `chaoskit halt` puts a ConfigMap chaoskit-halt in the ledger
// namespace, `chaoskit resume` removes it. A run that would change a cluster where it is refuses
// to start, and a run under way watches it in each cluster it changes: when it appears, the run
// is interrupted and its rollbacks play. Written through core's write chain (a client without a
// run's record or rails), as a deployment's writes are.

import { ConfigMaps, isApiError, type KubeClient, type RbacRule } from '@chaoskit/core';
import { redact, whoAmI } from '@chaoskit/core/runner';
import { Refusal } from '../errors.js';

export const HALT_NAME = 'chaoskit-halt';

/** What a run needs to see the lever: read and watch the one ConfigMap (bound with the ledger's Role). */
export const HALT_RULES: readonly RbacRule[] = [
  { apiGroups: [''], resources: ['configmaps'], resourceNames: [HALT_NAME], verbs: ['get', 'list', 'watch'] },
];

export interface Halt {
  reason: string;
  /** Who halted: the identity the cluster knows the halting credentials as. */
  by: string;
  /** When (ISO 8601). */
  at: string;
}

interface ConfigMap {
  metadata?: { resourceVersion?: string };
  data?: Record<string, string>;
}

const haltOf = (cm: ConfigMap | undefined): Halt | undefined =>
  cm
    ? {
        reason: cm.data?.reason || 'no reason given',
        by: cm.data?.by || 'someone',
        at: cm.data?.at || 'an unknown time',
      }
    : undefined;

/** How a halt is told: the reason and who halted. */
export const describeHalt = (halt: Halt, namespace: string) =>
  `chaoskit is halted in namespace '${namespace}' by ${halt.by} at ${halt.at}: ${redact(halt.reason)} (chaoskit resume lifts it)`;

/** `chaoskit halt`: sets the lever (or changes its reason). */
export async function setHalt(kube: KubeClient, namespace: string, reason: string): Promise<Halt> {
  const halt: Halt = {
    reason,
    by: (await whoAmI(kube.transport).catch(() => undefined)) ?? 'an unknown identity',
    at: new Date().toISOString(),
  };
  const body = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: HALT_NAME, namespace, labels: { 'app.kubernetes.io/managed-by': 'chaoskit' } },
    data: { ...halt },
  };
  try {
    await kube.create(ConfigMaps, body, { namespace });
  } catch (err) {
    // Halted already: the reason is the new one.
    if (!isApiError(err, 'Conflict')) throw err;
    await kube.replace(ConfigMaps, HALT_NAME, body, { namespace });
  }
  return halt;
}

/** `chaoskit resume`: lifts the lever; false when it was not set. */
export async function clearHalt(kube: KubeClient, namespace: string): Promise<boolean> {
  try {
    await kube.delete(ConfigMaps, HALT_NAME, { namespace });
    return true;
  } catch (err) {
    if (isApiError(err, 'NotFound')) return false;
    throw err;
  }
}

/** The lever as it is now, and the version to watch it from. */
export async function readHalt(
  kube: KubeClient,
  namespace: string,
): Promise<{ halt: Halt | undefined; resourceVersion: string | undefined }> {
  try {
    const { items, resourceVersion } = await kube.listWithVersion<ConfigMap>(ConfigMaps, {
      namespace,
      fieldSelector: `metadata.name=${HALT_NAME}`,
    });
    return { halt: haltOf(items[0]), resourceVersion };
  } catch (err) {
    if (isApiError(err, 'Forbidden'))
      throw new Refusal(
        `the run cannot read the halt lever (ConfigMap ${HALT_NAME} in namespace '${namespace}'), so chaoskit halt could not stop it: bind there the -ledger Role that chaoskit rbac prints (it grants get, list and watch of that ConfigMap)`,
      );
    throw err;
  }
}

/**
 * Watches the lever from `resourceVersion` until `stop()`, and calls `halted` once when it is
 * set. A watch the server ends, or that breaks, is opened again (after a re-read when its
 * version is gone).
 */
export function watchHalt(
  kube: KubeClient,
  namespace: string,
  resourceVersion: string | undefined,
  halted: (halt: Halt) => void,
): { stop: () => void } {
  const stopped = new AbortController();
  let version = resourceVersion;
  let current: { stop: () => void } | undefined;
  let told = false;
  const stop = () => {
    stopped.abort();
    current?.stop();
  };
  const tell = (halt: Halt | undefined) => {
    if (!halt || told || stopped.signal.aborted) return;
    told = true;
    stop();
    halted(halt);
  };
  void (async () => {
    while (!stopped.signal.aborted) {
      const watching = kube.watch<ConfigMap>(
        ConfigMaps,
        {
          namespace,
          fieldSelector: `metadata.name=${HALT_NAME}`,
          ...(version ? { resourceVersion: version } : {}),
        },
        (event) => {
          version = event.object.metadata?.resourceVersion ?? version;
          if (event.type === 'ADDED' || event.type === 'MODIFIED') tell(haltOf(event.object));
        },
      );
      current = watching;
      const end = await watching.done;
      if (stopped.signal.aborted) return;
      if (end.gone || end.error) {
        // A broken stream: waited on briefly, then the lever read again (it may have been set meanwhile).
        if (end.error) await new Promise((r) => setTimeout(r, 1000));
        const read = await readHalt(kube, namespace).catch(() => undefined);
        if (read) {
          tell(read.halt);
          version = read.resourceVersion;
        }
      }
    }
  })();
  return { stop };
}
