// drain_nodes on a node that holds a pod of a namespace being deleted, listed before the namespace
// controller came to it. The server refuses every eviction there (403, cause
// NamespaceTerminating): the drain waits for the pod to be deleted with its namespace, as
// `kubectl drain` does, instead of failing. Seen in CI, where another file's namespace was going
// away while a drain ran.
//
// To hold the pod in that state, a ValidatingAdmissionPolicy refuses its deletion while the
// namespace is being deleted, until the audit log shows the refused eviction; then the test
// deletes the pod as the namespace controller would. On a kwok node of its own, tainted so that
// only this file's pods land there.
import { auditLogSize, readAuditLog } from '@chaoskit/cluster';
import { adminSecrets, ownKwokNode, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { AdmissionregistrationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { drainNodes } from './drain-nodes.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const admission = cluster.kc.makeApiClient(AdmissionregistrationV1Api);
const NODE = `terminating-drain-${process.pid}`;
const own = ownKwokNode(cluster.kc, NODE, 'chaoskit.io/terminating-drain');
const KEEP = { 'chaoskit.io/test-undeletable': NODE };
const POLICY = `keep-${NODE}`;

async function keepPodsLabelled(): Promise<void> {
  await admission.createValidatingAdmissionPolicy({
    body: {
      metadata: { name: POLICY },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          objectSelector: { matchLabels: KEEP },
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['pods'] },
          ],
        },
        validations: [{ expression: 'false', message: 'held by the drain test' }],
      },
    },
  });
  await admission.createValidatingAdmissionPolicyBinding({
    body: {
      metadata: { name: POLICY },
      spec: { policyName: POLICY, validationActions: ['Deny'] },
    },
  });
}

async function letGo(): Promise<void> {
  await admission.deleteValidatingAdmissionPolicyBinding({ name: POLICY }).catch(() => undefined);
  await admission.deleteValidatingAdmissionPolicy({ name: POLICY }).catch(() => undefined);
}

afterAll(letGo);

describe('drain_nodes and a pod whose namespace is being deleted', () => {
  it('waits for the pod to go with its namespace instead of failing on the refused eviction', async () => {
    const ns = await testNamespace(cluster.kc, 'terminating-drain');
    const namespace = ns.name;
    const owner = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'owner' } } });
    await core.createNamespacedPod({
      namespace,
      body: {
        metadata: {
          name: 'held',
          labels: KEEP,
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: 'owner',
              uid: owner.metadata!.uid!,
              controller: true,
            },
          ],
        },
        spec: {
          terminationGracePeriodSeconds: 0,
          nodeName: NODE,
          tolerations: [own.toleration],
          containers: [{ name: 'c', image: 'example.invalid/none' }],
        },
      },
    });
    await keepPodsLabelled();
    // The policy takes effect once the apiserver has read it: until a deletion is refused.
    await until("the policy to refuse the pod's deletion", async () =>
      core.deleteNamespacedPod({ name: 'held', namespace, dryRun: 'All' }).then(
        () => undefined,
        (err: { code?: number }) => (err.code === 422 || err.code === 403 ? true : undefined),
      ),
    );
    await ns.remove();
    await until('the namespace to be terminating', async () =>
      (await core.readNamespace({ name: namespace })).status?.phase === 'Terminating' ? true : undefined,
    );
    expect(
      (await core.readNamespacedPod({ name: 'held', namespace })).metadata?.deletionTimestamp,
    ).toBeUndefined();

    const from = await auditLogSize(cluster.auditLogPath);
    const draining = drainNodes({ name: NODE, timeout: 60, secrets: adminSecrets() });
    draining.catch(() => undefined);
    const refused = await until('the eviction refused in the terminating namespace', async () =>
      (await readAuditLog(cluster.auditLogPath, { fromByte: from })).find(
        (e) =>
          e.objectRef?.subresource === 'eviction' &&
          e.objectRef.namespace === namespace &&
          e.objectRef.name === 'held',
      ),
    );
    expect(refused.responseStatus?.code).toBe(403);

    await letGo();
    await until('the pod to be deleted, as the namespace controller would', async () =>
      core.deleteNamespacedPod({ name: 'held', namespace }).then(
        () => true,
        (err: { code?: number }) => (err.code === 404 ? true : undefined),
      ),
    );
    const result = await draining;
    expect(result.evicted).toEqual([`${namespace}/held`]);
  }, 120_000);
});
