// The demo: a disposable local cluster, the sample app, the example experiments run by the
// `chaoskit` command, a summary of their journals, and the cluster stopped again. Where the
// machine runs real nodes, web runs there (chaoskit's web app in containers) and a client sends
// requests through its Service before, during and after the pod kill and the drain. With istiod
// (built once, like the other binaries), the mesh experiment's fault is also seen on real
// requests through the mesh, before, during and after it.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureIstiod, ensureMeshProbe, start } from '@chaoskit/cluster';
import {
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  loadAllYaml,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import { describeWindow, onRealNodes, realTraffic } from './real-traffic.mjs';
import { describeTraffic, webTraffic } from './web-traffic.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = join(here, '..', 'packages', 'runner', 'dist', 'bin.js');
const experiments = ['kill-web-pods.yaml', 'drain-a-node.yaml', 'abort-web-requests.yaml'];
const MESH_EXPERIMENT = 'abort-web-requests.yaml';
/** The experiments whose effect the real nodes' client sees. */
const SERVICE_EXPERIMENTS = ['kill-web-pods.yaml', 'drain-a-node.yaml'];
const DRAIN_LABEL = 'chaoskit.io/demo';
const settle = () => new Promise((r) => setTimeout(r, 3000));

const began = Date.now();
let istiod = true;
try {
  await ensureIstiod();
  await ensureMeshProbe();
} catch (err) {
  istiod = false;
  console.log(
    `demo: istiod could not be built (${String(err.message).split('\n')[0]}); the mesh experiment checks the VirtualService only`,
  );
}
console.log(
  `demo: starting a local cluster (3 kwok nodes, 2 real nodes where this machine runs them${istiod ? ', istiod' : ''})…`,
);
const cluster = await start({
  provider: 'local',
  nodes: [{ name: 'node-a' }, { name: 'node-b' }, { name: 'node-c' }],
  realNodes: 2,
  ...(istiod ? { mesh: 'istiod' } : {}),
});
const real = cluster.realNodes.length > 0;
const results = [];
let traffic;
try {
  console.log(
    `demo: cluster ready in ${((Date.now() - began) / 1000).toFixed(1)}s; KUBECONFIG=${cluster.kubeconfigPath}`,
  );
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const core = kc.makeApiClient(CoreV1Api);
  // The drain experiment drains the node labelled chaoskit.io/demo=drain: a real one if any.
  const drained = real ? cluster.realNodes[0] : 'node-a';
  await core.patchNode(
    { name: drained, body: { metadata: { labels: { [DRAIN_LABEL]: 'drain' } } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  if (!real) console.log(`demo: no real nodes (${cluster.realNodesUnavailable}): web runs on kwok nodes`);
  for (const file of ['web.yaml', 'web-virtualservice.yaml']) {
    for (const doc of loadAllYaml(await readFile(join(here, 'app', file), 'utf8'))) {
      const placed = real && doc.kind === 'Deployment' ? onRealNodes(doc, cluster.images) : doc;
      await objects.create({ ...placed, metadata: { ...placed.metadata, namespace: 'default' } });
    }
  }
  for (let i = 0; i < 1200; i++) {
    const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' });
    const ready = pods.items.filter((p) =>
      p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
    );
    if (ready.length === 3) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(
    `demo: sample app deployed: web, 3 replicas ${real ? `ready on the real nodes ${cluster.realNodes.join(', ')}` : 'running'}, and its VirtualService`,
  );
  const service = real ? await realTraffic(kc, 'default', cluster.images, cluster.realNodes[1]) : undefined;
  if (service)
    console.log(
      `demo: a client pod sends HTTP and gRPC requests to web through its Service (ClusterIP ${service.ip}) every 100 ms`,
    );
  if (cluster.istiod) {
    traffic = await webTraffic(cluster, 'default');
    console.log(
      `demo: web answers real gRPC requests through the mesh: ${traffic.host} (a backend on 127.0.0.1, subset v1), clients configured by istiod`,
    );
  }

  for (const file of experiments) {
    const journalPath = join(cluster.dir, `${file}.journal.json`);
    console.log(`\ndemo: chaoskit run examples/experiments/${file}`);
    const seen = file === MESH_EXPERIMENT && traffic ? {} : undefined;
    const through = service && SERVICE_EXPERIMENTS.includes(file) ? {} : undefined;
    const startedAt = Date.now();
    if (through) {
      through.before = await service.window(startedAt - 3000, startedAt);
      console.log(`demo: requests through the Service before: ${describeWindow(through.before)}`);
    }
    if (seen) {
      seen.before = await traffic.send();
      console.log(`demo: web traffic before the fault: ${describeTraffic(seen.before)}`);
    }
    const exited = new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [cli, 'run', join(here, 'experiments', file), '--journal-path', journalPath],
        {
          stdio: 'inherit',
          env: { ...process.env, CLUSTERCONFIG: cluster.kubeconfigPath, DEMO_NAMESPACE: 'default' },
        },
      );
      child.on('exit', resolve);
    });
    if (seen) {
      // The experiment leaves its fault in place for a few seconds (a pause after the action).
      seen.during = await traffic.whileFaulty(20_000);
      console.log(`demo: web traffic during the fault: ${describeTraffic(seen.during)}`);
    }
    const code = await exited;
    if (through) {
      const endedAt = Date.now();
      await settle();
      through.during = await service.window(startedAt, endedAt);
      through.after = await service.window(endedAt, Date.now());
      console.log(`demo: requests through the Service during: ${describeWindow(through.during)}`);
      console.log(`demo: requests through the Service after: ${describeWindow(through.after)}`);
    }
    if (seen) {
      seen.after = await traffic.onceHealthy(10_000);
      console.log(`demo: web traffic after the rollback: ${describeTraffic(seen.after)}`);
    }
    const journal = JSON.parse(await readFile(journalPath, 'utf8'));
    results.push({ file, code, journal, traffic: seen, service: through });
    if (through) await settle();
  }
} finally {
  console.log('\ndemo: stopping the cluster…');
  await traffic?.stop();
  await cluster.stop();
}

console.log('\n=== summary of the journals ===');
for (const { file, code, journal, traffic: seen, service: through } of results) {
  const touched = journal.run.map(
    (r) => `${r.activity.name}: ${r.status}${r.output ? ` ${brief(r.output)}` : ''}`,
  );
  console.log(
    `${file}: status ${journal.status}${journal.deviated ? ' (deviated)' : ''}, exit ${code}, ${journal.duration.toFixed(1)}s`,
  );
  console.log(
    `  steady state before: ${journal.steady_states.before?.steady_state_met}, after: ${journal.steady_states.after?.steady_state_met}`,
  );
  for (const line of touched) console.log(`  ${line}`);
  for (const r of journal.rollbacks)
    console.log(`  rollback ${r.activity.name}: ${r.status}${r.output ? ` ${brief(r.output)}` : ''}`);
  if (through)
    for (const when of ['before', 'during', 'after'])
      console.log(`  requests through the Service ${when}: ${describeWindow(through[when])}`);
  if (file === MESH_EXPERIMENT) {
    if (!seen)
      console.log('  traffic: not measured (no istiod: the VirtualService was checked, not requests)');
    for (const when of ['before', 'during', 'after'])
      if (seen) console.log(`  traffic ${when}: ${describeTraffic(seen[when])}`);
  }
}
/** A VirtualService is summarised by its routes' faults; anything else is shown as it is. */
function brief(output) {
  if (output?.kind === 'VirtualService') {
    return `VirtualService ${output.metadata.name}: ${output.spec.http.map((h) => `${h.name ?? 'route'} fault ${JSON.stringify(h.fault ?? null)}`).join(', ')}`;
  }
  return JSON.stringify(output);
}

// With traffic, the fault must have hit requests and the rollback undone it.
const trafficOk = results.every(
  (r) =>
    !r.traffic || (r.traffic.before.failures === 0 && r.traffic.during && r.traffic.after.failures === 0),
);
// On real nodes, web must answer through its Service again once each experiment is over.
const serviceOk = results.every(
  (r) => !r.service || (r.service.after.requests > 0 && r.service.after.failed === 0),
);
const ok = results.every((r) => r.code === 0) && trafficOk && serviceOk;
console.log(
  `\ndemo: ${ok ? 'every experiment completed with its steady state met' : 'some experiment did not complete as expected'} (${((Date.now() - began) / 1000).toFixed(1)}s)`,
);
process.exitCode = ok ? 0 : 1;
