// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The example runs at the top level, as
// in a reader's script; the test below checks what it did to the cluster.
import { deploy, readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';

const { kc } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
// The namespace the README names; no other test uses it.
const NS = 'shop';

const webPods = async (): Promise<V1Pod[]> =>
  (await core.listNamespacedPod({ namespace: NS, labelSelector: 'app=web' })).items;
const running = (pods: V1Pod[]): string[] =>
  pods
    .filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)
    .map((p) => p.metadata!.name!)
    .sort();

// What the example expects: KUBECONFIG pointing at the cluster (as in a reader's shell), and a
// Deployment `web` of 3 pods in namespace `shop`.
await readmeNamespace(NS);
await deploy(kc, NS, 'web', 3, {
  podSpec: { containers: [{ name: 'web', image: 'example.invalid/web:1' }] },
});
await vi.waitFor(async () => expect(running(await webPods())).toHaveLength(3), {
  timeout: 30_000,
  interval: 100,
});
const before = running(await webPods());

// #region use
import { execInPods, terminatePods } from '@chaoskit/chaoscluster-pod';

const results = await execInPods({
  ns: 'shop',
  labelSelector: 'app=web',
  cmd: ['sh', '-c', 'echo hi; exit 3'],
});
// [{ pod_name: 'web-…', container_name: 'web', cmd: […], exit_code: 3, stdout: 'hi\n', stderr: '', … }]

const { pods, seed } = await terminatePods({ ns: 'shop', labelSelector: 'app=web', rand: true, qty: 2 });
// the two pods deleted, and the seed of the random choice (pass `seed` to pick the same again)
// #endregion

describe('the README of @chaoskit/chaoscluster-pod', () => {
  it('ran the command in the first web pod, with its output and exit code', () => {
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      pod_name: before[0],
      container_name: 'web',
      exit_code: 3,
      stdout: 'hi\n',
      stderr: '',
      timed_out: false,
    });
  });

  it('terminated two of the three web pods, which the Deployment replaced; the third was left alone', async () => {
    expect(typeof seed).toBe('number');
    expect(pods).toHaveLength(2);
    for (const pod of pods) expect(before).toContain(pod);
    await vi.waitFor(
      async () => {
        const names = (await webPods()).map((p) => p.metadata!.name!);
        for (const pod of pods) expect(names).not.toContain(pod);
        expect(running(await webPods())).toHaveLength(3);
      },
      { timeout: 30_000, interval: 100 },
    );
    const after = running(await webPods());
    expect(after.filter((p) => before.includes(p))).toEqual(before.filter((p) => !pods.includes(p)));
  });
});
