// A deployed run never reports a success that did not happen (D166), on the shared cluster, whose
// nodes are all kwok's: deploy warns that no node can run its pod, the Job's pod is never placed
// (so the Job cannot complete), and `journals` says why each deployment has no journal — its pod
// waits for a node, its CronJob has not run yet, or (a Job deployed without the placement, as
// before D166) it "completed" on a node kwok fakes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apisOf, fileNamespace, serviceAccountEnv, sharedCluster, until } from '@chaoskit/cluster/testing';
import { type KubernetesObject, KubernetesObjectApi, type V1Job } from '@kubernetes/client-node';
import { dump, loadAll } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { countWebPods } from '../testing/test-experiments.js';

const cluster = sharedCluster();
const ns = fileNamespace(cluster.kc, 'placement');
const { core, batch, rbac } = apisOf(cluster.kc);
const binding = `chaoskit-placement-test-${process.pid}`;
let dir: string;
let env: NodeJS.ProcessEnv;

const chaoskit = (args: string[]) => runCli(args, { cwd: dir, env });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-placement-'));
  ({ env } = await serviceAccountEnv(cluster, ns.name, 'deployer', [
    { role: 'cluster-admin', clusterBinding: binding },
  ]));
  for (const name of ['waits', 'scheduled', 'faked'])
    await writeFile(
      join(dir, `${name}.yaml`),
      dump({
        title: `${name}: web has no pod`,
        description: 'placement',
        'steady-state-hypothesis': { title: 'no web pod', probes: [countWebPods(0, ns.name)] },
        method: [],
      }),
    );
});
afterAll(async () => {
  await rbac.deleteClusterRoleBinding({ name: binding }).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/** The Job's pod, once the scheduler has said where it goes (or that it goes nowhere). */
const decided = (job: string) =>
  until(`the scheduler's answer for ${job}'s pod`, async () => {
    const [pod] = (await core.listNamespacedPod({ namespace: ns.name, labelSelector: `job-name=${job}` }))
      .items;
    return pod?.status?.conditions?.some((c) => c.type === 'PodScheduled') ? pod : undefined;
  });

it('warns that no node can run the pod, which is never placed: its Job cannot complete, and journals says why it has no journal', async () => {
  const out = await chaoskit(['deploy', 'waits.yaml', '-n', ns.name]);
  expect(out.code, out.stderr).toBe(0);
  const nodes = (await core.listNode()).items.map((n) => n.metadata!.name!);
  expect(out.stderr).toMatch(
    /^chaoskit: no node of the cluster can run the pod, which would stay Pending: .*kwok fakes its pods \(type=kwok\): nothing runs there\n$/,
  );
  for (const node of nodes.slice(0, 5)) expect(out.stderr).toContain(node);

  const pod = await decided('chaoskit-waits');
  expect(pod.spec?.nodeName).toBeUndefined();
  expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
    status: 'False',
    reason: 'Unschedulable',
  });
  const job = await batch.readNamespacedJob({ name: 'chaoskit-waits', namespace: ns.name });
  expect(job.status?.succeeded ?? 0).toBe(0);
  expect(job.status?.conditions ?? []).not.toContainEqual(expect.objectContaining({ type: 'Complete' }));

  const listed = await chaoskit(['journals', '-n', ns.name]);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toBe('');
  expect(listed.stderr).toContain(`no journal is kept in namespace '${ns.name}'\n`);
  expect(listed.stderr).toMatch(
    new RegExp(
      `\\nwaits \\(Job chaoskit-waits\\) has no journal: its pod ${pod.metadata!.name} is Pending: no node may run it: 0/\\d+ nodes are available: .*node affinity`,
    ),
  );
});

it('says of a CronJob that has not run yet that no Job has', async () => {
  const out = await chaoskit(['deploy', 'scheduled.yaml', '-n', ns.name, '--schedule', '0 0 1 1 *']);
  expect(out.code, out.stderr).toBe(0);
  const listed = await chaoskit(['journals', '-n', ns.name, '--json']);
  expect(JSON.parse(listed.stdout)).toEqual([]);
  expect(listed.stderr).toContain(
    "scheduled (CronJob chaoskit-scheduled) has no journal: no Job has run yet (schedule '0 0 1 1 *')\n",
  );
});

it('calls a Job that completed on a node kwok fakes what it is: nothing ran', async () => {
  // Deployed as before D166: the same objects, the Job's pod without its node affinity.
  const printed = await chaoskit(['deploy', 'faked.yaml', '-n', ns.name, '-o', 'yaml']);
  const objects = KubernetesObjectApi.makeApiClient(cluster.kc);
  for (const object of loadAll(printed.stdout) as KubernetesObject[]) {
    if (object.kind === 'Job') delete (object as V1Job).spec!.template.spec!.affinity;
    await objects.create(object);
  }
  const job = await until(
    'kwok to "complete" the Job',
    async () => {
      const j = await batch.readNamespacedJob({ name: 'chaoskit-faked', namespace: ns.name });
      return j.status?.succeeded ? j : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  expect(job.status?.succeeded).toBe(1);
  const pod = await decided('chaoskit-faked');
  const listed = await chaoskit(['journals', '-n', ns.name]);
  expect(listed.stderr).toContain(
    `faked (Job chaoskit-faked) has no journal: its pod ${pod.metadata!.name} was placed on ${pod.spec!.nodeName}, a node kwok fakes (type=kwok): nothing ran there, whatever its status says (Succeeded)`,
  );
});
