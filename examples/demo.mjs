// The demo: a disposable local cluster, the sample app, the example experiments run by the
// `chaoskit` command, a summary of their journals, and the cluster stopped again. With istiod
// (built once, like the other binaries), the mesh experiment's fault is also seen on real
// requests through the mesh, before, during and after it.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureIstiod, ensureMeshProbe, start } from '@chaoskit/cluster';
import { CoreV1Api, KubeConfig, KubernetesObjectApi, loadAllYaml } from '@kubernetes/client-node';
import { describeTraffic, webTraffic } from './web-traffic.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = join(here, '..', 'packages', 'runner', 'dist', 'cli.js');
const experiments = ['kill-web-pods.yaml', 'drain-a-node.yaml', 'abort-web-requests.yaml'];
const MESH_EXPERIMENT = 'abort-web-requests.yaml';

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
console.log(`demo: starting a local cluster (3 kwok nodes${istiod ? ', istiod' : ''})…`);
const cluster = await start({
  provider: 'local',
  nodes: [
    { name: 'node-a', labels: { 'chaoskit.io/demo': 'drain' } },
    { name: 'node-b' },
    { name: 'node-c' },
  ],
  ...(istiod ? { mesh: 'istiod' } : {}),
});
const results = [];
let traffic;
try {
  console.log(
    `demo: cluster ready in ${((Date.now() - began) / 1000).toFixed(1)}s; KUBECONFIG=${cluster.kubeconfigPath}`,
  );
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  const objects = KubernetesObjectApi.makeApiClient(kc);
  for (const file of ['web.yaml', 'web-virtualservice.yaml']) {
    for (const doc of loadAllYaml(await readFile(join(here, 'app', file), 'utf8'))) {
      await objects.create({ ...doc, metadata: { ...doc.metadata, namespace: 'default' } });
    }
  }
  const core = kc.makeApiClient(CoreV1Api);
  for (let i = 0; i < 300; i++) {
    const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=web' });
    if (pods.items.filter((p) => p.status?.phase === 'Running').length === 3) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log('demo: sample app deployed: web, 3 replicas running, and its VirtualService');
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
    if (seen) {
      seen.after = await traffic.onceHealthy(10_000);
      console.log(`demo: web traffic after the rollback: ${describeTraffic(seen.after)}`);
    }
    const journal = JSON.parse(await readFile(journalPath, 'utf8'));
    results.push({ file, code, journal, traffic: seen });
  }
} finally {
  console.log('\ndemo: stopping the cluster…');
  await traffic?.stop();
  await cluster.stop();
}

console.log('\n=== summary of the journals ===');
for (const { file, code, journal, traffic: seen } of results) {
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
const ok = results.every((r) => r.code === 0) && trafficOk;
console.log(
  `\ndemo: ${ok ? 'every experiment completed with its steady state met' : 'some experiment did not complete as expected'} (${((Date.now() - began) / 1000).toFixed(1)}s)`,
);
process.exitCode = ok ? 0 : 1;
