// No runner holds the keys (D158), tried as an attacker would: two experiments and the reaper
// deployed in one namespace, and the token of one runner — which may only delete pods in `shop`
// — used with every secret and right it holds. It forges records in the one place it may write
// them, sealed with the only key it may read: one claiming changes beyond it (another team's
// Deployment scaled to 0, a node cordoned, a privileged Deployment in kube-system, shop/web
// deleted), one claiming to be the other runner, one claiming to be an administrator. The reaper
// (as its ServiceAccount) and an administrator (`revert`, `--force`) then act on them: the audit
// log, the judge, shows no write of either, and every target is as it was. A genuine record
// saved, reverted and created again does not verify. `kubectl auth can-i` proves what each
// identity may and may not do; the runner's README shows those tables, written from this test
// (CHAOSKIT_WRITE_DOCS=1 writes them; otherwise the README must say what the cluster said).

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isMutation, readAuditLog } from '@chaoskit/cluster';
import {
  accountToken,
  apisOf,
  deploy,
  serviceAccountEnv,
  sharedCluster,
  testNamespace,
  tokenApis,
  tokenEnv,
  until,
} from '@chaoskit/cluster/testing';
import { type LedgerKey, readLedgerKey, recordBinding } from '@chaoskit/core/runner';
import type { CoreV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { activity, python } from '../testing/test-experiments.js';
import { tokenKubeconfig, transportIn } from '../testing/test-identities.js';
import { killedAfter } from '../testing/test-runs.js';

const cluster = sharedCluster();
const { core, apps, rbac } = apisOf(cluster.kc);
const run = promisify(execFile);

let dir: string;
let chaos: Awaited<ReturnType<typeof testNamespace>>;
let shop: Awaited<ReturnType<typeof testNamespace>>;
let other: Awaited<ReturnType<typeof testNamespace>>;
let admin: { identity: string; env: NodeJS.ProcessEnv; kubeconfig: string };
let runner: { token: string; identity: string };
let reaper: { token: string; identity: string };
let node: string;
let began: Date;

const A = 'chaoskit-kill-web';
const B = 'chaoskit-scale-payments';
const NEVER = '0 0 1 1 *';
const chaoskit = (args: string[], env = admin.env) => runCli(args, { env, cwd: dir });
const transportOf = (token: string) => transportIn(tokenEnv(cluster.credentials, token), () => {});

/** What the forged records aim at: what must not change. */
async function targets() {
  const payments = await apps.readNamespacedDeployment({ name: 'payments', namespace: other.name });
  const web = await apps
    .readNamespacedDeployment({ name: 'web', namespace: shop.name })
    .then((d) => d.metadata?.uid)
    .catch(() => undefined);
  const debuggers = (await apps.listNamespacedDeployment({ namespace: 'kube-system' })).items.filter(
    (d) => d.metadata?.name === 'node-debugger',
  );
  return {
    payments: payments.spec?.replicas,
    unschedulable: (await core.readNode({ name: node })).spec?.unschedulable ?? false,
    web,
    debugger: debuggers.length,
  };
}

const past = new Date(Date.now() - 86_400_000).toISOString();
const ref = (apiVersion: string, plural: string, name: string, ns?: string) => ({
  apiVersion,
  plural,
  namespaced: ns !== undefined,
  noun: plural,
  name,
  ...(ns ? { namespace: ns } : {}),
});

/** Changes the runner could never make, as a record would list them. */
function beyond() {
  return {
    // "Scaled payments up from 0": a revert would scale another team's Deployment to 0.
    'o-payments': {
      ref: ref('apps/v1', 'deployments', 'payments', other.name),
      activities: ['chaoscluster.deployment.actions.scale_deployment'],
      original: { '/spec/replicas': { present: true, value: 0 } },
      written: { '/spec/replicas': { present: true, value: 2 } },
    },
    // "Uncordoned a node": a revert would cordon it.
    'o-node': {
      ref: ref('v1', 'nodes', node),
      activities: ['chaoscluster.node.actions.uncordon_node'],
      original: { '/spec/unschedulable': { present: true, value: true } },
      written: { '/spec/unschedulable': { present: false } },
    },
    // "Deleted" a privileged, hostPID Deployment mounting the node's root: a revert would create it.
    'o-debugger': {
      ref: ref('apps/v1', 'deployments', 'node-debugger', 'kube-system'),
      activities: ['chaoscluster.deployment.actions.delete_deployment'],
      original: {},
      written: {},
      deleted: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'node-debugger', namespace: 'kube-system' },
        spec: {
          selector: { matchLabels: { app: 'node-debugger' } },
          template: {
            metadata: { labels: { app: 'node-debugger' } },
            spec: {
              hostPID: true,
              containers: [
                {
                  name: 'root',
                  image: 'busybox',
                  securityContext: { privileged: true },
                  volumeMounts: [{ name: 'host', mountPath: '/host' }],
                },
              ],
              volumes: [{ name: 'host', hostPath: { path: '/' } }],
            },
          },
        },
      },
    },
    // "Created" shop/web: a revert (with --force, as it is not marked) would delete it.
    'o-web': {
      ref: ref('apps/v1', 'deployments', 'web', shop.name),
      activities: ['chaoscluster.deployment.actions.create_deployment'],
      original: {},
      written: {},
      created: true,
    },
  };
}

