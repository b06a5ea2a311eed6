import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { deploy, ownKwokNode, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import {
  CoreV1Api,
  CustomObjectsApi,
  Log,
  PatchStrategy,
  PolicyV1Api,
  setHeaderOptions,
  type V1Pod,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execText } from '../exec.js';
import { isAlive } from '../host/processes.js';
import { start } from '../start.js';
import { readAuditLog } from './audit.js';
import { writePodLog } from './local-cluster.js';

const execFileAsync = promisify(execFile);
const { kc, kubectl, kubeconfigPath, nodes, auditLogPath, users } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);

// A node of this file's own to cordon: other files compare the shared nodes before and after.
const cordoned = ownKwokNode(kc, 'foundation-cordon', 'chaoskit.io/foundation-test');
let ns: Awaited<ReturnType<typeof testNamespace>>;
beforeAll(async () => {
  ns = await testNamespace(kc, 'foundation');
});
afterAll(async () => {
  await ns.remove();
});

async function runningPods(selector: string): Promise<V1Pod[]> {
  const list = await core.listNamespacedPod({ namespace: ns.name, labelSelector: selector });
  return list.items.filter((p: V1Pod) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp);
}

describe('local provider: workloads', () => {
  it('runs a 3-replica Deployment on kwok nodes and replaces a deleted pod', async () => {
    await deploy(kc, ns.name, 'web', 3);
    const pods = await runningPods('app=web');
    expect(pods).toHaveLength(3);
    for (const p of pods) expect(nodes).toContain(p.spec?.nodeName);

    const victim = pods[0]!.metadata!.name!;
    await core.deleteNamespacedPod({ name: victim, namespace: ns.name });
    const after = await until('a replacement pod', async () => {
      const running = await runningPods('app=web');
      const names = running.map((p) => p.metadata!.name!);
      return running.length === 3 && !names.includes(victim) ? names : undefined;
    });
    expect(after).not.toContain(victim);
  });

  it('cordons a node, evicts a pod, and refuses an eviction a PodDisruptionBudget forbids with 429', async () => {
    const node = cordoned.name;
    // client-node sends JSON Patch unless told otherwise; this body is a merge patch.
    await core.patchNode(
      { name: node, body: { spec: { unschedulable: true } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBe(true);
    const { stdout } = await execFileAsync(kubectl, ['--kubeconfig', kubeconfigPath, 'get', 'node', node]);
    expect(stdout).toMatch(/SchedulingDisabled/);
    await execFileAsync(kubectl, ['--kubeconfig', kubeconfigPath, 'uncordon', node]);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBeFalsy();

    await deploy(kc, ns.name, 'guarded', 2);
    const policy = kc.makeApiClient(PolicyV1Api);
    const [first, second] = await runningPods('app=guarded');

    // Without a budget, eviction goes through and the pod starts terminating.
    const evict = (name: string) =>
      core.createNamespacedPodEviction({
        name,
        namespace: ns.name,
        body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns.name } },
      });
    await evict(first!.metadata!.name!);
    await until('evicted pod to go', async () => {
      const list = await core.listNamespacedPod({
        namespace: ns.name,
        fieldSelector: `metadata.name=${first!.metadata!.name}`,
      });
      return list.items.length === 0 || !!list.items[0]?.metadata?.deletionTimestamp;
    });

    await policy.createNamespacedPodDisruptionBudget({
      namespace: ns.name,
      body: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'guarded' },
        spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'guarded' } } },
      },
    });
    // The disruption controller must have observed the budget before it is enforced.
    await until('budget observed', async () => {
      const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'guarded', namespace: ns.name });
      return pdb.status?.observedGeneration === pdb.metadata?.generation;
    });
    const refusal = await evict(second!.metadata!.name!).then(
      () => undefined,
      (err: { code?: number; body?: string }) => err,
    );
    expect(refusal?.code).toBe(429);
    expect(JSON.parse(refusal!.body!).message).toMatch(/disruption budget/i);
  });
});

