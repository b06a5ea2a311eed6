import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countPods } from '@chaoskit/chaoscluster-pod';
import { isDryRun, isMutation, readAuditLog } from '@chaoskit/cluster';
import {
  deploy,
  kubeconfigYaml,
  serviceAccountToken,
  sharedCluster,
  testNamespace,
} from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/test-cli.js';

const examples = fileURLToPath(new URL('../../../examples/experiments/', import.meta.url));
const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const apps = cluster.kc.makeApiClient(AppsV1Api);
let dir: string;
let identity: string;
let kubeconfig: string;
let token: string;
const namespaces: Array<Awaited<ReturnType<typeof testNamespace>>> = [];

// The `chaoskit` command as users run it (built by `./dev test` before the tests).
const chaoskit = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(args, {
    env: { ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: kubeconfig, ...env },
    cwd: dir,
  });

async function namespace(prefix: string): Promise<string> {
  const ns = await testNamespace(cluster.kc, prefix);
  namespaces.push(ns);
  return ns.name;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-experiments-'));
  const home = await namespace('runner-id');
  const runner = await serviceAccountToken(cluster.kc, home, 'runner', [
    { role: 'cluster-admin', clusterBinding: `chaoskit-runner-${home}` },
  ]);
  ({ token, identity } = runner);
  kubeconfig = join(dir, 'runner.kubeconfig');
  await writeFile(
    kubeconfig,
    kubeconfigYaml(cluster.credentials, { runner: { token } }, { runner: 'runner' }, 'runner'),
  );
});
afterAll(async () => {
  await cluster.kc
    .makeApiClient(RbacAuthorizationV1Api)
    .deleteClusterRoleBinding({ name: `chaoskit-runner-${namespaces[0]?.name}` })
    .catch(() => undefined);
  for (const ns of namespaces) await ns.remove();
  await rm(dir, { recursive: true, force: true });
});

