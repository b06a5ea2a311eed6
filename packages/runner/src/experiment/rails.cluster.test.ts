// The safety rails (D74): a change in a protected namespace, a selection of every node, most of
// a namespace's pods at once, and a run not confirmed are refused before anything changes (the
// audit log shows no write by the run's identity); allowed in so many words, they run.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDryRun, isMutation, readAuditLog } from '@chaoskit/cluster';
import { deploy, serviceAccountToken, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import { runCli, runOnTerminal } from '../testing/test-cli.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const apps = cluster.kc.makeApiClient(AppsV1Api);
const rbac = cluster.kc.makeApiClient(RbacAuthorizationV1Api);
let dir: string;
let ns: Awaited<ReturnType<typeof testNamespace>>;
let identity: string;
let env: NodeJS.ProcessEnv;
const unique = `rails-${process.pid}`;

const chaoskit = (args: string[]) => runCli(args, { env, cwd: dir });

/** `chaoskit run --confirm` on a terminal (`script` gives it one), answering `answer`. */
const onTerminal = (args: string[], answer: string) => runOnTerminal(args, answer, { env, cwd: dir });

const action = (func: string, module: string, args: Record<string, unknown>) => ({
  type: 'action',
  name: func,
  provider: { type: 'python', module, func, arguments: args },
});

async function experimentFile(name: string, method: unknown[], extra: Record<string, unknown> = {}) {
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, dump({ title: name, description: `the rails: ${name}`, method, ...extra }));
  return file;
}

const writesSince = async (since: Date) =>
  (await readAuditLog(cluster.auditLogPath, { user: identity, since }))
    .filter(isMutation)
    .map(
      (e) => `${e.verb} ${e.objectRef?.resource} ${e.objectRef?.namespace ?? ''}/${e.objectRef?.name ?? ''}`,
    );

const requestsSince = async (since: Date) =>
  (await readAuditLog(cluster.auditLogPath, { user: identity, since })).length;

async function podUids(namespace: string, selector: string) {
  const pods = await core.listNamespacedPod({ namespace, labelSelector: selector });
  return pods.items
    .filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => p.metadata!.uid!)
    .sort();
}

const journalOf = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-rails-'));
  ns = await testNamespace(cluster.kc, 'rails');
  // Rails are chaoskit's, not RBAC's: the identity may do anything.
  const operator = await serviceAccountToken(cluster.kc, ns.name, 'operator', [
    { role: 'cluster-admin', clusterBinding: unique },
  ]);
  identity = operator.identity;
  env = {
    ...process.env,
    CLUSTER_HOST: cluster.credentials.server,
    CLUSTER_API_KEY: operator.token,
    CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
    KUBECONFIG: '/nonexistent',
    CHAOSKIT_LEDGER_NAMESPACE: ns.name,
  };
  delete env.CLUSTERCONFIG;
  await deploy(cluster.kc, ns.name, 'web', 5);
});

afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: unique }).catch(() => undefined);
  await apps.deleteNamespacedDeployment({ name: unique, namespace: 'kube-system' }).catch(() => undefined);
  await core.deleteNode({ name: unique }).catch(() => undefined);
  await core
    .deleteCollectionNamespacedPod({ namespace: 'kube-system', labelSelector: `app=${unique}` })
    .catch(() => undefined);
  await ns.remove();
  await rm(dir, { recursive: true, force: true });
});

