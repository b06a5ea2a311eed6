// The whole callable surface of the Python originals (chaostoolkit-kubernetes 0.25.1,
// chaostoolkit-istio 0.1.4), as Python resolves it: a module exposes what it defines and what it
// imports. Every name resolves, under Chaos Toolkit's module names and under chaoskit's, to the
// one definition; and every name runs on the cluster through `chaoskit call` (Chaos Toolkit's
// names) and in an experiment (chaoskit's names).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { canonicalModule } from '@chaoskit/core/runner';
import { AppsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Journal } from './run/index.js';
import { exec, runCli } from './testing/test-cli.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const apps = cluster.kc.makeApiClient(AppsV1Api);
const objects = cluster.kc.makeApiClient(CustomObjectsApi);

/**
 * module → function → the module of its one definition (its own module when it is defined
 * there). The modules and names are Python's: what each module of the originals defines or
 * imports.
 */
const SURFACE: Record<string, Record<string, string>> = {
  'chaosk8s.probes': {
    all_microservices_healthy: 'chaosk8s.probes',
    all_pods_healthy: 'chaosk8s.pod.probes',
    deployment_available_and_healthy: 'chaosk8s.deployment.probes',
    deployment_fully_available: 'chaosk8s.deployment.probes',
    deployment_is_fully_available: 'chaosk8s.probes',
    deployment_is_not_fully_available: 'chaosk8s.probes',
    deployment_not_fully_available: 'chaosk8s.deployment.probes',
    microservice_available_and_healthy: 'chaosk8s.probes',
    microservice_is_not_available: 'chaosk8s.probes',
    pod_is_not_available: 'chaosk8s.pod.probes',
    // Python: `read_microservices_logs = read_pod_logs`; chaoskit warns that it is deprecated (D47).
    read_microservices_logs: 'chaosk8s.probes',
    read_pod_logs: 'chaosk8s.pod.probes',
    service_endpoint_is_initialized: 'chaosk8s.probes',
    service_is_initialized: 'chaosk8s.service.probes',
  },
  'chaosk8s.actions': {
    create_deployment: 'chaosk8s.deployment.actions',
    delete_deployment: 'chaosk8s.deployment.actions',
    delete_pods: 'chaosk8s.pod.actions',
    delete_replica_set: 'chaosk8s.replicaset.actions',
    delete_service: 'chaosk8s.service.actions',
    kill_microservice: 'chaosk8s.actions',
    remove_service_endpoint: 'chaosk8s.actions',
    scale_deployment: 'chaosk8s.deployment.actions',
    scale_microservice: 'chaosk8s.actions',
    start_microservice: 'chaosk8s.actions',
  },
  'chaosk8s.pod.probes': { all_pods_healthy: 'chaosk8s.pod.probes' },
  'chaosk8s.deployment.probes': { read_pod_logs: 'chaosk8s.pod.probes' },
  'chaosk8s.service.actions': {
    create_service_endpoint: 'chaosk8s.service.actions',
    delete_service: 'chaosk8s.service.actions',
  },
  'chaosk8s.service.probes': {
    service_is_initialized: 'chaosk8s.service.probes',
    read_pod_logs: 'chaosk8s.pod.probes',
    pod_is_not_available: 'chaosk8s.pod.probes',
  },
  'chaosk8s.statefulset.actions': {
    create_statefulset: 'chaosk8s.statefulset.actions',
    scale_statefulset: 'chaosk8s.statefulset.actions',
    remove_statefulset: 'chaosk8s.statefulset.actions',
  },
  'chaosk8s.statefulset.probes': {
    statefulset_fully_available: 'chaosk8s.statefulset.probes',
    statefulset_not_fully_available: 'chaosk8s.statefulset.probes',
  },
  'chaosk8s.replicaset.actions': { delete_replica_set: 'chaosk8s.replicaset.actions' },
  'chaosistio.fault.actions': { get_virtual_service: 'chaosistio.fault.probes' },
};

const names = Object.entries(SURFACE).flatMap(([module, funcs]) =>
  Object.entries(funcs).map(([func, definedIn]) => ({ module, func, definedIn })),
);

const runnerEntry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

