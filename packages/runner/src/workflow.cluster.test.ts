// The Chaos Toolkit workflow against a real cluster: `--dry` leaves the cluster as it was (the
// audit log shows no write by the run's identity), `-n`, `--context` and `--kubeconfig` choose
// where `run`, `plan` and `call` act, and `--verbose`/`--log-file` trace every request without
// a secret or the cluster's address.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDryRun, isMutation, readAuditLog } from '@chaoskit/cluster';
import {
  apisOf,
  deploy,
  fileNamespace,
  kubeconfigEnv,
  kubeconfigYaml,
  serviceAccountToken,
  sharedCluster,
  until,
} from '@chaoskit/cluster/testing';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { runCli } from './testing/test-cli.js';
import { activity } from './testing/test-experiments.js';

const cluster = sharedCluster();
const { core, apps, rbac } = apisOf(cluster.kc);
const unique = `workflow-${process.pid}`;
// Names that select the cluster are masked in every line: they must not be words of the output.
const CONTEXT = `ctx-${unique}`;
let dir: string;
const ns = fileNamespace(cluster.kc, 'workflow');
let identity: string;
let token: string;
let kubeconfig: string;
let env: NodeJS.ProcessEnv;

const chaoskit = (args: string[]) => runCli(args, { env, cwd: dir });

let markers = 0;
/**
 * The identity's requests since `since`, once the audit log has caught up: a request made
 * after them (a marker) is waited for, and what came before it is returned.
 */
async function eventsSince(since: Date) {
  const marker = `marker=m${markers++}`;
  const args = ['--arguments', JSON.stringify({ label_selector: marker }), '-n', ns.name, ...onCluster()];
  expect((await chaoskit(['call', 'chaoscluster.pod.probes', 'count_pods', ...args])).code).toBe(0);
  return until(`the marker ${marker} in the audit log`, async () => {
    const events = await readAuditLog(cluster.auditLogPath, { user: identity, since });
    const at = events.findIndex((e) => e.requestURI.includes(encodeURIComponent(marker)));
    return at >= 0 && events.slice(0, at);
  });
}
const writesSince = async (since: Date) =>
  (await eventsSince(since))
    .filter(isMutation)
    .map(
      (e) =>
        `${e.verb} ${e.objectRef?.resource} ${e.objectRef?.name ?? ''}${isDryRun(e) ? ' (dry run)' : ''}`,
    );

async function podUids() {
  const pods = await core.listNamespacedPod({ namespace: ns.name, labelSelector: 'app=web' });
  return pods.items
    .filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => p.metadata!.uid!)
    .sort();
}

const allReady = async () => {
  const d = await apps.readNamespacedDeployment({ name: 'web', namespace: ns.name });
  return d.status?.readyReplicas === 3 && (await podUids()).length === 3;
};

let count = 0;
async function experimentFile(body: Record<string, unknown>) {
  const file = join(dir, `experiment-${count++}.yaml`);
  await writeFile(file, dump({ title: 'workflow', description: 'on the cluster', ...body }));
  return file;
}

const countPods = (args: Record<string, unknown> = {}) => ({
  ...activity('probe', 'web-pods', 'chaoscluster.pod.probes', 'count_pods', {
    label_selector: 'app=web',
    ...args,
  }),
  tolerance: 3,
});
const killOne = (args: Record<string, unknown> = {}) =>
  activity('action', 'kill-one-web-pod', 'chaoscluster.pod.actions', 'terminate_pods', {
    label_selector: 'app=web',
    qty: 1,
    ...args,
  });

const onCluster = () => ['--kubeconfig', kubeconfig, '--context', CONTEXT];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-workflow-'));
  ({ token, identity } = await serviceAccountToken(cluster.kc, ns.name, 'operator', [
    { role: 'cluster-admin', clusterBinding: unique },
  ]));
  // Its current context reaches the cluster as nobody: only --context reaches it as the operator.
  kubeconfig = join(dir, 'two-contexts.kubeconfig');
  await writeFile(
    kubeconfig,
    kubeconfigYaml(
      cluster.credentials,
      { operator: { token }, nobody: {} },
      { [CONTEXT]: 'operator', 'nobody-ctx': 'nobody' },
      'nobody-ctx',
    ),
  );
  env = kubeconfigEnv('/nonexistent', { CHAOSKIT_LEDGER_NAMESPACE: ns.name });
  await deploy(cluster.kc, ns.name, 'web', 3);
});

afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: unique }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('run --dry', () => {
  /** `run --dry <mode>` of an experiment that counts the web pods and kills one, from 3 ready pods. */
  async function dryRun(mode: string, extra: Record<string, unknown> = {}) {
    const file = await experimentFile({
      'steady-state-hypothesis': { title: 'three web pods', probes: [countPods()] },
      method: [killOne()],
      ...extra,
    });
    await until('3 web pods', allReady);
    const before = await podUids();
    const since = new Date();
    const journalPath = join(dir, `dry-${mode}.json`);
    const out = await chaoskit([
      'run',
      file,
      '-n',
      ns.name,
      ...onCluster(),
      '--journal-path',
      journalPath,
      '--dry',
      mode,
    ]);
    expect(out.code, out.stderr).toBe(0);
    return { journal: JSON.parse(await readFile(journalPath, 'utf8')), before, since };
  }

  it('actions: the probes run, the actions do not, and nothing is written to the cluster', async () => {
    const { journal, before, since } = await dryRun('actions');
    expect(journal.steady_states.before.probes[0].output).toBe(3);
    expect(journal.run[0]).toMatchObject({ status: 'succeeded', output: null });
    // Who the credentials are (D91) and whether they may list pods, the probe's one right
    // (D124), then the probes read the pods (twice: before and after the method); nothing was
    // written.
    const events = await eventsSince(since);
    expect(events.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual([
      'create selfsubjectreviews',
      'create selfsubjectaccessreviews',
      'list pods',
      'list pods',
    ]);
    expect(await podUids()).toEqual(before);
  });

  it('activities: not a single request', async () => {
    const { journal, before, since } = await dryRun('activities', { rollbacks: [killOne()] });
    const states = journal.steady_states;
    const runs = [...states.before.probes, ...journal.run, ...states.after.probes, ...journal.rollbacks];
    expect(runs.map((r: { status: string; output: unknown }) => [r.status, r.output])).toEqual(
      Array(4).fill(['succeeded', null]),
    );
    expect(await eventsSince(since)).toEqual([]);
    expect(await podUids()).toEqual(before);
  });

  it('probes: the actions run (a pod goes), the probes do not', async () => {
    const { journal, before, since } = await dryRun('probes');
    expect(journal.steady_states.before.probes[0]).toMatchObject({ output: null, tolerance_met: true });
    const [gone] = journal.run[0].output.pods;
    expect((await writesSince(since)).filter((w) => w.startsWith('delete pods'))).toEqual([
      `delete pods ${gone}`,
    ]);
    expect(await podUids()).not.toEqual(before);
  });
});

describe('-n, --context and --kubeconfig', () => {
  it('run: -n is the ns of the activities that take one and were not given one; the journal says so', async () => {
    const file = await experimentFile({ method: [killOne()] });
    await until('3 web pods', allReady);
    const since = new Date();
    const journalPath = join(dir, 'namespaced.json');
    const out = await chaoskit(['run', file, '-n', ns.name, ...onCluster(), '--journal-path', journalPath]);
    expect(out.code, out.stderr).toBe(0);
    const journal = JSON.parse(await readFile(journalPath, 'utf8'));
    expect(journal.run[0].activity.provider.arguments).toEqual({
      label_selector: 'app=web',
      qty: 1,
      ns: ns.name,
    });
    const deleted = (await eventsSince(since)).filter(
      (e) => e.verb === 'delete' && e.objectRef?.resource === 'pods',
    );
    expect(deleted.map((e) => e.objectRef?.namespace)).toEqual([ns.name]);
  });

  it('an ns the experiment gives wins over -n', async () => {
    const file = await experimentFile({ method: [countPods({ ns: 'default' })] });
    const journalPath = join(dir, 'given-ns.json');
    const out = await chaoskit(['run', file, '-n', ns.name, ...onCluster(), '--journal-path', journalPath]);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(await readFile(journalPath, 'utf8')).run[0].activity.provider.arguments.ns).toBe(
      'default',
    );
  });

  it('are taken before the command too, as kubectl takes them; a command that has no use for one refuses it', async () => {
    await until('3 web pods', allReady);
    const since = new Date();
    const journalPath = join(dir, 'flags-first.json');
    const out = await chaoskit([
      '-n',
      ns.name,
      ...onCluster(),
      '--verbose',
      'run',
      await experimentFile({ method: [killOne()] }),
      '--journal-path',
      journalPath,
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toMatch(new RegExp(`DEBUG\\] DELETE /api/v1/namespaces/${ns.name}/pods/web-\\S+ 200`));
    const journal = JSON.parse(await readFile(journalPath, 'utf8'));
    expect(journal.run[0].activity.provider.arguments.ns).toBe(ns.name);
    const deleted = (await eventsSince(since)).filter(
      (e) => e.verb === 'delete' && e.objectRef?.resource === 'pods',
    );
    expect(deleted.map((e) => e.objectRef?.namespace)).toEqual([ns.name]);

    const refused = await chaoskit(['-n', ns.name, 'rbac', '--halt']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('chaoskit rbac does not take --namespace');
  });

  it('call and plan act where the flags say; without --context, the kubeconfig’s current one is used', async () => {
    await until('3 web pods', allReady);
    const args = ['--arguments', '{"label_selector": "app=web"}', '-n', ns.name];
    const called = await chaoskit(['call', 'chaoscluster.pod.probes', 'count_pods', ...args, ...onCluster()]);
    expect([called.code, called.stdout.trim()], called.stderr).toEqual([0, '3']);
    const nobody = await chaoskit([
      'call',
      'chaoscluster.pod.probes',
      'count_pods',
      ...args,
      '--kubeconfig',
      kubeconfig,
    ]);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/Unauthorized|Forbidden/);

    const since = new Date();
    const planned = await chaoskit([
      'plan',
      await experimentFile({ method: [killOne()] }),
      '-n',
      ns.name,
      ...onCluster(),
    ]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toMatch(/method · kill-one-web-pod · chaoscluster\.pod\.actions\.terminate_pods/);
    expect(await writesSince(since)).toEqual([expect.stringMatching(/^delete pods web-.* \(dry run\)$/)]);
  });

  it('are refused when an activity chooses its cluster in its secrets: one place says where', async () => {
    const file = await experimentFile({
      secrets: { k8s: { CLUSTER_CONTEXT: CONTEXT } },
      method: [
        { ...killOne({ ns: ns.name }), provider: { ...killOne({ ns: ns.name }).provider, secrets: ['k8s'] } },
      ],
    });
    const since = new Date();
    const out = await chaoskit(['run', file, ...onCluster(), '--journal-path', join(dir, 'never.json')]);
    expect(out.code).toBe(EXIT.refused);
    expect(out.stderr).toMatch(
      /activity 'kill-one-web-pod' chooses a cluster in its secrets .*give the cluster in one place/,
    );
    expect(await eventsSince(since)).toEqual([]);
  });
});

describe('--verbose and --log-file', () => {
  it("trace each request (method, path, status) without the cluster's address or credentials", async () => {
    await until('3 web pods', allReady);
    const logFile = join(dir, 'requests.log');
    const out = await chaoskit([
      'run',
      await experimentFile({ method: [killOne()] }),
      '-n',
      ns.name,
      ...onCluster(),
      '--journal-path',
      join(dir, 'verbose.json'),
      '--verbose',
      '--log-file',
      logFile,
    ]);
    expect(out.code, out.stderr).toBe(0);
    const log = await readFile(logFile, 'utf8');
    for (const text of [log, out.stderr]) {
      expect(text).toMatch(
        new RegExp(`DEBUG\\] GET /api/v1/namespaces/${ns.name}/pods\\?\\S*labelSelector=app=web\\S* 200`),
      );
      expect(text).toMatch(new RegExp(`DEBUG\\] DELETE /api/v1/namespaces/${ns.name}/pods/web-\\S+ 200`));
      const server = new URL(cluster.credentials.server);
      for (const secret of [token, server.host, CONTEXT, kubeconfig]) expect(text).not.toContain(secret);
    }
  });
});