describe('the namespace rail', () => {
  it('refuses an action in kube-system in validate, plan and run, before a single request', async () => {
    const file = await experimentFile('kube-system', [
      action('terminate_pods', 'chaoscluster.pod.actions', { ns: 'kube-system', all: true }),
    ]);
    const since = new Date();
    const expected =
      /terminate_pods: argument 'ns': 'kube-system' is a system namespace, changed only when allowed explicitly: run with --allow-namespace kube-system, or add to the experiment: extensions: \[\{name: chaoskit, allow_namespaces: \[kube-system\]\}\]/;
    for (const command of ['validate', 'plan', 'run']) {
      const journal = command === 'run' ? ['--journal-path', join(dir, 'ks.json')] : [];
      const out = await chaoskit([command, file, ...journal]);
      // validate and plan say invalid as chaos validate does; run was refused (D89).
      expect(out.code, out.stderr).toBe(command === 'run' ? EXIT.refused : 1);
      expect(out.stderr).toMatch(expected);
    }
    expect(existsSync(join(dir, 'ks.json'))).toBe(false);
    expect(await requestsSince(since)).toBe(0);
  });

  it('protects the namespaces the user names, on the command line or in the experiment', async () => {
    const method = [
      action('terminate_pods', 'chaoscluster.pod.actions', { ns: ns.name, label_selector: 'app=web' }),
    ];
    const before = await podUids(ns.name, 'app=web');
    const since = new Date();
    const flagged = await chaoskit([
      'run',
      await experimentFile('protected-flag', method),
      '--protect-namespace',
      ns.name,
    ]);
    const declared = await chaoskit([
      'run',
      await experimentFile('protected-extension', method, {
        extensions: [{ name: 'chaoskit', protect_namespaces: [ns.name] }],
      }),
    ]);
    for (const out of [flagged, declared]) {
      expect(out.code).toBe(EXIT.refused);
      expect(out.stderr).toContain(`argument 'ns': '${ns.name}' is a protected namespace`);
    }
    expect(await requestsSince(since)).toBe(0);
    expect(await podUids(ns.name, 'app=web')).toEqual(before);
  });

  it('lets an action change kube-system when allowed by flag or by the experiment', async () => {
    for (const [i, how] of ['flag', 'extension'].entries()) {
      const name = `${unique}-${i}`;
      await core.createNamespacedPod({
        namespace: 'kube-system',
        body: {
          metadata: { name, labels: { app: unique } },
          spec: { containers: [{ name: 'app', image: 'example.invalid/app:1' }] },
        },
      });
      const method = [
        action('terminate_pods', 'chaoscluster.pod.actions', {
          ns: 'kube-system',
          name_pattern: `^${name}$`,
          label_selector: `app=${unique}`,
          grace_period: 0,
        }),
      ];
      const out =
        how === 'flag'
          ? await chaoskit([
              'run',
              await experimentFile(`allowed-${how}`, method),
              '--allow-namespace',
              'kube-system',
            ])
          : await chaoskit([
              'run',
              await experimentFile(`allowed-${how}`, method, {
                extensions: [{ name: 'chaoskit', allow_namespaces: ['kube-system'] }],
              }),
            ]);
      expect(out.code, out.stderr).toBe(0);
      await until(`pod ${name} gone`, async () =>
        core.readNamespacedPod({ name, namespace: 'kube-system' }).then(
          () => false,
          () => true,
        ),
      );
    }
  });

  it('refuses a typo in the chaoskit extension, with a did-you-mean', async () => {
    const file = await experimentFile('typo', [], {
      extensions: [{ name: 'chaoskit', allow_namespace: ['kube-system'] }],
    });
    const out = await chaoskit(['validate', file]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /the chaoskit extension: unknown key 'allow_namespace'; did you mean 'allow_namespaces'\?/,
    );
  });
});