describe('the callable surface of the Python originals', () => {
  it('resolves every name, under both module names, to the one definition', async () => {
    // In a process of its own, as users run the built runner: one module instance per package.
    const script = `
      import { resolveActivity } from ${JSON.stringify(runnerEntry)};
      import { canonicalModule } from '@chaoskit/core/runner';
      const out = [];
      for (const { module, func, definedIn } of ${JSON.stringify(names)}) {
        const definition = await resolveActivity(definedIn, func);
        const chaosToolkit = await resolveActivity(module, func);
        const chaoskit = await resolveActivity(canonicalModule(module), func);
        out.push({ name: module + '.' + func, definedIn: definition.qualifiedName, same: chaosToolkit === definition && chaoskit === definition });
      }
      console.log(JSON.stringify(out));`;
    const run = await exec(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      names.map((n) => ({
        name: `${n.module}.${n.func}`,
        definedIn: `${canonicalModule(n.definedIn)}.${n.func}`,
        same: true,
      })),
    );
  });
});

// ----- every name on the cluster ------------------------------------------------------------

interface Step {
  module: string;
  func: string;
  args: Record<string, unknown>;
}

/** The fixtures of one namespace, and the steps that call every name of the surface there. */
async function fixtures(ns: string, stuckNs: string, files: string): Promise<Step[]> {
  const labels = (name: string) => ({ app: name, name });
  const template = (
    podLabels: Record<string, string>,
    container: string,
    nodeSelector?: Record<string, string>,
  ) => ({
    metadata: { labels: podLabels },
    spec: {
      terminationGracePeriodSeconds: 1,
      containers: [{ name: container, image: `example.invalid/${container}:1` }],
      ...(nodeSelector ? { nodeSelector } : {}),
    },
  });
  const deployment = (name: string, replicas: number, nodeSelector?: Record<string, string>) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: labels(name) },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: template(labels(name), 'app', nodeSelector),
    },
  });
  const service = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: labels(name) },
    spec: { selector: { app: name }, ports: [{ port: 80, protocol: 'TCP' }] },
  });
  const statefulSet = (name: string, nodeSelector?: Record<string, string>) => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, labels: labels(name) },
    spec: {
      replicas: 1,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: template({ app: name }, 'db', nodeSelector),
    },
  });
  const replicaSet = (name: string) => ({
    metadata: { name, labels: labels(name) },
    spec: {
      replicas: 1,
      selector: { matchLabels: { rs: name } },
      template: template({ rs: name }, 'app'),
    },
  });
  await apps.createNamespacedDeployment({ namespace: ns, body: deployment('web', 1) });
  await apps.createNamespacedDeployment({
    namespace: stuckNs,
    body: deployment('stuck', 1, { 'chaoskit.io/no-such-node': 'true' }),
  });
  await apps.createNamespacedStatefulSet({
    namespace: stuckNs,
    body: statefulSet('stuck-db', { 'chaoskit.io/no-such-node': 'true' }),
  });
  for (const name of ['cron-a', 'cron-b'])
    await apps.createNamespacedReplicaSet({ namespace: ns, body: replicaSet(name) });
  for (const name of ['web', 'old'])
    await core.createNamespacedService({ namespace: ns, body: service(name) });
  await objects.createNamespacedCustomObject({
    group: 'networking.istio.io',
    version: 'v1alpha3',
    namespace: ns,
    plural: 'virtualservices',
    body: {
      apiVersion: 'networking.istio.io/v1alpha3',
      kind: 'VirtualService',
      metadata: { name: 'routes' },
      spec: { hosts: ['web'], http: [{ route: [{ destination: { host: 'web' } }] }] },
    },
  });
  const apiFile = join(files, `${ns}-api.yaml`);
  await writeFile(apiFile, dump(deployment('api', 1)));
  const frontFile = join(files, `${ns}-front.json`);
  await writeFile(frontFile, JSON.stringify(service('front')));
  const dbFile = join(files, `${ns}-db.yaml`);
  await writeFile(dbFile, dump(statefulSet('db')));
  await waitFor('the web pod and the replica sets ready', async () => {
    const web = await apps.readNamespacedDeployment({ name: 'web', namespace: ns });
    const sets = await apps.listNamespacedReplicaSet({
      namespace: ns,
      labelSelector: 'app in (cron-a,cron-b)',
    });
    return web.status?.readyReplicas === 1 && sets.items.every((s) => s.status?.readyReplicas === 1);
  });
  await waitFor('the stuck deployment observed', async () => {
    const stuck = await apps.readNamespacedDeployment({ name: 'stuck', namespace: stuckNs });
    return (stuck.status?.observedGeneration ?? 0) >= 1;
  });

  const step = (module: string, func: string, args: Record<string, unknown>): Step => ({
    module,
    func,
    args,
  });
  return [
    // The probes first: the namespace is healthy.
    step('chaosk8s.probes', 'all_microservices_healthy', { ns }),
    step('chaosk8s.probes', 'all_pods_healthy', { ns }),
    step('chaosk8s.pod.probes', 'all_pods_healthy', { ns }),
    step('chaosk8s.probes', 'deployment_available_and_healthy', { name: 'web', ns }),
    step('chaosk8s.probes', 'deployment_fully_available', { name: 'web', ns }),
    step('chaosk8s.probes', 'deployment_is_fully_available', { name: 'web', ns }),
    step('chaosk8s.probes', 'deployment_not_fully_available', { name: 'stuck', ns: stuckNs, timeout: 10 }),
    step('chaosk8s.probes', 'deployment_is_not_fully_available', { name: 'stuck', ns: stuckNs, timeout: 10 }),
    step('chaosk8s.probes', 'microservice_available_and_healthy', { name: 'web', ns }),
    step('chaosk8s.probes', 'microservice_is_not_available', { name: 'ghost', ns }),
    step('chaosk8s.probes', 'pod_is_not_available', { name: 'ghost', ns }),
    step('chaosk8s.service.probes', 'pod_is_not_available', { name: 'ghost', ns }),
    step('chaosk8s.probes', 'read_microservices_logs', { name: 'web', ns }),
    step('chaosk8s.probes', 'read_pod_logs', { name: 'web', ns }),
    step('chaosk8s.deployment.probes', 'read_pod_logs', { name: 'web', ns }),
    step('chaosk8s.service.probes', 'read_pod_logs', { name: 'web', ns }),
    step('chaosk8s.probes', 'service_endpoint_is_initialized', { name: 'web', ns }),
    step('chaosk8s.probes', 'service_is_initialized', { name: 'web', ns }),
    step('chaosk8s.service.probes', 'service_is_initialized', { label_selector: 'app=old', ns }),
    step('chaosistio.fault.actions', 'get_virtual_service', { virtual_service_name: 'routes', ns }),
    // Then the actions, each on what the earlier steps left.
    step('chaosk8s.actions', 'create_deployment', { spec_path: apiFile, ns }),
    step('chaosk8s.actions', 'scale_deployment', { name: 'api', replicas: 2, ns }),
    step('chaosk8s.actions', 'scale_microservice', { name: 'api', replicas: 1, ns }),
    step('chaosk8s.actions', 'delete_replica_set', { name: 'cron-a', ns }),
    step('chaosk8s.replicaset.actions', 'delete_replica_set', { name: 'cron-b', ns }),
    step('chaosk8s.actions', 'delete_pods', { name: 'web', ns }),
    step('chaosk8s.actions', 'delete_deployment', { name: 'api', ns }),
    step('chaosk8s.actions', 'start_microservice', { spec_path: apiFile, ns }),
    step('chaosk8s.actions', 'kill_microservice', { name: 'api', ns }),
    step('chaosk8s.actions', 'delete_service', { name: 'web', ns }),
    step('chaosk8s.actions', 'remove_service_endpoint', { name: 'old', ns }),
    step('chaosk8s.service.actions', 'create_service_endpoint', { spec_path: frontFile, ns }),
    step('chaosk8s.service.actions', 'delete_service', { name: 'front', ns }),
    step('chaosk8s.statefulset.actions', 'create_statefulset', { spec_path: dbFile, ns }),
    step('chaosk8s.statefulset.probes', 'statefulset_fully_available', { name: 'db', ns, timeout: 60 }),
    step('chaosk8s.statefulset.actions', 'scale_statefulset', { name: 'db', replicas: 2, ns }),
    step('chaosk8s.statefulset.probes', 'statefulset_not_fully_available', {
      name: 'stuck-db',
      ns: stuckNs,
      timeout: 10,
    }),
    step('chaosk8s.statefulset.actions', 'remove_statefulset', { name: 'db', ns }),
  ];
}