async function bareRunningPod(name: string): Promise<void> {
  await core.createNamespacedPod({
    namespace: ns.name,
    body: {
      metadata: { name, labels: { app: name } },
      spec: { nodeName: nodes[1], containers: [{ name: 'main', image: 'example.invalid/main:1' }] },
    },
  });
  await until('pod Running', async () => (await runningPods(`app=${name}`)).length === 1);
}

/** TCP peers of the given processes, from `ss` (every socket with its owning pid). */
async function tcpPeers(pids: number[]): Promise<string[]> {
  const { stdout } = await execFileAsync('ss', ['-tnpH']);
  return stdout
    .split('\n')
    .filter((line) => pids.some((pid) => line.includes(`pid=${pid},`)))
    .map((line) => line.trim().split(/\s+/)[4]!)
    .filter(Boolean);
}

describe('local provider: logs and exec on kwok pods', () => {
  beforeAll(async () => {
    await bareRunningPod('shell');
  });
  /** kubectl's arguments for the test's namespace. */
  const inNamespace = (...args: string[]) => ['--kubeconfig', kubeconfigPath, '-n', ns.name, ...args];

  it('serves kubectl logs and client-node Log from the pod log file', async () => {
    await writePodLog(sharedCluster(), [{ text: 'hello from the fake pod' }]);
    const { stdout } = await execFileAsync(kubectl, inNamespace('logs', 'shell'));
    expect(stdout).toContain('hello from the fake pod');

    let text = '';
    const sink = new Writable({
      write(chunk, _enc, cb) {
        text += chunk.toString();
        cb();
      },
    });
    // client-node 2.x's Log pipes the body into the stream and never calls a done callback:
    // the stream finishing is the end of the logs.
    await new Log(kc).log(ns.name, 'shell', 'main', sink, { follow: false });
    await finished(sink);
    expect(text).toContain('hello from the fake pod');
  });

  // kwok (0.7 and 0.8) wraps the command's exit error before handing it to the kubelet
  // streaming code, whose type check then misses it: the exit code reaches clients as text,
  // "... exit status N", in a generic Failure status, not as the ExitCode cause a real
  // kubelet sends. kubectl therefore exits 1, with the code in its message.
  it('runs kubectl exec with real stdout, stderr and the non-zero exit code in its error', async () => {
    const result = await execFileAsync(
      kubectl,
      inNamespace('exec', 'shell', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'),
    ).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('out\n');
    expect(result.stderr).toContain('err\n');
    expect(result.stderr).toMatch(/exit status 3\b/);
  });

  it("runs client-node's Exec with stdout, stderr and the exit status", async () => {
    const result = await execText(kc, { namespace: ns.name, pod: 'shell', container: 'main' }, [
      'sh',
      '-c',
      'echo out; echo err >&2; exit 5',
    ]);
    expect(result.stdout).toBe('out\n');
    expect(result.stderr).toBe('err\n');
    expect(result.status.status).toBe('Failure');
    expect(result.status.message).toMatch(/exit status 5\b/);
    const ok = await execText(kc, { namespace: ns.name, pod: 'shell', container: 'main' }, ['echo', 'fine']);
    expect(ok.status.status).toBe('Success');
  });

  it('keeps every connection of the control plane and of kubectl exec on loopback', async () => {
    const child = spawn(kubectl, inNamespace('exec', 'shell', '--', 'sleep', '2'));
    const exited = new Promise((r) => child.once('exit', r));
    await new Promise((r) => setTimeout(r, 1000));
    const pids = await clusterPids();
    const peers = await tcpPeers([...pids, child.pid!]);
    await exited;
    expect(peers.length).toBeGreaterThan(3);
    for (const peer of peers)
      expect(peer).toMatch(/^(127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:127\.\d+\.\d+\.\d+\]):\d+$/);
  });
});

/** The shared cluster's component pids, found by their data directory on the command line. */
async function clusterPids(): Promise<number[]> {
  const { stdout } = await execFileAsync('ps', ['-eo', 'pid=,args=']);
  const dir = sharedCluster().dir;
  return stdout
    .split('\n')
    .filter((l) => l.includes(dir))
    .map((l) => Number.parseInt(l.trim(), 10));
}