describe('the node rail', () => {
  it('refuses a drain of every node at run time: the method stops, no node changes', async () => {
    // The shared cluster's own nodes: files that cordon or delete nodes make nodes of their own.
    const nodes = async () =>
      (await core.listNode()).items
        .filter((n) => cluster.nodes.includes(n.metadata!.name!))
        .map((n) => `${n.metadata!.name}:${n.spec?.unschedulable === true}`)
        .sort();
    const before = await nodes();
    const journal = join(dir, 'all-nodes.json');
    const since = new Date();
    const out = await chaoskit([
      'run',
      await experimentFile('all-nodes', [
        action('drain_nodes', 'chaoscluster.node.actions', {}),
        action('terminate_pods', 'chaoscluster.pod.actions', { ns: ns.name, label_selector: 'app=web' }),
      ]),
      '--journal-path',
      journal,
    ]);
    expect(out.code).toBe(EXIT.refused);
    const result = await journalOf(journal);
    expect(result.status).toBe('aborted');
    // The method stopped at the refusal: the second action never ran.
    expect(result.run).toHaveLength(1);
    expect(result.run[0].exception[0]).toMatch(
      /^Refused: chaoscluster.node.actions.drain_nodes: the selection is every node of the cluster \((\d+) of \1\); .*--allow-all-nodes/,
    );
    expect(await writesSince(since)).toEqual([]);
    expect(await nodes()).toEqual(before);
    expect(before).toHaveLength(cluster.nodes.length);
  });

  it('plan shows the refusal, and with --allow-all-nodes every node it would cordon (nothing changes)', async () => {
    const file = await experimentFile('cordon-all', [action('cordon_node', 'chaoscluster.node.actions', {})]);
    const since = new Date();
    const refused = await chaoskit(['plan', file, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)[0].note).toMatch(/^Refused: .*every node of the cluster/);
    const allowed = await chaoskit(['plan', file, '--json', '--allow-all-nodes']);
    expect(allowed.code, allowed.stderr).toBe(0);
    const all = (await core.listNode()).items.map((n) => n.metadata!.name).sort();
    expect([...JSON.parse(allowed.stdout)[0].output.nodes].sort()).toEqual(all);
    // Every write was a server-side dry run, to a node of the plan's. Not one per node: other
    // tests' nodes of the shared cluster, cordoned by them already, need none. The apiserver logs
    // a request once its answer has left: the last may land after the command has exited.
    const writes = await until('the dry runs in the audit log', async () => {
      const logged = (await readAuditLog(cluster.auditLogPath, { user: identity, since })).filter(isMutation);
      return logged.length > 0 && logged;
    });
    expect(writes.map((w) => w.objectRef?.name).filter((n) => !all.includes(n!))).toEqual([]);
    expect(writes.every(isDryRun)).toBe(true);
  });

  it('drains one node of many, evicting its kube-system pods as kubectl drain does', async () => {
    await core.createNode({
      body: {
        metadata: {
          name: unique,
          labels: { 'kubernetes.io/hostname': unique, type: 'kwok' },
          annotations: { 'kwok.x-k8s.io/node': 'fake' },
        },
        // Only this test's pod lands there: other tests' pods would change what a drain finds.
        spec: { taints: [{ key: unique, value: 'true', effect: 'NoSchedule' }] },
      },
    });
    await until('node Ready', async () =>
      (await core.readNode({ name: unique })).status?.conditions?.some(
        (c) => c.type === 'Ready' && c.status === 'True',
      ),
    );
    await deploy(cluster.kc, 'kube-system', unique, 1, {
      podSpec: {
        nodeSelector: { 'kubernetes.io/hostname': unique },
        tolerations: [{ key: unique, operator: 'Exists', effect: 'NoSchedule' }],
      },
    });
    const before = await podUids('kube-system', `app=${unique}`);
    const out = await chaoskit([
      'run',
      await experimentFile(
        'one-node',
        [action('drain_nodes', 'chaoscluster.node.actions', { name: unique, timeout: 30 })],
        {
          rollbacks: [action('uncordon_node', 'chaoscluster.node.actions', { name: unique })],
        },
      ),
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(`evicted 1 pod(s)`);
    // The kube-system pod was evicted (its Deployment made another, which the cordon kept off the node).
    const after = await podUids('kube-system', `app=${unique}`);
    expect(after.filter((uid) => before.includes(uid))).toEqual([]);
    expect((await core.readNode({ name: unique })).spec?.unschedulable ?? false).toBe(false);
  });
});

describe('the pod share rail', () => {
  it("refuses removing more than 80 % of a namespace's pods; nothing is deleted", async () => {
    const before = await podUids(ns.name, 'app=web');
    expect(before).toHaveLength(5);
    const journal = join(dir, 'share.json');
    const since = new Date();
    const out = await chaoskit([
      'run',
      await experimentFile('share', [
        action('terminate_pods', 'chaoscluster.pod.actions', { ns: ns.name, all: true }),
      ]),
      '--journal-path',
      journal,
    ]);
    expect(out.code).toBe(EXIT.refused);
    const result = await journalOf(journal);
    expect(result.status).toBe('aborted');
    expect(result.run[0].exception[0]).toContain(
      `the selection is 5 of the 5 pods of namespace '${ns.name}' (100 %), more than the 80 % one action may remove; select fewer (qty, label_selector, name_pattern) or run with --max-pod-share 1`,
    );
    expect(await writesSince(since)).toEqual([]);
    expect(await podUids(ns.name, 'app=web')).toEqual(before);
  });

  it('lets 4 of 5 go by default, and all 5 with max_pod_share: 1 in the experiment', async () => {
    for (const [args, extra, gone] of [
      [{ qty: 4 }, {}, 4],
      [{ all: true }, { extensions: [{ name: 'chaoskit', max_pod_share: 1 }] }, 5],
    ] as const) {
      const before = await until('5 web pods', async () => {
        const uids = await podUids(ns.name, 'app=web');
        return uids.length === 5 && uids;
      });
      const out = await chaoskit([
        'run',
        await experimentFile(
          `share-${gone}`,
          [action('terminate_pods', 'chaoscluster.pod.actions', { ns: ns.name, ...args, grace_period: 0 })],
          extra,
        ),
      ]);
      expect(out.code, out.stderr).toBe(0);
      await until(`${gone} pods replaced`, async () => {
        const now = await podUids(ns.name, 'app=web');
        return before.filter((uid) => !now.includes(uid)).length === gone;
      });
    }
  });

  it('lets kill_microservice remove every pod of the microservice it names, and says why the rail let it', async () => {
    const solo = await testNamespace(cluster.kc, 'rails-solo');
    try {
      await deploy(cluster.kc, solo.name, 'solo', 2, { labels: { name: 'solo' } });
      const journal = join(dir, 'solo.json');
      const out = await chaoskit([
        'run',
        await experimentFile('solo', [
          action('kill_microservice', 'chaoscluster.actions', { name: 'solo', ns: solo.name }),
        ]),
        '--journal-path',
        journal,
      ]);
      // The deployment it deleted stays deleted (no rollback): the run says so with 5 (D89).
      expect(out.code, out.stderr).toBe(5);
      const run = (await journalOf(journal)).run[0];
      expect(run.status).toBe('succeeded');
      expect(run.logs).toContainEqual(
        'pod share rail: not applied to 2 pod(s): the experiment names its target (the rail guards selections)',
      );
      await until('the deployment deleted', async () =>
        apps.readNamespacedDeployment({ name: 'solo', namespace: solo.name }).then(
          () => false,
          () => true,
        ),
      );
    } finally {
      await solo.remove();
    }
  });

  it('still refuses kill_microservice whose label selector (not its name) selects every pod', async () => {
    const solo = await testNamespace(cluster.kc, 'rails-solosel');
    try {
      await deploy(cluster.kc, solo.name, 'solo', 2, { labels: { name: 'solo', app: 'solo' } });
      const since = new Date();
      const journal = join(dir, 'solosel.json');
      const out = await chaoskit([
        'run',
        await experimentFile('solosel', [
          action('kill_microservice', 'chaoscluster.actions', {
            name: 'solo',
            ns: solo.name,
            label_selector: 'app=solo',
          }),
        ]),
        '--journal-path',
        journal,
      ]);
      expect(out.code).toBe(EXIT.refused);
      expect((await journalOf(journal)).run[0].exception[0]).toMatch(
        /^Refused: chaoscluster.actions.kill_microservice: the selection is 2 of the 2 pods/,
      );
      expect(await writesSince(since)).toEqual([]);
      await apps.readNamespacedDeployment({ name: 'solo', namespace: solo.name });
    } finally {
      await solo.remove();
    }
  });
});

describe('run --confirm', () => {
  const kill = () => [
    action('terminate_pods', 'chaoscluster.pod.actions', {
      ns: ns.name,
      label_selector: 'app=web',
      grace_period: 0,
    }),
  ];

  it('refuses to start without a terminal to ask on', async () => {
    const since = new Date();
    const out = await chaoskit(['run', await experimentFile('confirm-pipe', kill()), '--confirm']);
    expect(out.code).toBe(EXIT.refused);
    expect(out.stderr).toContain('--confirm asks on a terminal, and stdin is not one');
    expect(await requestsSince(since)).toBe(0);
  });

  it('asks before the first change: "n" changes nothing, "y" goes ahead', async () => {
    const before = await until('5 web pods', async () => {
      const uids = await podUids(ns.name, 'app=web');
      return uids.length === 5 && uids;
    });
    const file = await experimentFile('confirm', kill(), {
      rollbacks: [
        action('scale_deployment', 'chaoscluster.deployment.actions', {
          ns: ns.name,
          name: 'web',
          replicas: 5,
        }),
      ],
    });
    const since = new Date();
    const no = await onTerminal(['run', file, '--confirm', '--journal-path', join(dir, 'no.json')], 'n');
    expect(no.code).toBe(EXIT.refused);
    expect(no.stdout).toMatch(
      new RegExp(
        `chaoscluster.pod.actions.terminate_pods is about to delete pod \\S+ in namespace ${ns.name}.*Go ahead with the run's changes\\? \\[y/N\\]`,
      ),
    );
    expect(no.stdout).toContain('Rollbacks not played: the run was not confirmed, so it changed nothing');
    expect((await journalOf(join(dir, 'no.json'))).status).toBe('aborted');
    expect(await writesSince(since)).toEqual([]);
    expect(await podUids(ns.name, 'app=web')).toEqual(before);

    const yes = await onTerminal(['run', file, '--confirm', '--journal-path', join(dir, 'yes.json')], 'y');
    expect(yes.code, yes.stdout).toBe(0);
    expect((await journalOf(join(dir, 'yes.json'))).run[0].output.pods).toHaveLength(1);
    await until('the pod replaced', async () => {
      const now = await podUids(ns.name, 'app=web');
      return before.some((uid) => !now.includes(uid));
    });
  });
});