async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** What the cluster shows after every step ran in `ns`: each action's effect. */
async function afterEverything(ns: string) {
  const pods = (await core.listNamespacedPod({ namespace: ns })).items;
  return {
    deployments: (await apps.listNamespacedDeployment({ namespace: ns })).items
      .map((d) => d.metadata?.name)
      .sort(),
    services: (await core.listNamespacedService({ namespace: ns })).items.map((s) => s.metadata?.name).sort(),
    replicaSets: (
      await apps.listNamespacedReplicaSet({ namespace: ns, labelSelector: 'app in (cron-a,cron-b,api)' })
    ).items.length,
    statefulSets: (await apps.listNamespacedStatefulSet({ namespace: ns })).items.length,
    apiPods: pods.filter((p) => p.metadata?.labels?.app === 'api' && !p.metadata.deletionTimestamp).length,
  };
}

const expectedAfter = { deployments: ['web'], services: [], replicaSets: 0, statefulSets: 0, apiPods: 0 };

/** The state after every step, once the garbage collector has followed the deletions. */
async function settled(ns: string) {
  let seen = await afterEverything(ns);
  await waitFor('the deletions followed', async () => {
    seen = await afterEverything(ns);
    return JSON.stringify(seen) === JSON.stringify(expectedAfter);
  }).catch(() => undefined);
  return seen;
}

