// The journal kept in the cluster (run --journal-to-cluster, D116) on the shared cluster: the
// ConfigMap a run writes as it goes, `chaoskit journals`, `report --from-cluster`, the Events on
// the run's Job, an interrupted run's journal, and the Role `chaoskit rbac --journal-to-cluster`
// prints being what the run needs — no less (a run without it is refused before it starts).

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  deploy,
  serviceAccountToken,
  sharedCluster,
  testNamespace,
  tokenEnv,
  until,
} from '@chaoskit/cluster/testing';
import {
  BatchV1Api,
  CoreV1Api,
  EventsV1Api,
  RbacAuthorizationV1Api,
  type V1ConfigMap,
  type V1Role,
} from '@kubernetes/client-node';
import { dump, loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { activity, countWebPods } from '../testing/test-experiments.js';
import { startRun } from '../testing/test-runs.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const events = cluster.kc.makeApiClient(EventsV1Api);
let dir: string;
let ns: Awaited<ReturnType<typeof testNamespace>>;
let job: { name: string; uid: string };

const adminEnv = () => ({
  ...process.env,
  KUBECONFIG: '/nonexistent',
  CLUSTERCONFIG: cluster.kubeconfigPath,
});
const chaoskit = (args: string[], env: NodeJS.ProcessEnv = adminEnv()) => runCli(args, { env, cwd: dir });
/** The environment deploy's pod gives the run: its Job, its experiment's name. */
const inJob = (env: NodeJS.ProcessEnv) => ({ ...env, CHAOSKIT_JOB: job.name, CHAOSKIT_JOB_UID: job.uid });

const scaleWeb = (name: string) =>
  activity('action', name, 'chaoscluster.deployment.actions', 'scale_deployment', {
    name: 'web',
    replicas: 2,
  });

async function writeExperiment(name: string, experiment: object): Promise<string> {
  const file = join(dir, `${name}.yaml`);
  await writeFile(file, dump(experiment));
  return file;
}

const configMap = (runId: string) =>
  core.readNamespacedConfigMap({ name: `chaoskit-journal-${runId}`, namespace: ns.name });
const journalOf = (cm: V1ConfigMap) => JSON.parse(cm.data?.['journal.json'] ?? '{}');

/** The Events on the Job, oldest first, as `reason: note`. */
async function jobEvents(runId: string): Promise<string[]> {
  const list = await events.listNamespacedEvent({
    namespace: ns.name,
    fieldSelector: `regarding.name=${job.name}`,
  });
  return list.items
    .filter((e) => e.note?.includes(runId) && e.regarding?.uid === job.uid)
    .sort((a, b) => String(a.eventTime).localeCompare(String(b.eventTime)))
    .map((e) => `${e.reason}: ${e.note}`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-journals-'));
  ns = await testNamespace(cluster.kc, 'journals');
  await deploy(cluster.kc, ns.name, 'web', 2);
  // The run's Job, as deploy makes it; suspended, it starts no pod (the runs are this test's).
  const made = await cluster.kc.makeApiClient(BatchV1Api).createNamespacedJob({
    namespace: ns.name,
    body: {
      metadata: { name: 'chaoskit-web' },
      spec: {
        suspend: true,
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'chaoskit', image: 'example.invalid/runner:1' }],
          },
        },
      },
    },
  });
  job = { name: made.metadata!.name!, uid: made.metadata!.uid! };
});
afterAll(async () => {
  await ns?.remove();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('run --journal-to-cluster', { timeout: 180_000 }, () => {
  it('keeps the journal in a ConfigMap, lists it, renders it, and says on the Job how the run went', async () => {
    const file = await writeExperiment('web-holds', {
      title: 'Web holds: 2 pods, whatever happens',
      description: 'kept in the cluster',
      'steady-state-hypothesis': { title: 'two web pods', probes: [countWebPods(2)] },
      method: [countWebPods(2)],
      rollbacks: [scaleWeb('web-back-to-two')],
    });
    const journalPath = join(dir, 'web-holds.journal.json');
    const run = await chaoskit(
      [
        'run',
        file,
        '--journal-path',
        journalPath,
        '--journal-to-cluster',
        '--ledger-namespace',
        ns.name,
        '-n',
        ns.name,
      ],
      inJob(adminEnv()),
    );
    expect(run.code, run.stderr).toBe(0);
    const written = await readFile(journalPath, 'utf8');
    const runId = JSON.parse(written).run_id as string;
    expect(run.stderr).toContain(
      `its journal is kept in ConfigMap chaoskit-journal-${runId}, namespace ${ns.name}`,
    );

    // One ConfigMap, labelled; its journal is the file's, byte for byte (masked as the file is).
    const cm = await configMap(runId);
    expect(cm.metadata?.labels).toEqual({
      'app.kubernetes.io/managed-by': 'chaoskit',
      'chaoskit.io/journal': runId,
      'chaoskit.io/experiment': expect.stringMatching(/^Web-holds-2-pods-whatever-happens-[0-9a-f]{10}$/),
      'chaoskit.io/status': 'completed',
    });
    expect(cm.metadata?.annotations).toMatchObject({
      'chaoskit.io/title': 'Web holds: 2 pods, whatever happens',
      'chaoskit.io/deviated': 'false',
      'chaoskit.io/started': JSON.parse(written).start,
    });
    expect(cm.data?.['journal.json']).toBe(written);
    // Owned by its Job: it goes with it (the last test).
    expect(cm.metadata?.ownerReferences).toEqual([
      { apiVersion: 'batch/v1', kind: 'Job', name: job.name, uid: job.uid },
    ]);

    // chaoskit journals: the table, --json, and one journal whole.
    const table = await chaoskit(['journals', '-n', ns.name]);
    expect(table.code, table.stderr).toBe(0);
    const [header, row] = table.stdout.split('\n');
    expect(header).toMatch(/^RUN ID +EXPERIMENT +STATUS +STARTED +DEVIATED +DURATION$/);
    expect(row).toMatch(new RegExp(`^${runId} +Web-holds-\\S+ +completed +\\S+ +no +\\d+\\.\\ds$`));
    const listed = await chaoskit(['journals', '-n', ns.name, '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ runId, status: 'completed', deviated: false, truncated: false }),
    ]);
    const one = await chaoskit(['journals', runId, '-n', ns.name]);
    expect(one.stdout).toBe(written);

    // report --from-cluster: the report code of files, on the journal from the cluster.
    const report = await chaoskit([
      'report',
      '--from-cluster',
      'latest',
      '-n',
      ns.name,
      '--output',
      join(dir, 'report.html'),
      '--markdown',
      join(dir, 'report.md'),
    ]);
    expect(report.code, report.stderr).toBe(0);
    const markdown = await readFile(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain('Web holds: 2 pods, whatever happens');
    expect(markdown).toContain(`cluster:${ns.name}/${runId}`);
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);

    expect(await jobEvents(runId)).toEqual([
      `Started: run ${runId} started: Web holds: 2 pods, whatever happens (journal: ConfigMap chaoskit-journal-${runId})`,
      `RolledBack: run ${runId}: 1 rollback(s) played`,
      expect.stringMatching(new RegExp(`^Completed: run ${runId} ended: status completed, \\d+\\.\\d s$`)),
    ]);
  });

  it('leaves the journal of a run stopped mid-method saying interrupted, and the Job saying so', async () => {
    const run = await startRun(
      dir,
      'stopped',
      {
        title: 'stopped in its pause',
        description: 'SIGTERM, as a deleted pod gets',
        method: [{ ...scaleWeb('scale'), pauses: { after: 300 } }],
        rollbacks: [scaleWeb('scale-back')],
      },
      {
        env: inJob(adminEnv()),
        args: ['--journal-to-cluster', '--ledger-namespace', ns.name, '-n', ns.name],
      },
    );
    const runId = await run.methodDone(1);
    // Kept as it goes: the action is in the cluster's copy before the run ends.
    const during = await until('the action in the journal kept in the cluster', async () => {
      const cm = await configMap(runId).catch(() => undefined);
      return cm && journalOf(cm).run?.length === 1 ? cm : undefined;
    });
    expect(during.metadata?.labels?.['chaoskit.io/status']).toBe('running');
    run.child.kill('SIGTERM');
    const exited = await run.exited;
    expect(exited.code, exited.stderr).toBe(143);

    const cm = await configMap(runId);
    expect(cm.metadata?.labels?.['chaoskit.io/status']).toBe('interrupted');
    const kept = journalOf(cm);
    expect(kept.status).toBe('interrupted');
    expect(kept.rollbacks.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
    expect(cm.data?.['journal.json']).toBe(await readFile(run.journalPath, 'utf8'));
    expect(await jobEvents(runId)).toEqual([
      expect.stringMatching(/^Started: /),
      `Interrupted: run ${runId} interrupted by a signal: its rollbacks play before it stops`,
      `RolledBack: run ${runId}: 1 rollback(s) played`,
      expect.stringMatching(new RegExp(`^Ended: run ${runId} ended: status interrupted, `)),
    ]);
  });

  it('says a deviation: the journal kept in the cluster is deviated, and the Job has a Deviated Event', async () => {
    // The hypothesis holds while a marker file is absent; the method makes it.
    const marker = join(dir, 'deviation-marker');
    const sh = (type: 'probe' | 'action', name: string, script: string) => ({
      type,
      name,
      provider: { type: 'process', path: 'sh', arguments: ['-c', script] },
    });
    const file = await writeExperiment('deviates', {
      title: 'deviates on purpose',
      description: 'the method breaks the hypothesis',
      'steady-state-hypothesis': {
        title: 'no marker',
        probes: [{ ...sh('probe', 'no-marker', `test ! -e ${marker}`), tolerance: 0 }],
      },
      method: [sh('action', 'make-marker', `touch ${marker}`)],
    });
    const args = ['run', file, '--journal-to-cluster', '--ledger-namespace', ns.name, '-n', ns.name];
    const run = await chaoskit([...args, '--journal-path', join(dir, 'deviates.json')], inJob(adminEnv()));
    expect(run.code, run.stderr).toBe(1);
    const runId = JSON.parse(await readFile(join(dir, 'deviates.json'), 'utf8')).run_id as string;
    const cm = await configMap(runId);
    expect(cm.metadata?.annotations?.['chaoskit.io/deviated']).toBe('true');
    expect(journalOf(cm)).toMatchObject({ deviated: true, status: 'completed' });
    expect((await jobEvents(runId)).map((e) => e.split(':')[0])).toEqual([
      'Started',
      'Deviated',
      'Completed',
    ]);
  });

  it('needs no more than the Role chaoskit rbac --journal-to-cluster prints, and is refused without it', async () => {
    const file = await writeExperiment('looks', {
      title: 'only looks',
      description: 'probes: no record, only the journal',
      method: [countWebPods(2)],
    });
    const printed = await chaoskit(['rbac', file, '--journal-to-cluster', '--name', 'looks']);
    expect(printed.code, printed.stderr).toBe(0);
    const rbac = cluster.kc.makeApiClient(RbacAuthorizationV1Api);
    for (const role of loadAll(printed.stdout) as V1Role[])
      await rbac.createNamespacedRole({ namespace: ns.name, body: role });
    const roles = (loadAll(printed.stdout) as V1Role[]).map((r) => r.metadata!.name!);
    expect(roles).toEqual(['looks', 'looks-journal']);

    const allowed = await serviceAccountToken(
      cluster.kc,
      ns.name,
      'looker',
      roles.map((role) => ({ role, kind: 'Role' as const })),
    );
    const args = ['run', file, '--journal-to-cluster', '--ledger-namespace', ns.name, '-n', ns.name];
    const ran = await chaoskit(
      [...args, '--journal-path', join(dir, 'looks.json')],
      inJob(tokenEnv(cluster.credentials, allowed.token)),
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).not.toMatch(/could not be/);
    const listed = JSON.parse((await chaoskit(['journals', '-n', ns.name, '--json'])).stdout);
    expect(listed.filter((j: { title: string }) => j.title === 'only looks')).toHaveLength(1);

    // Without the journal's Role: refused before the run starts, nothing kept.
    const [activities] = loadAll(printed.stdout) as V1Role[];
    await rbac.createNamespacedRole({
      namespace: ns.name,
      body: { ...activities, metadata: { name: 'looks-only' } },
    });
    const denied = await serviceAccountToken(cluster.kc, ns.name, 'no-journal', [
      { role: 'looks-only', kind: 'Role' },
    ]);
    const refused = await chaoskit(
      [...args, '--journal-path', join(dir, 'refused.json')],
      inJob(tokenEnv(cluster.credentials, denied.token)),
    );
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(
      `chaoskit: User "${denied.identity}" may not create configmaps, get configmaps, update configmaps, create events in namespace '${ns.name}', which --journal-to-cluster needs`,
    );
    const after = JSON.parse((await chaoskit(['journals', '-n', ns.name, '--json'])).stdout);
    expect(after).toHaveLength(listed.length);
  });

  it("goes with its Job: a CronJob's history limit, or undeploy, removes the Job's journals", async () => {
    const before = JSON.parse((await chaoskit(['journals', '-n', ns.name, '--json'])).stdout);
    expect(before.length).toBeGreaterThanOrEqual(3);
    await cluster.kc
      .makeApiClient(BatchV1Api)
      .deleteNamespacedJob({ name: job.name, namespace: ns.name, propagationPolicy: 'Background' });
    await until(
      "the garbage collector to remove the Job's journals",
      async () =>
        (await core.listNamespacedConfigMap({ namespace: ns.name, labelSelector: 'chaoskit.io/journal' }))
          .items.length === 0,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const left = await chaoskit(['journals', '-n', ns.name, '--json']);
    expect(JSON.parse(left.stdout)).toEqual([]);
  });
});