/** Writes a record as `kube` would: created, then every value sealed with `key` for its uid. */
async function forge(
  kube: CoreV1Api,
  key: LedgerKey,
  name: string,
  runId: string,
  writer: string,
  keyName: string,
): Promise<void> {
  const namespace = chaos.name;
  const created = await kube.createNamespacedConfigMap({
    namespace,
    body: { metadata: { name, labels: { 'chaoskit.io/ledger': 'true', 'chaoskit.io/run': runId } } },
  });
  const values: Record<string, unknown> = {
    run: {
      v: 3,
      runId,
      namespace: chaos.name,
      started: past,
      expires: past,
      title: 'harmless',
      writer: { username: writer },
      key: keyName,
    },
    ...beyond(),
  };
  const data: Record<string, string> = {};
  for (const [k, value] of Object.entries(values)) {
    data[k] = JSON.stringify(value);
    data[`${k}.mac`] = key.seal(recordBinding(chaos.name, name, created.metadata!.uid!, k), data[k]!);
  }
  // Its rights on its record are get and patch (a JSON patch: client-node's default for patch).
  await kube.patchNamespacedConfigMap({ name, namespace, body: [{ op: 'add', path: '/data', value: data }] });
}

/** Every write `user` made (or had made as someone else) since `since`, as `verb uri (code)`. */
const writesOf = async (user: string, since: Date) =>
  (await readAuditLog(cluster.auditLogPath, { user, since }))
    .filter(isMutation)
    .map((e) => `${e.verb} ${e.requestURI} (${e.responseStatus?.code})`);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-keys-'));
  chaos = await testNamespace(cluster.kc, 'keys');
  shop = await testNamespace(cluster.kc, 'keys-shop');
  other = await testNamespace(cluster.kc, 'keys-other');
  node = `${chaos.name}-node`.slice(0, 63);
  await core.createNode({
    body: {
      metadata: { name: node, labels: { type: 'kwok' }, annotations: { 'kwok.x-k8s.io/node': 'fake' } },
      spec: { taints: [{ key: 'chaoskit.io/keys-test', value: 'true', effect: 'NoSchedule' }] },
    },
  });
  await deploy(cluster.kc, shop.name, 'web', 3);
  await deploy(cluster.kc, other.name, 'payments', 2);
  const sa = await serviceAccountEnv(cluster, chaos.name, 'admin', [
    { role: 'cluster-admin', clusterBinding: `${chaos.name}-admin` },
  ]);
  const kubeconfig = await tokenKubeconfig(join(dir, 'admin.kubeconfig'), cluster.credentials, sa.token);
  admin = { identity: sa.identity, env: sa.env, kubeconfig };
  // Two teams' experiments and the reaper, on a schedule that never comes in a test.
  const experiment = (file: string, title: string, action: ReturnType<typeof activity>) =>
    writeFile(join(dir, file), dump({ title, description: title, method: [action] }));
  await experiment(
    'kill-web.yaml',
    'web pods go',
    activity('action', 'kill', 'chaoscluster.pod.actions', 'terminate_pods', {
      ns: shop.name,
      label_selector: 'app=web',
    }),
  );
  await experiment(
    'scale-payments.yaml',
    'payments shrinks',
    activity('action', 'shrink', 'chaoscluster.deployment.actions', 'scale_deployment', {
      name: 'payments',
      replicas: 1,
      ns: other.name,
    }),
  );
  for (const args of [
    ['deploy', 'kill-web.yaml', '-n', chaos.name, '--schedule', NEVER],
    ['deploy', 'scale-payments.yaml', '-n', chaos.name, '--schedule', NEVER],
    ['deploy', '--reaper', '-n', chaos.name, '--schedule', NEVER],
  ]) {
    const out = await chaoskit(args);
    expect(out.code, out.stderr).toBe(0);
  }
  runner = await accountToken(cluster.kc, chaos.name, A);
  reaper = await accountToken(cluster.kc, chaos.name, 'chaoskit-reaper');
  began = new Date();
}, 180_000);

afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: `${chaos.name}-admin` }).catch(() => undefined);
  await core.deleteNode({ name: node }).catch(() => undefined);
  for (const ns of [chaos, shop, other]) await ns?.remove();
  await rm(dir, { recursive: true, force: true });
});

describe("a runner's token, used as an attacker would", () => {
  it('reads its own key and no other: not the other runner’s, not the operators’', async () => {
    const kube = transportOf(runner.token);
    expect(await readLedgerKey(kube, chaos.name, `chaoskit-ledger-key-${A}`)).toBeDefined();
    for (const secret of [`chaoskit-ledger-key-${B}`, 'chaoskit-ledger-key'])
      await expect(readLedgerKey(kube, chaos.name, secret)).rejects.toMatchObject({ code: 'Forbidden' });
  });

  // The one ConfigMap it may change is its own record's: it may create others, but not with a
  // seal bound to a uid the server has not given yet. So it forges there, one claim at a time.
  const claims = () => [
    { runId: 'forged-own', writer: runner.identity, key: `chaoskit-ledger-key-${A}` },
    {
      runId: 'claims-b',
      writer: `system:serviceaccount:${chaos.name}:${B}`,
      key: `chaoskit-ledger-key-${B}`,
    },
    { runId: 'claims-admin', writer: admin.identity, key: 'chaoskit-ledger-key' },
  ];

  it('forges records; the reaper and an administrator act on none of them, and write nothing', async () => {
    const own = (await readLedgerKey(transportOf(runner.token), chaos.name, `chaoskit-ledger-key-${A}`))!;
    const { core: asRunner } = tokenApis(cluster.credentials, runner.token);
    const before = await targets();
    expect(before).toMatchObject({ payments: 2, unschedulable: false, debugger: 0 });
    const slot = 'chaoskit-record-kill-web';
    for (const claim of claims()) {
      await asRunner.deleteNamespacedConfigMap({ name: slot, namespace: chaos.name }).catch(() => undefined);
      await forge(asRunner, own, slot, claim.runId, claim.writer, claim.key);

      const swept = await chaoskit(
        ['revert', '--expired', '--yes', '--ledger-namespace', chaos.name],
        tokenEnv(cluster.credentials, reaper.token),
      );
      // Nothing it could act on was left: one planted record does not fail every sweep.
      expect(swept.code, swept.stderr).toBe(0);
      if (claim.runId === 'forged-own') {
        // It verifies — its own key, naming itself — and all it claims is beyond the runner.
        expect(swept.stdout).toMatch(
          /forged-own: 0 undone, 0 already as they were, 0 refused, 0 failed, 4 beyond its writer/,
        );
        for (const what of [
          `deployments 'payments' in namespace '${other.name}'`,
          `nodes '${node}'`,
          "deployments 'node-debugger' in namespace 'kube-system'",
          `deployments 'web' in namespace '${shop.name}'`,
        ])
          expect(swept.stderr).toContain(`not acted on: ${what}`);
        expect(swept.stderr).toContain(`outside the rights of its writer, ${runner.identity}`);
      } else {
        // Claiming another writer, it verifies with no key: named, nothing in it acted on.
        expect(swept.stderr).toContain(`not verified: ConfigMap ${chaos.name}/${slot} (run ${claim.runId})`);
        expect(swept.stdout).toContain('no expired run');
      }
      expect(await targets()).toEqual(before);

      for (const args of [
        ['revert', claim.runId],
        ['revert', claim.runId, '--force'],
        ['revert', '--expired', '--yes', '--force'],
      ]) {
        const out = await chaoskit([...args, '--ledger-namespace', chaos.name]);
        expect(out.stderr).not.toMatch(/^\S+: (restored|deleted|created)/m);
        // --force is never suggested for what did not verify, nor for what is beyond its writer.
        expect(out.stderr).not.toContain('--force to overwrite');
      }
      expect(await targets()).toEqual(before);
    }
    // The judge: neither the reaper nor the administrator wrote anything, as themselves or as
    // the runner (every request of theirs, impersonating or not, is under their own name).
    expect(await writesOf(reaper.identity, began)).toEqual([]);
    expect(await writesOf(admin.identity, began)).toEqual([]);
  });

  it('may not touch another deployment’s experiment, record, journal or key, nor the halt lever', async () => {
    const { core: asRunner } = tokenApis(cluster.credentials, runner.token);
    const forbidden = { code: 403 };
    const namespace = chaos.name;
    for (const name of [
      B,
      'chaoskit-record-scale-payments',
      `chaoskit-journal-scale-payments-0`,
      'chaoskit-halt',
    ]) {
      await expect(
        asRunner.patchNamespacedConfigMap({
          name,
          namespace,
          body: [{ op: 'add', path: '/data/x', value: '1' }],
        }),
      ).rejects.toMatchObject(forbidden);
      await expect(asRunner.deleteNamespacedConfigMap({ name, namespace })).rejects.toMatchObject(forbidden);
    }
    await expect(
      asRunner.deleteNamespacedConfigMap({ name: 'chaoskit-halt', namespace: 'kube-system' }),
    ).rejects.toMatchObject(forbidden);
  });
});

