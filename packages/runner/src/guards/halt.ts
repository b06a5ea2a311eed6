// The safety lever (D128, D159): `chaoskit halt` puts a ConfigMap chaoskit-halt in kube-system —
// the cluster's lever, which every run there watches wherever it records — or, with -n, in one
// ledger namespace, which the runs recording there watch; `chaoskit resume` removes it. A run
// that would change a cluster where either is set refuses to start, and a run under way watches
// both in each cluster it changes: when one appears, the run is interrupted and its rollbacks
// play. Who may pull and who may release the lever are rights of their own, held by the
// ValidatingAdmissionPolicy chaoskit-halt (`chaoskit rbac --halt` prints it): without it, any
// identity that may write ConfigMaps there may move the lever. Written through core's write
// chain (a client without a run's record or rails), as a deployment's writes are.

import { ConfigMaps, isApiError, type KubeClient, type RbacRule, type ResourceType } from '@chaoskit/core';
import { redact, whoAmI } from '@chaoskit/core/runner';
import { InvalidArgumentError } from 'commander';
import { Refusal } from '../output/errors.js';
import { terminalValue } from '../output/terminal.js';

export const HALT_NAME = 'chaoskit-halt';
/** Where the cluster's lever is: a namespace every cluster has, whose ConfigMaps only administrators write. */
export const CLUSTER_HALT_NAMESPACE = 'kube-system';
/** What `--reason` may hold: one line, of at most this many characters. */
export const MAX_REASON = 500;

/** What a run needs to see a lever: read and watch the one ConfigMap (in each namespace it is in). */
export const HALT_RULES: readonly RbacRule[] = [
  { apiGroups: [''], resources: ['configmaps'], resourceNames: [HALT_NAME], verbs: ['get', 'list', 'watch'] },
];

export interface Halt {
  reason: string;
  /** Who halted: the identity the cluster knows the halting credentials as. */
  by: string;
  /** When (ISO 8601). */
  at: string;
  /** The lever's namespace: kube-system for the cluster's. */
  namespace: string;
}

interface ConfigMap {
  metadata?: { resourceVersion?: string; namespace?: string };
  data?: Record<string, string>;
}

// What the lever says is anyone's to write who may write it: shown escaped and bounded.
const field = (value: string | undefined, otherwise: string) =>
  value ? terminalValue(value.slice(0, MAX_REASON)) : otherwise;

const haltOf = (cm: ConfigMap | undefined, namespace: string): Halt | undefined =>
  cm
    ? {
        reason: field(cm.data?.reason, 'no reason given'),
        by: field(cm.data?.by, 'someone'),
        at: field(cm.data?.at, 'an unknown time'),
        namespace,
      }
    : undefined;

/** Where a lever halts: the cluster, or the runs recording in one namespace. */
export const scopeOf = (namespace: string) =>
  namespace === CLUSTER_HALT_NAMESPACE ? 'in the cluster' : `in namespace '${namespace}'`;

/** How a halt is told: the reason and who halted. */
export const describeHalt = (halt: Halt) =>
  `chaoskit is halted ${scopeOf(halt.namespace)} by ${halt.by} at ${halt.at}: ${redact(halt.reason)} (chaoskit resume${halt.namespace === CLUSTER_HALT_NAMESPACE ? '' : ` -n ${halt.namespace}`} lifts it)`;

/** `--reason`: one line of text, bounded; refused without being echoed (it may be huge, or move the cursor). */
export function checkReason(reason: string): string {
  const accepted = `accepted: one line of text, at most ${MAX_REASON} characters`;
  if (reason.length > MAX_REASON)
    throw new InvalidArgumentError(`halt: argument --reason has ${reason.length} characters; ${accepted}`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: what is refused
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(reason))
    throw new InvalidArgumentError(
      `halt: argument --reason holds a line break or a control character; ${accepted}`,
    );
  return reason;
}

/** `chaoskit halt`: sets the lever (or changes its reason). */
export async function setHalt(kube: KubeClient, namespace: string, reason: string): Promise<Halt> {
  const halt: Halt = {
    reason,
    by: (await whoAmI(kube).catch(() => undefined)) ?? 'an unknown identity',
    at: new Date().toISOString(),
    namespace,
  };
  const body = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: HALT_NAME, namespace, labels: { 'app.kubernetes.io/managed-by': 'chaoskit' } },
    data: { reason: halt.reason, by: halt.by, at: halt.at },
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

const POLICIES: ResourceType = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  plural: 'validatingadmissionpolicies',
  kind: 'ValidatingAdmissionPolicy',
  namespaced: false,
  noun: 'validating admission policy',
};
const BINDINGS: ResourceType = {
  ...POLICIES,
  plural: 'validatingadmissionpolicybindings',
  kind: 'ValidatingAdmissionPolicyBinding',
  noun: 'validating admission policy binding',
};

/**
 * Whether the policy that keeps the lever to those allowed to pull it is in force: its
 * ValidatingAdmissionPolicy and its binding; undefined when this identity may not tell.
 */
export async function leverProtected(kube: KubeClient): Promise<boolean | undefined> {
  const there = (type: ResourceType) =>
    kube.get(type, HALT_NAME).then(
      () => true,
      (err: unknown) => {
        if (isApiError(err, 'NotFound')) return false;
        if (isApiError(err, 'Forbidden')) return undefined;
        throw err;
      },
    );
  const [policy, binding] = await Promise.all([there(POLICIES), there(BINDINGS)]);
  if (policy === false || binding === false) return false;
  return policy && binding ? true : undefined;
}

/** The lever of `namespace` as it is now, and the version to watch it from. */
export async function readHalt(
  kube: KubeClient,
  namespace: string,
): Promise<{ halt: Halt | undefined; resourceVersion: string | undefined }> {
  try {
    const { items, resourceVersion } = await kube.listWithVersion<ConfigMap>(ConfigMaps, {
      namespace,
      fieldSelector: `metadata.name=${HALT_NAME}`,
    });
    return { halt: haltOf(items[0], namespace), resourceVersion };
  } catch (err) {
    if (isApiError(err, 'Forbidden'))
      throw new Refusal(
        `the run cannot read the halt lever ${scopeOf(namespace)} (ConfigMap ${HALT_NAME} in namespace '${namespace}'), so chaoskit halt could not stop it: ${
          namespace === CLUSTER_HALT_NAMESPACE
            ? `bind in ${CLUSTER_HALT_NAMESPACE} the -halt Role that chaoskit rbac prints`
            : 'bind there the -ledger Role that chaoskit rbac prints'
        } (it grants get, list and watch of that ConfigMap)`,
      );
    throw err;
  }
}

/**
 * Watches the lever of `namespace` from `resourceVersion` until `stop()`, and calls `halted`
 * once when it is set. A watch the server ends, or that breaks, is opened again (after a re-read
 * when its version is gone).
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
          if (event.type === 'ADDED' || event.type === 'MODIFIED') tell(haltOf(event.object, namespace));
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