describe('chaoskit plan', () => {
  it('lists the targets of the example experiments and sends only dry-run mutations', async () => {
    const ns = await namespace('plan');
    // A node of the test's own with the example's label, tainted so only the test's pods land there.
    const node = `plan-node-${ns.slice(-6)}`;
    await core.createNode({
      body: {
        metadata: {
          name: node,
          labels: { 'chaoskit.io/demo': 'drain', type: 'kwok' },
          annotations: { 'kwok.x-k8s.io/node': 'fake' },
        },
        spec: { taints: [{ key: 'chaoskit.io/plan', value: 'x', effect: 'NoSchedule' }] },
      },
    });
    try {
      await deploy(cluster.kc, ns, 'web', 3, {
        podSpec: {
          nodeSelector: { 'chaoskit.io/demo': 'drain' },
          tolerations: [{ key: 'chaoskit.io/plan', operator: 'Exists', effect: 'NoSchedule' }],
        },
      });
      const before = (await core.listNamespacedPod({ namespace: ns })).items
        .map((p) => p.metadata?.name)
        .sort();
      const since = new Date();
      const env = { DEMO_NAMESPACE: ns };
      const kill = await chaoskit(['plan', join(examples, 'kill-web-pods.yaml'), '--json'], env);
      expect(kill.code, kill.stderr).toBe(0);
      const killPlan = (
        JSON.parse(kill.stdout) as Array<{ phase: string; name: string; output: { pods: string[] } }>
      ).filter((p) => p.phase === 'method');
      expect(killPlan[0]!.name).toBe('kill-two-web-pods');
      expect(killPlan[0]!.output.pods).toHaveLength(2);
      for (const pod of killPlan[0]!.output.pods) expect(before).toContain(pod);

      const drain = await chaoskit(['plan', join(examples, 'drain-a-node.yaml'), '--json'], env);
      expect(drain.code, drain.stderr).toBe(0);
      const drainPlan = JSON.parse(drain.stdout) as Array<{
        phase: string;
        name: string;
        output: { nodes: string[]; evicted?: string[] };
      }>;
      expect(drainPlan.map((p) => [p.phase, p.name])).toEqual([
        ['hypothesis', 'web-fully-available'],
        ['method', 'drain-the-demo-node'],
        ['rollbacks', 'uncordon-the-demo-node'],
      ]);
      expect(drainPlan[1]!.output.nodes).toEqual([node]);
      expect(drainPlan[1]!.output.evicted?.sort()).toEqual(before.map((p) => `${ns}/${p}`));

      const mutations = (await readAuditLog(cluster.auditLogPath, { user: identity, since })).filter(
        isMutation,
      );
      expect(mutations.length).toBeGreaterThan(3);
      for (const m of mutations) expect(isDryRun(m), `${m.verb} ${m.requestURI}`).toBe(true);
      // And the cluster says so too: every pod is still there, the node is not cordoned.
      expect(
        (await core.listNamespacedPod({ namespace: ns })).items.map((p) => p.metadata?.name).sort(),
      ).toEqual(before);
      expect((await core.readNode({ name: node })).spec?.unschedulable).toBeFalsy();
    } finally {
      await core.deleteNode({ name: node });
    }
  });

  it('says what would happen, lists the hypothesis probes, and names a namespace that is not there', async () => {
    const ns = await namespace('plan-words');
    await deploy(cluster.kc, ns, 'web', 3);
    const experiment = join(examples, 'kill-web-pods.yaml');
    const plan = await chaoskit(['plan', experiment], { DEMO_NAMESPACE: ns });
    process.stdout.write(`\n$ chaoskit plan kill-web-pods.yaml\n${plan.stdout}${plan.stderr}`);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      'hypothesis · web-fully-available · chaoscluster.deployment.probes.deployment_fully_available\n  probe: not run by plan; a run checks it before and after the method against tolerance true\n',
    );
    expect(plan.stderr).toMatch(/would terminate 2 pod\(s\): web-\S+, web-\S+ \(random choice, seed \d+\)/);
    expect(plan.stdout + plan.stderr).not.toMatch(/\bterminated\b|does not exist/);

    const typo = `${ns}-typo`;
    const missing = await chaoskit(['plan', experiment], { DEMO_NAMESPACE: typo });
    process.stdout.write(
      `\n$ chaoskit plan kill-web-pods.yaml (a namespace that is not there)\n${missing.stdout}${missing.stderr}`,
    );
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stdout).toMatch(
      new RegExp(
        `method · kill-two-web-pods · chaoscluster\\.pod\\.actions\\.terminate_pods\\n  \\{"pods":\\[\\],"seed":\\d+\\}\\n  warning: namespace '${typo}' \\(ns\\) does not exist: nothing there to act on\\n`,
      ),
    );
    expect(missing.stdout).toContain(
      `warning: namespace '${typo}' (ns) does not exist: nothing there to look at\n`,
    );
    expect(missing.stderr).toContain(`no pod of namespace ${typo} matched; nothing would be terminated`);
  });
});

const killExperiment = (module: string, secretKeys: 'CLUSTER' | 'KUBERNETES', ns: string) => ({
  title: `kill the first web pod through ${module}`,
  description: 'the alphabetically first web pod is terminated',
  secrets: {
    k8s: {
      [`${secretKeys}_HOST`]: cluster.credentials.server,
      [`${secretKeys}_API_KEY`]: { type: 'env', key: 'RUNNER_TEST_TOKEN' },
      [`${secretKeys}_CA_CERT_FILE`]: cluster.credentials.caFile,
    },
  },
  'steady-state-hypothesis': {
    title: 'web has 3 running pods',
    probes: [
      {
        type: 'probe',
        name: 'three-running',
        tolerance: 3,
        provider: {
          type: 'python',
          module: module.replace('actions', 'probes'),
          func: 'count_pods',
          secrets: ['k8s'],
          arguments: { label_selector: 'app=web', phase: 'Running', ns },
        },
      },
    ],
  },
  method: [
    {
      type: 'action',
      name: 'kill-first',
      provider: {
        type: 'python',
        module,
        func: 'terminate_pods',
        secrets: ['k8s'],
        arguments: { label_selector: 'app=web', ns, grace_period: 0 },
      },
      pauses: { after: 1 },
    },
  ],
});