describe('local provider: mesh CRDs', () => {
  const objects = () => kc.makeApiClient(CustomObjectsApi);
  const virtualService = (name: string, fault: unknown) => ({
    kind: 'VirtualService',
    metadata: { name },
    spec: {
      hosts: ['reviews'],
      http: [{ fault, route: [{ destination: { host: 'reviews', subset: 'v1' } }] }],
    },
  });

  for (const version of ['v1alpha3', 'v1beta1', 'v1']) {
    it(`accepts a VirtualService with an http fault in networking.istio.io/${version}`, async () => {
      const body = {
        apiVersion: `networking.istio.io/${version}`,
        ...virtualService(`reviews-${version}`, {
          abort: { httpStatus: 503, percentage: { value: 50 } },
          delay: { fixedDelay: '2s', percentage: { value: 10 } },
        }),
      };
      await objects().createNamespacedCustomObject({
        group: 'networking.istio.io',
        version,
        namespace: ns.name,
        plural: 'virtualservices',
        body,
      });
      const read = await objects().getNamespacedCustomObject({
        group: 'networking.istio.io',
        version,
        namespace: ns.name,
        plural: 'virtualservices',
        name: `reviews-${version}`,
      });
      expect(read.spec.http[0].fault.abort.httpStatus).toBe(503);
    });
  }

  const create = (name: string, fault: unknown) =>
    objects()
      .createNamespacedCustomObject({
        group: 'networking.istio.io',
        version: 'v1',
        namespace: ns.name,
        plural: 'virtualservices',
        body: { apiVersion: 'networking.istio.io/v1', ...virtualService(name, fault) },
      })
      .then(
        () => ({ code: 201, message: '' }),
        (err: { code: number; body: string }) => ({
          code: err.code,
          message: JSON.parse(err.body).message as string,
        }),
      );

  it("rejects faults that break Istio's schema: a non-integer status, two statuses at once", async () => {
    const wrongType = await create('bad-type', { abort: { httpStatus: 'five hundred' } });
    expect(wrongType.code).toBe(422);
    expect(wrongType.message).toMatch(/httpStatus/);
    const twoStatuses = await create('bad-oneof', { abort: { httpStatus: 503, grpcStatus: 'UNAVAILABLE' } });
    expect(twoStatuses.code).toBe(422);
  });

  it('lets the CRD schema pass an abort with no status (only istiod would refuse it)', async () => {
    // Istio's schema allows "no status at all" as one branch of its oneOf; the check lives in
    // istiod's webhook, which a CRD-only mesh does not run. chaosmesh-fault validates it itself.
    const result = await create('no-status', { abort: { percentage: { value: 50 } } });
    expect(result.code).toBe(201);
  });
});

describe('local provider: lifecycle', () => {
  it('runs two clusters side by side and leaves no process or file after stop()', async () => {
    const [a, b] = await Promise.all([
      start({ provider: 'local', nodes: 1, mesh: false }),
      start({ provider: 'local', nodes: 1, mesh: false }),
    ]);
    expect(a.server).not.toBe(b.server);
    for (const c of [a, b]) {
      const api = new (await import('@kubernetes/client-node')).KubeConfig();
      api.loadFromString(c.kubeconfig);
      const list = await api.makeApiClient(CoreV1Api).listNode();
      expect(list.items.map((n) => n.metadata?.name)).toEqual(c.nodes);
    }
    const pids = [...a.pids, ...b.pids];
    expect(pids).toHaveLength(10);
    await Promise.all([a.stop(), b.stop()]);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid} still alive`).toBe(false);
    expect(existsSync(a.dir)).toBe(false);
    expect(existsSync(b.dir)).toBe(false);
  });

  it('records every request in the audit log with the caller identity', async () => {
    const since = new Date(Date.now() - 1000);
    await core.listNamespacedPod({ namespace: ns.name });
    const events = await readAuditLog(auditLogPath, { user: users.token, since });
    expect(
      events.some(
        (e) => e.verb === 'list' && e.objectRef?.resource === 'pods' && e.objectRef.namespace === ns.name,
      ),
    ).toBe(true);
  });
});
