// Least privilege, proven with the ServiceAccount `chaoskit deploy` creates: the experiment it
// was deployed for runs with exactly the rights deploy bound to it, and an experiment that needs
// one right more is refused before its first change — the apiserver's audit log shows no write
// of that identity, only its questions —, the refusal naming the verb, the resource, the
// namespace and the activity (D124).

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMutation, readAuditLog } from '@chaoskit/cluster';
import {
  apisOf,
  deploy,
  fileNamespace,
  serviceAccountEnv,
  sharedCluster,
  tokenEnv,
  until,
} from '@chaoskit/cluster/testing';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { runCli } from './testing/test-cli.js';
import { activity, killOneWebPod } from './testing/test-experiments.js';

const cluster = sharedCluster();
const { core, apps, rbac } = apisOf(cluster.kc);
const ns = fileNamespace(cluster.kc, 'privilege');
const target = fileNamespace(cluster.kc, 'privilege-target');
const binding = `chaoskit-privilege-test-${process.pid}`;
let dir: string;
/** The ServiceAccount deploy made for the experiment `kill`, and a token of it. */
let deployed: { token: string; identity: string };

const kill = () => killOneWebPod(target.name);

const podNames = async () =>
  (await core.listNamespacedPod({ namespace: target.name, labelSelector: 'app=web' })).items
    .map((p) => p.metadata!.name!)
    .sort();

const asDeployed = (args: string[]) =>
  runCli([...args, '--ledger-namespace', ns.name], {
    env: tokenEnv(cluster.credentials, deployed.token),
    cwd: dir,
  });

/** `run <name>.yaml` as the deployed identity, as its pod runs it: its journal <name>.json. */
async function runAsItsPod(name: string) {
  const journal = join(dir, `${name}.json`);
  const out = await asDeployed([
    'run',
    `${name}.yaml`,
    '--journal-path',
    journal,
    '--revert-leftovers-of',
    'kill',
  ]);
  return { journal, out };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-privilege-'));
  await deploy(cluster.kc, target.name, 'web', 3);
  await writeFile(
    join(dir, 'kill.yaml'),
    dump({ title: 'one web pod goes', description: 'least privilege', method: [kill()] }),
  );
  await writeFile(
    join(dir, 'kill-and-scale.yaml'),
    dump({
      title: 'one web pod goes, then web grows',
      description: 'one right more than kill',
      method: [
        kill(),
        activity('action', 'grow', 'chaoscluster.deployment.actions', 'scale_deployment', {
          ns: target.name,
          name: 'web',
          replicas: 5,
        }),
      ],
    }),
  );
  // Deployed on a schedule that does not come during the test: its ServiceAccount and Roles are
  // what matter here, and no pod of it runs.
  const deployer = await serviceAccountEnv(cluster, ns.name, 'deployer', [
    { role: 'cluster-admin', clusterBinding: binding },
  ]);
  const out = await runCli(['deploy', 'kill.yaml', '-n', ns.name, '--schedule', '0 0 1 1 *'], {
    env: deployer.env,
    cwd: dir,
  });
  expect(out.code, out.stderr).toBe(0);
  const token = await core.createNamespacedServiceAccountToken({
    name: 'chaoskit-kill',
    namespace: ns.name,
    body: { spec: { audiences: [] } },
  });
  deployed = {
    token: token.status!.token!,
    identity: `system:serviceaccount:${ns.name}:chaoskit-kill`,
  };
});
afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: binding }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

it('the experiment runs with exactly the rights deploy gave its ServiceAccount', async () => {
  const before = await podNames();
  // Not as a run of its own: a runner changes no ConfigMap but its deployment's record, and
  // reads no key but its own (D158); refused before any change.
  const alone = await asDeployed(['run', 'kill.yaml', '--journal-path', join(dir, 'alone.json')]);
  expect(alone.code, alone.stderr).toBe(EXIT.refused);
  expect(alone.stderr).toMatch(
    /may not delete configmaps 'chaoskit-run-[^']+', patch configmaps 'chaoskit-run-[^']+', get secrets 'chaoskit-ledger-key' in namespace/,
  );
  expect(await podNames()).toEqual(before);
  // As its pod runs it.
  const { journal, out } = await runAsItsPod('kill');
  expect(out.code, out.stderr).toBe(EXIT.ok);
  const result = JSON.parse(await readFile(journal, 'utf8'));
  const [gone] = result.run[0].output.pods as string[];
  expect(before).toContain(gone);
  await until('the pod terminated', async () => !(await podNames()).includes(gone!));
});

it('one right more: refused before any change, naming the verb, the resource and the activity', async () => {
  const before = await podNames();
  const since = new Date();
  const { journal, out } = await runAsItsPod('kill-and-scale');
  expect(out.code, out.stderr).toBe(EXIT.refused);
  expect(out.stderr).toContain(
    `chaoskit: User "${deployed.identity}" may not patch deployments.apps, get deployments.apps in namespace '${target.name}' (activity 'grow'): `,
  );
  // kill's rights it holds: they are not named.
  expect(out.stderr).not.toContain("(activity 'kill')");
  await expect(readFile(journal)).rejects.toThrow(/ENOENT/);
  // Its questions reached the apiserver (the log has caught up), and nothing else did.
  const requests = await until('the questions in the audit log', async () => {
    const events = await readAuditLog(cluster.auditLogPath, { user: deployed.identity, since });
    return events.some((e) => e.objectRef?.resource === 'selfsubjectaccessreviews') && events;
  });
  expect(requests.filter(isMutation)).toEqual([]);
  expect(
    requests.filter(
      (e) =>
        !['selfsubjectreviews', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews'].includes(
          e.objectRef?.resource ?? '',
        ),
    ),
  ).toEqual([]);
  expect(await podNames()).toEqual(before);
  expect((await apps.readNamespacedDeployment({ name: 'web', namespace: target.name })).spec?.replicas).toBe(
    3,
  );
});

it('a right held only for the objects it names (resourceNames) is not refused: the server judges each request', async () => {
  const [pod] = await podNames();
  await rbac.createNamespacedRole({
    namespace: target.name,
    body: {
      metadata: { name: 'delete-one-pod' },
      rules: [
        { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['delete'], resourceNames: [pod!] },
      ],
    },
  });
  const narrow = await serviceAccountEnv(cluster, target.name, 'one-pod', [
    { role: 'delete-one-pod', kind: 'Role' },
  ]);
  await writeFile(
    join(dir, 'kill-one.yaml'),
    dump({
      title: 'the one pod goes',
      description: 'a grant by name',
      method: [
        activity('action', 'kill-one', 'chaoscluster.pod.actions', 'terminate_pods', {
          ns: target.name,
          name_pattern: `^${pod}$`,
          grace_period: 0,
        }),
      ],
    }),
  );
  const out = await runCli(['run', 'kill-one.yaml', '--no-ledger', '--journal-path', 'kill-one.json'], {
    env: narrow.env,
    cwd: dir,
  });
  expect(out.code, out.stderr).toBe(EXIT.ok);
  // Without a record and without the halt lever's rights: told that halt will not stop it.
  for (const lever of [
    "in the cluster (ConfigMap chaoskit-halt in namespace 'kube-system')",
    "in namespace 'default' (ConfigMap chaoskit-halt in namespace 'default')",
  ])
    expect(out.stderr).toContain(
      `the run cannot read the halt lever ${lever}, so chaoskit halt could not stop it; the run goes on without it (it keeps no record)`,
    );
  await until('the named pod terminated', async () => !(await podNames()).includes(pod!));
});