describe('Chaos Toolkit experiments', () => {
  it('runs an unchanged chaosk8s.* experiment (KUBERNETES_* secrets) exactly like its chaoscluster.* twin', async () => {
    const outcomes: Array<{ killed: string; first: string; status: string }> = [];
    for (const [module, keys] of [
      ['chaosk8s.pod.actions', 'KUBERNETES'],
      ['chaoscluster.pod.actions', 'CLUSTER'],
    ] as const) {
      const ns = await namespace('twin');
      await deploy(cluster.kc, ns, 'web', 3);
      const first = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=web' })).items
        .map((p) => p.metadata!.name!)
        .sort()[0]!;
      const file = join(dir, `${module}.json`);
      await writeFile(file, JSON.stringify(killExperiment(module, keys, ns)));
      const journalPath = join(dir, `${module}.journal.json`);
      const run = await chaoskit(['run', file, '--journal-path', journalPath], { RUNNER_TEST_TOKEN: token });
      expect(run.code, run.stderr).toBe(0);
      const journal = JSON.parse(await readFile(journalPath, 'utf8'));
      const killed = journal.run[0].output.pods[0] as string;
      // The pod is really gone (its replacement has another name).
      const names = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=web' })).items.map(
        (p) => p.metadata?.name,
      );
      expect(names).not.toContain(killed);
      outcomes.push({ killed, first, status: journal.status });
      // The token never reaches the journal.
      expect(await readFile(journalPath, 'utf8')).not.toContain(token);
    }
    expect(outcomes.map((o) => o.killed === o.first)).toEqual([true, true]);
    expect(outcomes.map((o) => o.status)).toEqual(['completed', 'completed']);
  });

  it('deviates when the method breaks the steady state, and a rollback under --rollback-strategy deviated repairs it', async () => {
    const ns = await namespace('deviate');
    await deploy(cluster.kc, ns, 'web', 2);
    const scale = (replicas: number) => ({
      type: 'action',
      name: `scale-to-${replicas}`,
      provider: {
        type: 'python',
        module: 'chaoscluster.deployment.actions',
        func: 'scale_deployment',
        arguments: { name: 'web', replicas, ns },
      },
    });
    const file = join(dir, 'deviate.yaml');
    await writeFile(
      file,
      dump({
        title: 'web survives a scale to zero',
        description: 'it does not: the hypothesis deviates and the rollback scales back',
        'steady-state-hypothesis': {
          title: 'web available',
          probes: [
            {
              type: 'probe',
              name: 'available',
              tolerance: true,
              provider: {
                type: 'python',
                module: 'chaoscluster.deployment.probes',
                func: 'deployment_fully_available',
                arguments: { name: 'web', ns, timeout: 20 },
              },
            },
            {
              type: 'probe',
              name: 'two-pods',
              tolerance: [2, 3],
              provider: {
                type: 'python',
                module: 'chaoscluster.pod.probes',
                func: 'count_pods',
                arguments: { label_selector: 'app=web', phase: 'Running', ns },
              },
            },
          ],
        },
        method: [
          scale(0),
          { ...scale(0), name: 'wait', provider: { ...scale(0).provider }, pauses: { after: 2 } },
        ],
        rollbacks: [scale(2)],
      }),
    );
    const journalPath = join(dir, 'deviate.journal.json');
    const run = await chaoskit([
      'run',
      file,
      '--journal-path',
      journalPath,
      '--rollback-strategy',
      'deviated',
    ]);
    expect(run.code).toBe(1); // deviated
    const journal = JSON.parse(await readFile(journalPath, 'utf8'));
    expect(journal.steady_states.before.steady_state_met).toBe(true);
    expect(journal.steady_states.after.steady_state_met).toBe(false);
    expect(journal.deviated).toBe(true);
    expect(journal.rollbacks.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: ns })).spec?.replicas).toBe(2);
  });
});

describe('chaoskit call', () => {
  it('prints JSON that matches what the library function returns', async () => {
    const ns = await namespace('call');
    await deploy(cluster.kc, ns, 'web', 2);
    const args = { label_selector: 'app=web', ns };
    const call = await chaoskit([
      'call',
      'chaoscluster.pod.probes',
      'count_pods',
      '--arguments',
      JSON.stringify(args),
    ]);
    expect(call.code, call.stderr).toBe(0);
    const library = await countPods({
      labelSelector: 'app=web',
      ns,
      secrets: {
        CLUSTER_HOST: cluster.credentials.server,
        CLUSTER_API_KEY: token,
        CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
      },
    });
    expect(JSON.parse(call.stdout)).toEqual(library);
    expect(library).toBe(2);
    const bad = await chaoskit(['call', 'chaoscluster.pod.probes', 'count_pods', '--arguments', '{"ns": 3}']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/argument 'label_selector'|argument 'ns'/);
  });
});
