// chaoskit's activities against the Python originals (chaostoolkit-kubernetes 0.25.1, called
// in-process, so Chaos Toolkit's CLI start-up is not counted) and kubectl, on the same local
// cluster in the same run. Numbers to report, not assertions.
//
//   node bench/activities.mjs [--pods 1000] [--kill 100] [--rounds 3]
import { execFile } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { countPods, terminatePods } from '../packages/chaoscluster-pod/dist/index.js';
import { start } from '../packages/cluster/dist/index.js';
import { ensurePythonOriginals } from '../packages/conformance/dist/differential/python-env.js';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '1000' },
    kill: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
  },
});
const PODS = Number(values.pods);
const KILL = Number(values.kill);
const ROUNDS = Number(values.rounds);

const log = (line) => process.stderr.write(`${line}\n`);
const chaos = await ensurePythonOriginals(log);
const python = chaos.replace(/chaos$/, 'python');

log(`starting a local cluster with 10 nodes and ${PODS} pods…`);
const cluster = await start({ provider: 'local', nodes: 10, mesh: false });
const kc = new KubeConfig();
kc.loadFromString(cluster.kubeconfig);
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
const secrets = {
  CLUSTER_HOST: cluster.credentials.server,
  CLUSTER_API_KEY: cluster.credentials.token,
  CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
};
const env = { ...process.env, KUBECONFIG: cluster.kubeconfigPath };
const ns = 'bench';

async function runningPods() {
  let n = 0;
  let cont;
  do {
    const page = await core.listNamespacedPod({
      namespace: ns,
      labelSelector: 'app=bench',
      limit: 500,
      ...(cont ? { _continue: cont } : {}),
    });
    n += page.items.filter((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp).length;
    cont = page.metadata?._continue;
  } while (cont);
  return n;
}

async function waitForPods() {
  for (;;) {
    if ((await runningPods()) >= PODS) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

const timed = async (fn) => {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  await core.createNamespace({ body: { metadata: { name: ns } } });
  for (let i = 0; i < 100; i++) {
    if ((await core.listNamespacedServiceAccount({ namespace: ns })).items.length) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await apps.createNamespacedDeployment({
    namespace: ns,
    body: {
      metadata: { name: 'bench' },
      spec: {
        replicas: PODS,
        selector: { matchLabels: { app: 'bench' } },
        template: {
          metadata: { labels: { app: 'bench' } },
          spec: {
            terminationGracePeriodSeconds: 0,
            containers: [{ name: 'c', image: 'example.invalid/c:1' }],
          },
        },
      },
    },
  });
  await waitForPods();
  log(`${PODS} pods running`);

  const pyCall = (code) =>
    run(python, ['-c', `import time, logzero, logging\nlogzero.loglevel(logging.WARNING)\n${code}`], {
      env,
    }).then(({ stdout }) => Number(stdout.trim().split('\n').at(-1)));
  const results = {
    count: { chaoskit: [], python: [], kubectl: [] },
    terminate: { chaoskit: [], python: [], kubectl: [] },
  };

  for (let round = 1; round <= ROUNDS; round++) {
    // count_pods: one list of every pod of the namespace by label.
    results.count.chaoskit.push(await timed(() => countPods({ labelSelector: 'app=bench', ns, secrets })));
    results.count.python.push(
      await pyCall(
        `from chaosk8s.pod.probes import count_pods\nt=time.time(); count_pods(label_selector='app=bench', ns='${ns}'); print(time.time()-t)`,
      ),
    );
    results.count.kubectl.push(
      await timed(() =>
        run(cluster.kubectl, ['get', 'pods', '-n', ns, '-l', 'app=bench', '-o', 'name'], {
          env,
          maxBuffer: 1 << 26,
        }),
      ),
    );

    // terminate_pods: KILL pods, grace 0; the deployment replaces them between measurements.
    results.terminate.chaoskit.push(
      await timed(() =>
        terminatePods({ labelSelector: 'app=bench', ns, qty: KILL, gracePeriod: 0, secrets }),
      ),
    );
    await waitForPods();
    results.terminate.python.push(
      await pyCall(
        `from chaosk8s.pod.actions import terminate_pods\nt=time.time(); terminate_pods(label_selector='app=bench', ns='${ns}', qty=${KILL}, grace_period=0); print(time.time()-t)`,
      ),
    );
    await waitForPods();
    const { stdout } = await run(
      cluster.kubectl,
      ['get', 'pods', '-n', ns, '-l', 'app=bench', '-o', 'name'],
      { env, maxBuffer: 1 << 26 },
    );
    const names = stdout.trim().split('\n').sort().slice(0, KILL);
    results.terminate.kubectl.push(
      await timed(() =>
        run(cluster.kubectl, ['delete', '-n', ns, '--grace-period=0', '--wait=false', ...names], {
          env,
          maxBuffer: 1 << 26,
        }),
      ),
    );
    await waitForPods();
    log(`round ${round} done`);
  }

  console.log(`\n${PODS} pods, ${ROUNDS} rounds, median seconds (ratio to chaoskit):`);
  for (const [what, r] of Object.entries(results)) {
    const base = median(r.chaoskit);
    const cell = (xs) => `${median(xs).toFixed(3)} s (${(median(xs) / base).toFixed(2)}×)`;
    console.log(
      `${what === 'count' ? 'count_pods' : `terminate_pods qty ${KILL}`}: chaoskit ${base.toFixed(3)} s · Python original ${cell(r.python)} · kubectl ${cell(r.kubectl)}`,
    );
  }
} finally {
  await cluster.stop();
}
