// The demo: a disposable local cluster, the sample app, the example experiments run by the
// `chaoskit` command, a summary of their journals, and the cluster stopped again.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { start } from '@chaoskit/cluster';
import { CoreV1Api, KubeConfig, KubernetesObjectApi, loadAllYaml } from '@kubernetes/client-node';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = join(here, '..', 'packages', 'runner', 'dist', 'cli.js');
const experiments = ['kill-web-pods.yaml', 'drain-a-node.yaml', 'abort-web-requests.yaml'];

const began = Date.now();
console.log('demo: starting a local cluster (3 kwok nodes)…');
const cluster = await start({
  provider: 'local',
  nodes: [
    { name: 'node-a', labels: { 'chaoskit.io/demo': 'drain' } },
    { name: 'node-b' },
    { name: 'node-c' },
  ],
});
const results = [];
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

  for (const file of experiments) {
    const journalPath = join(cluster.dir, `${file}.journal.json`);
    console.log(`\ndemo: chaoskit run examples/experiments/${file}`);
    const code = await new Promise((resolve) => {
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
    const journal = JSON.parse(await readFile(journalPath, 'utf8'));
    results.push({ file, code, journal });
  }
} finally {
  console.log('\ndemo: stopping the cluster…');
  await cluster.stop();
}

console.log('\n=== summary of the journals ===');
for (const { file, code, journal } of results) {
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
}
/** A VirtualService is summarised by its routes' faults; anything else is shown as it is. */
function brief(output) {
  if (output?.kind === 'VirtualService') {
    return `VirtualService ${output.metadata.name}: ${output.spec.http.map((h) => `${h.name ?? 'route'} fault ${JSON.stringify(h.fault ?? null)}`).join(', ')}`;
  }
  return JSON.stringify(output);
}

const ok = results.every((r) => r.code === 0);
console.log(
  `\ndemo: ${ok ? 'every experiment completed with its steady state met' : 'some experiment did not complete as expected'} (${((Date.now() - began) / 1000).toFixed(1)}s)`,
);
process.exitCode = ok ? 0 : 1;
