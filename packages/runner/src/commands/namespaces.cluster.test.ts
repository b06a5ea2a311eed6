// kubectl's habits with namespaces (D163), through the built command on the shared cluster: the
// kubeconfig context's namespace is where runs record by default — so an identity that may act
// in its namespace only runs and reverts without --ledger-namespace —, `-n` on status and
// revert, `-o json|yaml` on what reads the cluster, one line for a namespace that does not exist,
// and a namespace that is no namespace name refused before any request, as the audit log shows.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog } from '@chaoskit/cluster';
import {
  apisOf,
  deploy,
  fileNamespace,
  kubeconfigEnv,
  serviceAccountToken,
  sharedCluster,
  until,
} from '@chaoskit/cluster/testing';
import { dump, load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import { runCli } from '../testing/test-cli.js';
import { activity } from '../testing/test-experiments.js';
import { printedIdentity } from '../testing/test-identities.js';

const cluster = sharedCluster();
const { apps, core } = apisOf(cluster.kc);
const ns = fileNamespace(cluster.kc, 'habits');
const missing = `chaoskit-missing-${process.pid}`;
let dir: string;

/** A kubeconfig of the shared cluster: one context per entry, as `token`, in its namespace if given. */
async function kubeconfig(file: string, token: string, contexts: Record<string, string | undefined>) {
  const path = join(dir, file);
  await writeFile(
    path,
    dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'shared',
          cluster: {
            server: cluster.credentials.server,
            'certificate-authority': cluster.credentials.caFile,
          },
        },
      ],
      users: [{ name: 'them', user: { token } }],
      contexts: Object.entries(contexts).map(([name, namespace]) => ({
        name,
        context: { cluster: 'shared', user: 'them', ...(namespace ? { namespace } : {}) },
      })),
      'current-context': Object.keys(contexts)[0],
    }),
  );
  return path;
}