describe('a genuine record, saved and created again after its revert', () => {
  it('does not verify: the revert undoes nobody’s later change', async () => {
    const scale = (replicas: number) =>
      python('chaoscluster.deployment.actions', 'scale_deployment', { name: 'web', replicas, ns: shop.name });
    const runId = await killedAfter(
      dir,
      'replayed',
      {
        title: 'web shrinks',
        description: 'killed with web at 1',
        method: [{ type: 'action', name: 'shrink', provider: scale(1), pauses: { after: 120 } }],
      },
      1,
      { env: admin.env, args: ['--ledger-namespace', chaos.name] },
    );
    const name = `chaoskit-run-${runId}`;
    const saved = await core.readNamespacedConfigMap({ name, namespace: chaos.name });
    const reverted = await chaoskit(['revert', runId, '--ledger-namespace', chaos.name]);
    expect(reverted.code, reverted.stderr).toBe(0);
    const replicas = async () =>
      (await apps.readNamespacedDeployment({ name: 'web', namespace: shop.name })).spec?.replicas;
    expect(await replicas()).toBe(3);
    // Someone's later, legitimate change: web down to 1 (by the cluster's own admin).
    await apps.patchNamespacedDeploymentScale({
      name: 'web',
      namespace: shop.name,
      body: [{ op: 'replace', path: '/spec/replicas', value: 1 }],
    });
    // The saved record, created again under its name.
    await core.createNamespacedConfigMap({
      namespace: chaos.name,
      body: { metadata: { name, labels: saved.metadata?.labels }, data: saved.data },
    });
    const since = new Date();
    const replayed = await chaoskit(['revert', runId, '--ledger-namespace', chaos.name]);
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain(`ConfigMap ${chaos.name}/${name}`);
    expect(replayed.stderr).toMatch(/created again from a copy/);
    expect(await replicas()).toBe(1);
    expect(await writesOf(admin.identity, since)).toEqual([]);
  });
});

