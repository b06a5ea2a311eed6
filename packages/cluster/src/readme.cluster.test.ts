// The README's TypeScript examples, run as written: each region is what README.md shows
// (`npm run docs` copies them there). They run at the top level, as in a reader's script, on
// clusters of their own (a plain one, then one with istiod); what they did is recorded along
// the way, and the tests below check it once everything has been stopped.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isAlive } from './host/processes.js';
import { adsRequest, LISTENER_TYPE } from './istio/xds.js';

/** Processes whose command line names `dir` (a cluster's components run from its directory). */
function processesIn(dir: string): number[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dir))
    .map((line) => Number.parseInt(line.trim(), 10));
}

// What the first example's experiment saw: the cluster KUBECONFIG named, from the outside.
const experiment = { dir: '', pids: [] as number[], nodes: [] as string[], ready: 0 };

/** The example's stand-in for "run your activities": reads the cluster KUBECONFIG points at. */
async function yourExperiment(): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromDefault();
  const nodes = (await kc.makeApiClient(CoreV1Api).listNode()).items;
  experiment.nodes = nodes.map((n) => n.metadata!.name!);
  experiment.ready = nodes.filter((n) =>
    n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
  experiment.dir = dirname(process.env.KUBECONFIG!);
  experiment.pids = processesIn(experiment.dir);
}

const previousKubeconfig = process.env.KUBECONFIG;

// #region start
import { start } from '@chaoskit/cluster';

{
  await using cluster = await start({ provider: 'local', nodes: 3 });
  // cluster.kubeconfig (YAML text), cluster.kubeconfigPath, cluster.server, cluster.nodes
  process.env.KUBECONFIG = cluster.kubeconfigPath; // chaoskit's activities, and kubectl, act on it
  await yourExperiment(); // … run your activities …
}
// leaving the block called cluster.stop(): no process and no file is left behind
// #endregion

const stoppedKubeconfig = process.env.KUBECONFIG;
if (previousKubeconfig === undefined) delete process.env.KUBECONFIG;
else process.env.KUBECONFIG = previousKubeconfig;

// #region istiod
await using cluster = await start({ provider: 'local', mesh: 'istiod' });
// plaintext ADS, no authentication: '127.0.0.1:<port>'
const { xdsAddress } = cluster.istiod!;
// GRPC_XDS_BOOTSTRAP_CONFIG for a proxyless gRPC client of namespace demo
const bootstrap = cluster.istiod!.xdsBootstrap({ namespace: 'demo' });
// #endregion

const clusterPids = cluster.pids;

// #region mesh-traffic
import { meshTraffic } from '@chaoskit/cluster';

await using traffic = await meshTraffic({
  cluster,
  hosts: [{ name: 'reviews.mesh.local', subsets: ['v1', 'v2'] }, { name: 'ratings.mesh.local' }],
  routes: {
    a: { host: 'reviews.mesh.local', headers: { 'x-chaoskit-route': 'a' } },
    ratings: { host: 'ratings.mesh.local' },
  },
});
// #endregion

// The README's "write a VirtualService with a fault": route `a` to reviews v1, and abort half of
// its requests with a 503.
const kc = new KubeConfig();
kc.loadFromString(cluster.kubeconfig);
await kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
  group: 'networking.istio.io',
  version: 'v1',
  namespace: traffic.namespace,
  plural: 'virtualservices',
  body: {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name: 'reviews' },
    spec: {
      hosts: ['reviews.mesh.local'],
      http: [
        {
          match: [{ headers: { 'x-chaoskit-route': { exact: 'a' } } }],
          fault: { abort: { httpStatus: 503, percentage: { value: 50 } } },
          route: [{ destination: { host: 'reviews.mesh.local', subset: 'v1' } }],
        },
      ],
    },
  },
});

// #region mesh-traffic-send
await traffic.waitFor('a', (s) => s.failures > 0); // until the client has the fault
const stats = await traffic.send({ requests: 400, concurrency: 20 });
const { codes, servedBy, latencyMs } = stats.a!;
// codes: { OK: 196, Unavailable: 204 }
// servedBy: { 'reviews.mesh.local/v1': 196 }
// latencyMs: { min, p50, p90, p99, max }
// #endregion

// While istiod runs: its xDS address answers a real ADS request for the probe's listener.
const listener = await adsRequest(
  xdsAddress,
  cluster.istiod!.xdsBootstrap({ namespace: traffic.namespace }).node,
  LISTENER_TYPE,
  ['reviews.mesh.local:7070'],
);
const running = {
  cluster: clusterPids,
  dir: cluster.dir,
  traffic: traffic.pids,
  namespace: traffic.namespace,
};

describe('the README of @chaoskit/cluster', () => {
  it('start: a 3-node cluster, ready inside the block, and nothing of it left after', () => {
    expect(experiment.nodes).toHaveLength(3);
    expect(experiment.ready).toBe(3);
    expect(experiment.pids.length).toBeGreaterThanOrEqual(5);
    for (const pid of experiment.pids) expect(isAlive(pid), `pid ${pid}`).toBe(false);
    expect(processesIn(experiment.dir)).toEqual([]);
    expect(existsSync(experiment.dir)).toBe(false);
    expect(existsSync(stoppedKubeconfig!)).toBe(false);
  });

  it('istiod: serves xDS on 127.0.0.1, and the bootstrap points a client at it', () => {
    expect(xdsAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(bootstrap.xds_servers.map((s) => s.server_uri)).toEqual([xdsAddress]);
    expect(bootstrap.node.id).toContain('demo');
    expect(listener.resources).toBe(1);
  });

  it('meshTraffic: half of route a aborted with Unavailable, served by v1 only; ratings untouched', () => {
    const n = 400;
    // 99.999 % two-sided binomial interval around 0.5 (z = 4.42).
    const half = 4.42 * Math.sqrt(0.25 / n);
    const unavailable = codes.Unavailable ?? 0;
    expect(unavailable / n).toBeGreaterThan(0.5 - half);
    expect(unavailable / n).toBeLessThan(0.5 + half);
    expect(codes).toEqual({ OK: n - unavailable, Unavailable: unavailable });
    expect(servedBy).toEqual({ 'reviews.mesh.local/v1': n - unavailable });
    expect(latencyMs.p50).toBeLessThanOrEqual(latencyMs.p99);
    expect(stats.ratings!.codes).toEqual({ OK: n });
  });

  it('await using stopped the probe and the cluster at the end of the script', () => {
    for (const pid of [...running.traffic, ...running.cluster])
      expect(isAlive(pid), `pid ${pid}`).toBe(false);
    expect(existsSync(running.dir)).toBe(false);
  });
});