const chaoskit = (args: string[], env: NodeJS.ProcessEnv) => runCli(args, { env, cwd: dir });
const admin = () => kubeconfigEnv(cluster.kubeconfigPath);
const replicas = async () =>
  (await apps.readNamespacedDeployment({ name: 'web', namespace: ns.name })).spec?.replicas;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-habits-'));
  await deploy(cluster.kc, ns.name, 'web', 3);
  // Left in place (no rollback): what status lists and revert undoes.
  await writeFile(
    join(dir, 'scale.yaml'),
    dump({
      title: 'web shrinks',
      description: 'kubectl habits',
      method: [
        activity('action', 'shrink', 'chaoscluster.deployment.actions', 'scale_deployment', {
          ns: ns.name,
          name: 'web',
          replicas: 1,
        }),
      ],
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the kubeconfig context's namespace", () => {
  it('is where an identity of that namespace alone runs, lists and reverts, without --ledger-namespace', async () => {
    const printed = await chaoskit(
      ['rbac', 'scale.yaml', '--journal-to-cluster', '--name', 'scoped'],
      admin(),
    );
    expect(printed.code, printed.stderr).toBe(0);
    const { token } = await printedIdentity(cluster, ns.name, 'scoped', printed.stdout);
    const file = await kubeconfig('scoped.yaml', token, { own: ns.name, bare: undefined });
    const own = kubeconfigEnv(file);

    // A context that names no namespace records in default, where this identity may not.
    const bare = await chaoskit(
      ['run', 'scale.yaml', '--context', 'bare', '--journal-path', 'bare.json'],
      own,
    );
    expect(bare.code, bare.stderr).toBe(EXIT.refused);
    expect(bare.stderr).toMatch(/may not .* in namespace 'default'/);
    expect(await replicas()).toBe(3);

    const run = await chaoskit(
      ['run', 'scale.yaml', '--journal-to-cluster', '--journal-path', 'j.json'],
      own,
    );
    expect(run.code, run.stderr).toBe(EXIT.leftInPlace);
    const runId: string = JSON.parse(await readFile(join(dir, 'j.json'), 'utf8')).run_id;
    expect(await replicas()).toBe(1);
    const record = await core.readNamespacedConfigMap({ name: `chaoskit-run-${runId}`, namespace: ns.name });
    expect(record.metadata?.name).toBe(`chaoskit-run-${runId}`);

    // status and journals read there too, in JSON or YAML.
    const listed = await chaoskit(['status', '-o', 'json'], own);
    expect(listed.code, listed.stderr).toBe(0);
    const runs = JSON.parse(listed.stdout).runs as Array<{ runId: string; left: number }>;
    expect(runs.map((r) => [r.runId, r.left])).toEqual([[runId, 1]]);
    expect(load((await chaoskit(['status', '-o', 'yaml'], own)).stdout)).toEqual(JSON.parse(listed.stdout));
    const journals = load((await chaoskit(['journals', '-o', 'yaml'], own)).stdout) as Array<{
      runId: string;
    }>;
    expect(journals.map((j) => j.runId)).toEqual([runId]);
    const journal = load((await chaoskit(['journals', 'latest', '-o', 'yaml'], own)).stdout) as {
      run_id: string;
    };
    expect(journal.run_id).toBe(runId);

    // An administrator whose context names default reads it with kubectl's -n, before the command too.
    const byAdmin = await chaoskit(['-n', ns.name, 'status', '-o', 'json'], admin());
    expect(byAdmin.code, byAdmin.stderr).toBe(0);
    expect(JSON.parse(byAdmin.stdout).runs.map((r: { runId: string }) => r.runId)).toEqual([runId]);
    const twice = await chaoskit(['status', '-n', ns.name, '--ledger-namespace', 'default'], admin());
    expect(twice.code).toBe(EXIT.usage);
    expect(twice.stderr).toContain(`-n '${ns.name}' and --ledger-namespace 'default' name two namespaces`);

    const reverted = await chaoskit(['revert', runId], own);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect(await replicas()).toBe(3);
    await expect(
      core.readNamespacedConfigMap({ name: `chaoskit-run-${runId}`, namespace: ns.name }),
    ).rejects.toMatchObject({ code: 404 });
  });
});

describe('a namespace that does not exist', () => {
  // Another run's change whose record is gone: status finds it by its marks, wherever -n points,
  // and still says the namespace it was given is not there (as a shared cluster may hold any time).
  let orphan: string;
  beforeAll(async () => {
    const left = await chaoskit(
      ['run', 'scale.yaml', '--ledger-namespace', ns.name, '--journal-path', 'orphan.json'],
      admin(),
    );
    expect(left.code, left.stderr).toBe(EXIT.leftInPlace);
    orphan = JSON.parse(await readFile(join(dir, 'orphan.json'), 'utf8')).run_id;
    await core.deleteNamespacedConfigMap({ name: `chaoskit-run-${orphan}`, namespace: ns.name });
  });
  afterAll(async () => {
    const undone = await chaoskit(['revert', orphan, '-n', ns.name, '--yes'], admin());
    expect(undone.code, undone.stderr).toBe(0);
    expect(await replicas()).toBe(3);
  });

  it.each([
    [['status', '-n', missing]],
    [['revert', '20250101-000000-abcdef', '-n', missing]],
    [['journals', '-n', missing]],
    [['journals', 'latest', '-n', missing]],
    [['deploy', 'scale.yaml', '-n', missing]],
    [['undeploy', 'scale', '-n', missing]],
  ])('%j says so in one line, with the command that makes it', async (args) => {
    const out = await chaoskit(args, admin());
    expect(out.code, out.stdout + out.stderr).toBe(1);
    expect(out.stderr).toBe(
      `chaoskit: namespace '${missing}' does not exist: kubectl create namespace ${missing}\n`,
    );
  });
});

describe('a namespace that is no namespace name', () => {
  it('is refused before any request, wherever it comes from: the audit log shows none', async () => {
    const { token, identity } = await serviceAccountToken(cluster.kc, ns.name, 'checked', []);
    const file = await kubeconfig('checked.yaml', token, { bad: 'Not_A_Namespace', good: ns.name });
    const env = kubeconfigEnv(file);
    const fromContext = "the kubeconfig context's namespace 'Not_A_Namespace' is not a namespace name";
    const refusals: Array<[string[], NodeJS.ProcessEnv, number, string]> = [
      [['status'], env, EXIT.usage, fromContext],
      [['revert', '20250101-000000-abcdef'], env, EXIT.usage, fromContext],
      [['journals'], env, EXIT.usage, fromContext],
      [['deploy', 'scale.yaml'], env, EXIT.usage, fromContext],
      [['undeploy', 'scale'], env, EXIT.usage, fromContext],
      [['run', 'scale.yaml', '--journal-path', 'never.json'], env, EXIT.refused, fromContext],
      [['-n', 'Bad_1', 'status', '--context', 'good'], env, EXIT.usage, "-n/--namespace 'Bad_1'"],
      [
        ['status', '--context', 'good', '--ledger-namespace', 'Bad_1'],
        env,
        EXIT.usage,
        "--ledger-namespace 'Bad_1'",
      ],
      [['revert', 'x', '--context', 'good', '-n', 'Bad_1'], env, EXIT.usage, "-n/--namespace 'Bad_1'"],
      [['journals', '--context', 'good', '-n', 'Bad_1'], env, EXIT.usage, "-n/--namespace 'Bad_1'"],
      [
        ['status', '--context', 'good'],
        { ...env, CHAOSKIT_LEDGER_NAMESPACE: 'Bad_1' },
        EXIT.usage,
        "CHAOSKIT_LEDGER_NAMESPACE 'Bad_1'",
      ],
    ];
    const since = new Date();
    for (const [args, withEnv, code, named] of refusals) {
      const out = await chaoskit(args, withEnv);
      expect(out.code, `${args.join(' ')}: ${out.stderr}`).toBe(code);
      expect(out.stderr).toContain(named);
    }
    // Then one command that asks the cluster: once its requests are in the audit log, nothing
    // of this identity came before them.
    const after = new Date();
    await chaoskit(['status', '--context', 'good'], env);
    const events = await until('the last status in the audit log', async () => {
      const seen = await readAuditLog(cluster.auditLogPath, { user: identity, since });
      return seen.some((e) => Date.parse(e.requestReceivedTimestamp) >= after.getTime()) && seen;
    });
    expect(events.filter((e) => Date.parse(e.requestReceivedTimestamp) < after.getTime())).toEqual([]);
  });
});
