// The bench's cluster: one local cluster, the workloads every scenario acts on, and one identity
// per tool (a service account bound to cluster-admin) so that the audit log tells whose each
// request is. Nothing here is timed. The two big pod sets are bare pods created through the API
// many at once, each bound to a kwok node: a Deployment's controller (20 requests a second by
// default) and the scheduler would take hours over 100,000 pods.
import { writeFile } from 'node:fs/promises';
import https from 'node:https';
import { join } from 'node:path';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  RbacAuthorizationV1Api,
} from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { start } from '../packages/cluster/dist/index.js';

export const TOOLS = ['chaoskit', 'python', 'kubectl', 'reference'];
const IDENTITY_NS = 'bench-identities';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, check, timeoutMs = 900_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const began = Date.now();
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    // A check that lists 100,000 pods takes seconds of the apiserver: it is not repeated at once.
    await sleep(Math.max(500, 2 * (Date.now() - began)));
  }
}

export async function startFixture({ nodes, pods, log, scratch }) {
  const began = performance.now();
  const cluster = await start({ provider: 'local', nodes, mesh: true, progress: () => {} });
  const clusterStart = (performance.now() - began) / 1000;
  log(`cluster: ${nodes} nodes, started in ${clusterStart.toFixed(1)} s`);
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
  const server = new URL(kc.getCurrentCluster().server);
  const getTable = async (path) => {
    const options = {
      host: server.hostname,
      port: server.port,
      path,
      headers: { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' },
    };
    await kc.applyToHTTPSOptions(options);
    return new Promise((resolve, reject) => {
      https
        .get(options, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () =>
            res.statusCode === 200
              ? resolve(body)
              : reject(new Error(`GET ${path}: ${res.statusCode} ${body}`)),
          );
        })
        .on('error', reject);
    });
  };

  const namespace = async (name) => {
    await core.createNamespace({ body: { metadata: { name } } });
    await until(`namespace ${name}`, async () =>
      (await core.listNamespacedServiceAccount({ namespace: name })).items.some(
        (s) => s.metadata?.name === 'default',
      ),
    );
  };
  const deployment = (ns, name, replicas, podSpec = {}) =>
    apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name, labels: { app: name } },
        spec: {
          replicas,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: {
              terminationGracePeriodSeconds: 0,
              containers: [{ name: 'app', image: 'example.invalid/app:1' }],
              ...podSpec,
            },
          },
        },
      },
    });
  /**
   * Pods `<app>-<round>-<i>` for each i of 0 … n-1 that `ns` lacks, `CREATES` requests out at
   * once over the client's pooled keep-alive connections, spread over the kwok nodes. Each
   * refill's names are new: kwok deletes a pod it saw terminating by its name, late when many
   * went at once, and took down a pod of the same name created again meanwhile (29 of 500 lost,
   * and the reset waited for them). The index i stays, for the name pattern's one in a hundred.
   */
  const CREATES = 64;
  let round = 0;
  const podSet = async (ns, app, n) => {
    const have = new Set((await podsOf(ns, app)).map((p) => Number(/-(\d+)$/.exec(p.name)?.[1])));
    const at = round++;
    const missing = Array.from({ length: n }, (_, i) => i)
      .filter((i) => !have.has(i))
      .map((i) => `${app}-${at}-${i}`);
    let next = 0;
    const worker = async () => {
      while (next < missing.length) {
        const i = next++;
        await core.createNamespacedPod({
          namespace: ns,
          body: {
            metadata: { name: missing[i], labels: { app } },
            spec: {
              nodeName: cluster.nodes[i % cluster.nodes.length],
              terminationGracePeriodSeconds: 0,
              containers: [{ name: 'app', image: 'example.invalid/app:1' }],
            },
          },
        });
      }
    };
    await Promise.all(Array.from({ length: CREATES }, worker));
  };
  /**
   * Every pod of `app` in `ns`, as the server's table of them: name and status ("Running",
   * "Terminating", "Pending" …), a row of a hundred bytes. Whole pods through client-node took
   * minutes per reset at 100,000 pods; the table, seconds.
   */
  const podsOf = async (ns, app) => {
    const rows = [];
    let token;
    do {
      const query = new URLSearchParams({
        labelSelector: `app=${app}`,
        limit: '10000',
        includeObject: 'None',
      });
      if (token) query.set('continue', token);
      const table = JSON.parse(await getTable(`/api/v1/namespaces/${ns}/pods?${query}`));
      const status = table.columnDefinitions.findIndex((c) => c.name === 'Status');
      for (const row of table.rows ?? []) rows.push({ name: row.cells[0], status: row.cells[status] });
      token = table.metadata?.continue;
    } while (token);
    return rows;
  };
  /** The pods of `app` in `ns`: how many, and how many Running and not terminating. */
  const census = async (ns, app) => {
    const pods = await podsOf(ns, app);
    return { all: pods.length, running: pods.filter((p) => p.status === 'Running').length };
  };
  /** Every pod of `app` running, none terminating. */
  const settled = (ns, app, want) =>
    until(
      `${want} pods of ${app} running`,
      async () => {
        const { all, running } = await census(ns, app);
        return all === want && running === want;
      },
      Math.max(900_000, want * 20),
    );

  /** The pods of a pod set that were deleted, created again once the terminating ones are gone. */
  const refill = async (ns, app, want) => {
    await until(`no pod of ${app} terminating`, async () => {
      const { all, running } = await census(ns, app);
      return all === running;
    });
    await podSet(ns, app, want);
    await settled(ns, app, want);
  };

  // The workloads.
  const drainNode = 'bench-drain';
  await core.createNode({
    body: {
      metadata: {
        name: drainNode,
        labels: { 'kubernetes.io/hostname': drainNode, type: 'kwok' },
        annotations: { 'kwok.x-k8s.io/node': 'fake' },
      },
      spec: { taints: [{ key: 'bench', value: 'drain', effect: 'NoSchedule' }] },
    },
  });
  const sizes = {
    bench: pods,
    // A thousand at most: its scenario is a random choice among a thousand, whatever the bench's size.
    'bench-1k': Math.min(1000, Math.max(10, Math.round(pods / 5))),
    small: 3,
    exec: Math.min(50, pods),
    drain: Math.min(110, Math.max(10, Math.round(pods / 45))),
  };
  for (const ns of [
    'bench',
    'bench-1k',
    'bench-small',
    'bench-exec',
    'bench-drain',
    'bench-mesh',
    IDENTITY_NS,
  ])
    await namespace(ns);
  const created = performance.now();
  await podSet('bench', 'bench', sizes.bench);
  await podSet('bench-1k', 'thousand', sizes['bench-1k']);
  log(
    `created ${sizes.bench + sizes['bench-1k']} pods in ${((performance.now() - created) / 1000).toFixed(1)} s`,
  );
  await deployment('bench-small', 'small', sizes.small);
  await deployment('bench-exec', 'exec', sizes.exec);
  await deployment('bench-drain', 'drain', sizes.drain, {
    nodeSelector: { 'kubernetes.io/hostname': drainNode },
    tolerations: [{ key: 'bench', operator: 'Exists', effect: 'NoSchedule' }],
  });
  // A VirtualService of 50 routes, each to its own host.
  await custom.createNamespacedCustomObject({
    group: 'networking.istio.io',
    version: 'v1',
    namespace: 'bench-mesh',
    plural: 'virtualservices',
    body: {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'web' },
      spec: {
        hosts: ['web'],
        http: Array.from({ length: 50 }, (_, i) => ({
          name: `r${i}`,
          match: [{ uri: { prefix: `/p${i}` } }],
          route: [{ destination: { host: `svc-${i}`, subset: 'v1' } }],
        })),
      },
    },
  });
  log(`waiting for ${sizes.bench + sizes['bench-1k'] + sizes.small + sizes.exec + sizes.drain} pods to run…`);
  await settled('bench', 'bench', sizes.bench);
  await settled('bench-1k', 'thousand', sizes['bench-1k']);
  await settled('bench-small', 'small', sizes.small);
  await settled('bench-exec', 'exec', sizes.exec);
  await settled('bench-drain', 'drain', sizes.drain);

  // One identity per tool, and a kubeconfig for each.
  const identities = {};
  for (const tool of TOOLS) {
    const name = `bench-${tool}`;
    await core.createNamespacedServiceAccount({ namespace: IDENTITY_NS, body: { metadata: { name } } });
    await rbac.createClusterRoleBinding({
      body: {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'ServiceAccount', name, namespace: IDENTITY_NS }],
      },
    });
    const token = await core.createNamespacedServiceAccountToken({
      name,
      namespace: IDENTITY_NS,
      body: { spec: { audiences: [], expirationSeconds: 6 * 3600 } },
    });
    const kubeconfig = join(scratch, `kubeconfig-${tool}`);
    await writeFile(
      kubeconfig,
      dump({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'bench',
            cluster: {
              server: cluster.credentials.server,
              'certificate-authority': cluster.credentials.caFile,
            },
          },
        ],
        users: [{ name, user: { token: token.status.token } }],
        contexts: [{ name: 'bench', context: { cluster: 'bench', user: name } }],
        'current-context': 'bench',
      }),
    );
    identities[tool] = { user: `system:serviceaccount:${IDENTITY_NS}:${name}`, kubeconfig };
  }

  return {
    cluster,
    clusterStart,
    sizes,
    drainNode,
    identities,
    kubectl: cluster.kubectl,
    /** Back to the state before a destructive scenario (not timed). */
    reset: {
      bench: () => refill('bench', 'bench', sizes.bench),
      'bench-1k': () => refill('bench-1k', 'thousand', sizes['bench-1k']),
      drain: async () => {
        const node = await core.readNode({ name: drainNode });
        if (node.spec?.unschedulable) {
          node.spec.unschedulable = false;
          await core.replaceNode({ name: drainNode, body: node });
        }
        await settled('bench-drain', 'drain', sizes.drain);
      },
      mesh: async () => {},
    },
    /** Names of `n` random pods of the big deployment (kubectl's targets). */
    randomPods: async (ns, app, n) => {
      const names = (await podsOf(ns, app)).map((p) => p.name);
      for (let i = names.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [names[i], names[j]] = [names[j], names[i]];
      }
      return names.slice(0, n);
    },
    stop: () => cluster.stop(),
  };
}