const chaoskit = (args: string[], cwd: string) =>
  runCli(args, {
    cwd,
    env: { ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath },
  });

describe('every name of the surface on the cluster', () => {
  let files: string;
  const namespaces: Array<Awaited<ReturnType<typeof testNamespace>>> = [];
  const namespace = async (prefix: string) => {
    const ns = await testNamespace(cluster.kc, prefix);
    namespaces.push(ns);
    return ns.name;
  };
  beforeAll(async () => {
    files = await mkdtemp(join(tmpdir(), 'chaoskit-surface-'));
  });
  afterAll(async () => {
    for (const ns of namespaces) await ns.remove();
    await rm(files, { recursive: true, force: true });
  });

  it("runs through chaoskit call, under Chaos Toolkit's module names", async () => {
    const ns = await namespace('surface-call');
    const steps = await fixtures(ns, await namespace('surface-call-stuck'), files);
    const called = new Set<string>();
    for (const s of steps) {
      const run = await chaoskit(['call', s.module, s.func, '--arguments', JSON.stringify(s.args)], files);
      expect(run.code, `${s.module}.${s.func}: ${run.stderr}`).toBe(0);
      called.add(`${s.module}.${s.func}`);
    }
    expect([...called].sort()).toEqual(names.map((n) => `${n.module}.${n.func}`).sort());
    expect(await settled(ns)).toEqual(expectedAfter);
  }, 300_000);

  it("runs in an experiment, under chaoskit's module names", async () => {
    const ns = await namespace('surface-run');
    const steps = await fixtures(ns, await namespace('surface-run-stuck'), files);
    const experiment = {
      title: 'every name of the surface',
      description: 'each function of the Python originals, under chaoskit module names',
      method: steps.map((s, i) => ({
        type: s.module.endsWith('probes') || s.func.startsWith('get_') ? 'probe' : 'action',
        name: `step-${i + 1}-${s.func}`,
        provider: { type: 'python', module: canonicalModule(s.module), func: s.func, arguments: s.args },
      })),
    };
    const file = join(files, `${ns}.yaml`);
    const journalPath = join(files, `${ns}.journal.json`);
    await writeFile(file, dump(experiment));
    const run = await chaoskit(['run', file, '--journal-path', journalPath, '--no-ledger'], files);
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as Journal;
    const failed = journal.run.filter((r) => r.status !== 'succeeded');
    expect(failed.map((r) => `${r.activity.name}: ${r.exception?.join(' ')}`)).toEqual([]);
    expect(run.code, run.stderr).toBe(0);
    expect(journal.status).toBe('completed');
    expect(journal.run).toHaveLength(steps.length);
    expect(new Set(steps.map((s) => `${canonicalModule(s.module)}.${s.func}`)).size).toBe(names.length);
    expect(await settled(ns)).toEqual(expectedAfter);
  }, 300_000);
});
