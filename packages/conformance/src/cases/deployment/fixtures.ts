import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isChaosError } from '@chaoskit/core';
import type { V1Deployment } from '@kubernetes/client-node';
import type { CaseContext } from '../../case-context.js';

/** A Deployment as a user would write it in a spec file (no namespace unless given). */
export function deploymentDoc(
  name: string,
  replicas: number,
  extra: { labels?: Record<string, string>; namespace?: string } = {},
): V1Deployment {
  const labels = { app: name, ...extra.labels };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels, ...(extra.namespace ? { namespace: extra.namespace } : {}) },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 1,
          containers: [{ name: 'app', image: 'example.invalid/app:1' }],
        },
      },
    },
  };
}

/** A temporary directory for spec files, removed with the case. */
export async function specDir(t: CaseContext): Promise<(name: string, text: string) => Promise<string>> {
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-deployment-'));
  t.onCleanup(() => rm(dir, { recursive: true, force: true }));
  return async (name, text) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
}

/** The names of the deployments of the scenario's namespace, sorted. */
export async function deploymentNames(t: CaseContext): Promise<string[]> {
  const list = await t.apps.listNamespacedDeployment({ namespace: t.ns });
  return list.items.map((d) => d.metadata!.name!).sort();
}

/**
 * A Deployment whose pods can never be scheduled (a nodeSelector no node has): it stays at
 * 0 ready of `replicas`. Returns once the controller has reported its status.
 */
export async function stuckDeployment(t: CaseContext, name: string, replicas: number): Promise<void> {
  const body = deploymentDoc(name, replicas);
  body.spec!.template.spec!.nodeSelector = { 'chaoskit.io/no-such-node': 'true' };
  await t.apps.createNamespacedDeployment({ namespace: t.ns, body });
  await t.until(`deployment ${name} observed, with ${replicas} pods pending`, async () => {
    const d = await t.apps.readNamespacedDeployment({ name, namespace: t.ns });
    const pods = await t.podNames(`app=${name}`);
    return (d.status?.observedGeneration ?? 0) >= 1 && pods.length === replicas;
  });
}

/** Reads the deployment's replica counts (admin view). */
export async function replicasOf(t: CaseContext, name: string) {
  const d = await t.apps.readNamespacedDeployment({ name, namespace: t.ns });
  return {
    desired: d.spec?.replicas,
    ready: d.status?.readyReplicas ?? 0,
    available: d.status?.availableReplicas ?? 0,
  };
}

/** Asserts that `promise` rejects with ActivityFailed; returns the message. */
export async function activityFailure(promise: Promise<unknown>): Promise<string> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  assert.ok('error' in outcome, `expected ActivityFailed, got the result ${JSON.stringify(outcome)}`);
  assert.ok(
    isChaosError(outcome.error, 'ActivityFailed'),
    `expected ActivityFailed, got ${String(outcome.error)}`,
  );
  return (outcome.error as Error).message;
}