// What each identity may do, asked as `kubectl auth can-i` asks (impersonating it): the rows of
// the tables in the runner's README.
describe('kubectl auth can-i', () => {
  const readme = fileURLToPath(new URL('../../README.md', import.meta.url));
  const rows = () => {
    const row = (verb: string, what: string, ns: string | undefined, shown: string) => ({
      verb,
      what,
      ns,
      shown,
    });
    const L = chaos.name;
    return {
      runner: [
        row('delete', 'pods', shop.name, 'delete pods -n shop (its activity)'),
        row(
          'get',
          `secrets/chaoskit-ledger-key-${A}`,
          L,
          `get secrets/chaoskit-ledger-key-${A} -n chaos (its key)`,
        ),
        row(
          'patch',
          'configmaps/chaoskit-record-kill-web',
          L,
          'patch configmaps/chaoskit-record-kill-web -n chaos (its record)',
        ),
        row(
          'update',
          'configmaps/chaoskit-journal-kill-web-0',
          L,
          'update configmaps/chaoskit-journal-kill-web-0 -n chaos (its journal)',
        ),
        row('create', 'configmaps', L, 'create configmaps -n chaos (a new record, journal or lock)'),
        row(
          'get',
          `secrets/chaoskit-ledger-key-${B}`,
          L,
          `get secrets/chaoskit-ledger-key-${B} -n chaos (another runner's key)`,
        ),
        row(
          'get',
          'secrets/chaoskit-ledger-key',
          L,
          "get secrets/chaoskit-ledger-key -n chaos (the operators' key)",
        ),
        row('create', 'secrets', L, 'create secrets -n chaos'),
        row(
          'patch',
          `configmaps/${B}`,
          L,
          `patch configmaps/${B} -n chaos (another deployment's experiment)`,
        ),
        row('patch', `configmaps/${A}`, L, `patch configmaps/${A} -n chaos (its own experiment)`),
        row(
          'patch',
          'configmaps/chaoskit-record-scale-payments',
          L,
          "patch configmaps/chaoskit-record-scale-payments -n chaos (another's record)",
        ),
        row(
          'update',
          'configmaps/chaoskit-journal-scale-payments-0',
          L,
          "update configmaps/chaoskit-journal-scale-payments-0 -n chaos (another's journal)",
        ),
        row(
          'delete',
          'configmaps/chaoskit-halt',
          L,
          'delete configmaps/chaoskit-halt -n chaos (the namespace lever)',
        ),
        row(
          'delete',
          'configmaps/chaoskit-halt',
          'kube-system',
          'delete configmaps/chaoskit-halt -n kube-system (the cluster lever)',
        ),
        row('impersonate', `serviceaccounts/${B}`, L, `impersonate serviceaccounts/${B} -n chaos`),
        row('patch', 'deployments', other.name, 'patch deployments -n other'),
        row('patch', 'nodes', undefined, 'patch nodes'),
        row('create', 'deployments', 'kube-system', 'create deployments -n kube-system'),
      ],
      reaper: [
        row('list', 'configmaps', L, 'list configmaps -n chaos (the records)'),
        row(
          'impersonate',
          `serviceaccounts/${A}`,
          L,
          `impersonate serviceaccounts/${A} -n chaos (a runner it serves)`,
        ),
        row(
          'impersonate',
          `serviceaccounts/${B}`,
          L,
          `impersonate serviceaccounts/${B} -n chaos (a runner it serves)`,
        ),
        row('impersonate', 'serviceaccounts/default', L, 'impersonate serviceaccounts/default -n chaos'),
        row('impersonate', 'users', undefined, 'impersonate users'),
        row('impersonate', 'groups', undefined, 'impersonate groups'),
        row('get', 'secrets', L, 'get secrets -n chaos (any key)'),
        row('patch', 'configmaps', L, 'patch configmaps -n chaos'),
        row('delete', 'configmaps', L, 'delete configmaps -n chaos'),
        row('create', 'deployments', other.name, 'create deployments -n other'),
        row('create', 'statefulsets', other.name, 'create statefulsets -n other'),
        row('patch', 'nodes', undefined, 'patch nodes'),
        row('create', 'pods', L, 'create pods -n chaos'),
      ],
    };
  };
  const canI = async (as: string, verb: string, what: string, ns?: string) => {
    const args = [
      '--kubeconfig',
      admin.kubeconfig,
      'auth',
      'can-i',
      verb,
      what,
      '--as',
      as,
      ...(ns ? ['-n', ns] : []),
    ];
    const answer = await run(cluster.kubectl, args).then(
      (r) => r.stdout.trim(),
      (err: { stdout?: string }) => (err.stdout ?? '').trim(),
    );
    expect(answer, `kubectl auth can-i ${verb} ${what}`).toMatch(/^(yes|no)$/);
    return answer;
  };

  it('answers for the runner and the reaper as the README says', async () => {
    const tables: string[] = [];
    for (const [who, identity, list] of [
      ['runner', runner.identity, rows().runner],
      ['reaper', reaper.identity, rows().reaper],
    ] as const) {
      const lines = [`| \`kubectl auth can-i … --as <the ${who}>\` | answer |`, '| --- | --- |'];
      for (const r of list) lines.push(`| \`${r.shown}\` | ${await canI(identity, r.verb, r.what, r.ns)} |`);
      tables.push(lines.join('\n'));
    }
    const generated = `<!-- generated: can-i (src/deploy/runner-keys.cluster.test.ts) -->\n${tables.join('\n\n')}\n<!-- end: can-i -->`;
    const text = await readFile(readme, 'utf8');
    const block = /<!-- generated: can-i[^\n]*-->\n[\s\S]*?<!-- end: can-i -->/;
    if (process.env.CHAOSKIT_WRITE_DOCS === '1') await writeFile(readme, text.replace(block, generated));
    else
      expect(text.match(block)?.[0], 'the README drifted: CHAOSKIT_WRITE_DOCS=1 writes it').toBe(generated);
    // What the tables must say, whatever the README holds.
    const answers = Object.fromEntries(
      generated
        .split('\n')
        .filter((l) => l.startsWith('| `') && !l.includes('kubectl auth'))
        .map((l) => {
          const [, what, answer] = /^\| `(.+)` \| (yes|no) \|$/.exec(l)!;
          return [what, answer];
        }),
    );
    const yes = Object.entries(answers)
      .filter(([, a]) => a === 'yes')
      .map(([w]) => w);
    expect(yes.sort()).toEqual(
      [
        'delete pods -n shop (its activity)',
        `get secrets/chaoskit-ledger-key-${A} -n chaos (its key)`,
        'patch configmaps/chaoskit-record-kill-web -n chaos (its record)',
        'update configmaps/chaoskit-journal-kill-web-0 -n chaos (its journal)',
        'create configmaps -n chaos (a new record, journal or lock)',
        'list configmaps -n chaos (the records)',
        `impersonate serviceaccounts/${A} -n chaos (a runner it serves)`,
        `impersonate serviceaccounts/${B} -n chaos (a runner it serves)`,
      ].sort(),
    );
  });
});

// The undeploy of a runner whose record is in place would leave its changes with no one to undo
// them as: refused.
it('undeploy refuses while a run of the deployment has its record in place', async () => {
  await until('the forged record is there', async () =>
    core
      .readNamespacedConfigMap({ name: 'chaoskit-record-kill-web', namespace: chaos.name })
      .then(() => true)
      .catch(() => false),
  );
  const out = await chaoskit(['undeploy', 'kill-web', '-n', chaos.name]);
  expect(out.code).toBe(1);
  expect(out.stderr).toContain('has its record in place (ConfigMap chaoskit-record-kill-web');
  await core.readNamespacedServiceAccount({ name: A, namespace: chaos.name });
});
