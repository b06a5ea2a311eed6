// The Events a run posts on what it changes (D134), read as `kubectl describe` reads them: core/v1
// Events by involvedObject. A run that scales a deployment and terminates pods leaves
// ChaosInjected on each (its run id, its activity), its rollback ChaosReverted, and so does
// `chaoskit revert`; plan posts none (the audit log); an identity that may not create events
// still makes every change, and is told once.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog } from '@chaoskit/cluster';
import { deploy, fileNamespace, serviceAccountEnv, sharedCluster, until } from '@chaoskit/cluster/testing';
import { AppsV1Api, CoreV1Api, type CoreV1Event, type V1Role } from '@kubernetes/client-node';
import { dump, loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { runCli } from './testing/test-cli.js';
import { activity } from './testing/test-experiments.js';
import { clusterLeverReader, printedRoles } from './testing/test-identities.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const apps = cluster.kc.makeApiClient(AppsV1Api);
const ns = fileNamespace(cluster.kc, 'change-events');
let dir: string;
/** May do anything in the namespace (a RoleBinding of cluster-admin there). */
let admin: Awaited<ReturnType<typeof serviceAccountEnv>>;

const SCALE = 'chaoscluster.deployment.actions.scale_deployment';
const TERMINATE = 'chaoscluster.pod.actions.terminate_pods';

const scale = (name: string, replicas: number, deployment = 'web') =>
  activity('action', name, 'chaoscluster.deployment.actions', 'scale_deployment', {
    ns: ns.name,
    name: deployment,
    replicas,
  });

const terminate = (qty: number, app = 'web') =>
  activity('action', 'terminate', 'chaoscluster.pod.actions', 'terminate_pods', {
    ns: ns.name,
    label_selector: `app=${app}`,
    qty,
    grace_period: 0,
  });

async function experiment(name: string, body: object): Promise<string> {
  await writeFile(join(dir, name), dump({ description: 'Events on what a run changes', ...body }));
  return name;
}

const as = (identity: { env: NodeJS.ProcessEnv }, args: string[]) =>
  runCli(args, { env: identity.env, cwd: dir });
/** Where the runs keep their record and watch the halt lever: the test's namespace. */
const ledger = () => ['--ledger-namespace', ns.name];

/** What `kubectl describe` lists for an object: its core/v1 Events, by involvedObject. */
async function eventsOn(ref: { kind: string; name: string; uid?: string }): Promise<CoreV1Event[]> {
  const fieldSelector = [
    `involvedObject.kind=${ref.kind}`,
    `involvedObject.name=${ref.name}`,
    `involvedObject.namespace=${ns.name}`,
    ...(ref.uid ? [`involvedObject.uid=${ref.uid}`] : []),
  ].join(',');
  return (await core.listNamespacedEvent({ namespace: ns.name, fieldSelector })).items.filter(
    (e) => e.reportingComponent === 'chaoskit',
  );
}

const said = (events: CoreV1Event[], runId: string) =>
  events.filter((e) => e.message?.includes(runId)).map((e) => `${e.type} ${e.reason}: ${e.message}`);

const uidOf = async (name: string) =>
  (await apps.readNamespacedDeployment({ name, namespace: ns.name })).metadata!.uid!;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-change-events-'));
  admin = await serviceAccountEnv(cluster, ns.name, 'operator', [
    { role: 'cluster-admin' },
    await clusterLeverReader(cluster.kc),
  ]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a run', () => {
  beforeAll(() => deploy(cluster.kc, ns.name, 'web', 3));

  it("posts ChaosInjected on each object its activities change, ChaosReverted on its rollback's", async () => {
    const file = await experiment('scale-and-kill.yaml', {
      title: 'web grows and loses pods',
      // 2 of the 3 pods that surely exist: the grown ones may not yet when terminate selects (the
      // ReplicaSet creates them after the scale returns), and 3 of 3 would trip the pod-share rail.
      method: [scale('grow', 5), terminate(2)],
      rollbacks: [scale('shrink back', 3)],
    });
    const uid = await uidOf('web');
    const out = await as(admin, ['run', file, '--journal-path', 'scale-and-kill.json', ...ledger()]);
    expect(out.code, out.stderr).toBe(EXIT.ok);
    expect(out.stderr).not.toMatch(/Event/);
    const journal = JSON.parse(await readFile(join(dir, 'scale-and-kill.json'), 'utf8'));
    const runId: string = journal.run_id;
    expect(runId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);

    // As `kubectl describe deployment web` lists them: the change, then its undoing.
    const onWeb = await until('the Events on the deployment', async () => {
      const events = said(await eventsOn({ kind: 'Deployment', name: 'web', uid }), runId);
      return events.length >= 2 && events;
    });
    expect(onWeb.sort()).toEqual([
      `Normal ChaosInjected: chaoskit run ${runId}: changed by activity ${SCALE}`,
      `Normal ChaosReverted: chaoskit run ${runId}: changed by rollback activity ${SCALE}`,
    ]);
    const [event] = await eventsOn({ kind: 'Deployment', name: 'web', uid });
    expect(event).toMatchObject({
      source: { component: 'chaoskit' },
      reportingComponent: 'chaoskit',
      involvedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: ns.name, uid },
    });
    expect(JSON.stringify(event)).not.toContain(cluster.credentials.server);

    // One Event on each pod terminated, by its own uid.
    const killed: string[] = journal.run[1].output.pods;
    expect(killed).toHaveLength(2);
    for (const pod of killed) {
      const onPod = await until(`the Event on pod ${pod}`, async () => {
        const events = said(await eventsOn({ kind: 'Pod', name: pod }), runId);
        return events.length > 0 && events;
      });
      expect(onPod).toEqual([
        `Normal ChaosInjected: chaoskit run ${runId}: deleted by activity ${TERMINATE}`,
      ]);
    }
    const [onPod] = await eventsOn({ kind: 'Pod', name: killed[0]! });
    expect(onPod?.involvedObject.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: ns.name })).spec?.replicas).toBe(3);
  });

  it('`chaoskit revert` posts ChaosReverted on the object it restores', async () => {
    await deploy(cluster.kc, ns.name, 'api', 2);
    const uid = await uidOf('api');
    const file = await experiment('grow-api.yaml', { title: 'api grows', method: [scale('grow', 4, 'api')] });
    const out = await as(admin, ['run', file, '--journal-path', 'grow-api.json', ...ledger()]);
    // No rollback: the change is left for revert.
    expect(out.code, out.stderr).toBe(EXIT.leftInPlace);
    const runId: string = JSON.parse(await readFile(join(dir, 'grow-api.json'), 'utf8')).run_id;
    const reverted = await as(admin, ['revert', runId, ...ledger()]);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect((await apps.readNamespacedDeployment({ name: 'api', namespace: ns.name })).spec?.replicas).toBe(2);
    const events = await until('the Events on api', async () => {
      const found = said(await eventsOn({ kind: 'Deployment', name: 'api', uid }), runId);
      return found.length >= 2 && found;
    });
    expect(events.sort()).toEqual([
      `Normal ChaosInjected: chaoskit run ${runId}: changed by activity ${SCALE}`,
      `Normal ChaosReverted: chaoskit revert of run ${runId}: restored (changed by ${SCALE})`,
    ]);
  });

  it('in plan mode posts none: the audit log has no events create', async () => {
    await deploy(cluster.kc, ns.name, 'plan', 2);
    const since = new Date();
    const file = await experiment('plan.yaml', {
      title: 'plan grows and kills',
      method: [scale('grow', 4, 'plan'), terminate(1, 'plan')],
    });
    const out = await as(admin, ['plan', file]);
    expect(out.code, out.stderr).toBe(0);
    // The plan's dry-run writes reached the apiserver (the log has caught up with it): none an Event.
    const requests = await until('the plan in the audit log', async () => {
      const events = await readAuditLog(cluster.auditLogPath, { user: admin.identity, since });
      return events.some((e) => e.verb === 'patch' && e.objectRef?.resource === 'deployments') && events;
    });
    expect(requests.filter((e) => e.objectRef?.resource === 'events')).toEqual([]);
    expect((await apps.readNamespacedDeployment({ name: 'plan', namespace: ns.name })).spec?.replicas).toBe(
      2,
    );
  });
});

it('an identity that may not create events makes every change, and is told once', async () => {
  await deploy(cluster.kc, ns.name, 'shop', 4);
  const file = await experiment('shop.yaml', {
    title: 'shop grows and loses pods',
    method: [scale('grow', 6, 'shop'), terminate(3, 'shop')],
  });
  // What chaoskit rbac prints for it, but the events.
  const printed = await runCli(['rbac', file, '--name', 'no-events'], { cwd: dir });
  expect(printed.code, printed.stderr).toBe(0);
  const roles = loadAll(printed.stdout) as V1Role[];
  expect(roles[0]?.rules).toContainEqual({ apiGroups: [''], resources: ['events'], verbs: ['create'] });
  const withoutEvents = roles
    .map((role) => ({ ...role, rules: role.rules?.filter((r) => !r.resources?.includes('events')) }))
    .map((role) => dump(role))
    .join('---\n');
  const quiet = await serviceAccountEnv(
    cluster,
    ns.name,
    'no-events',
    await printedRoles(cluster.kc, withoutEvents, ns.name),
  );
  const since = new Date();
  const out = await as(quiet, ['run', file, '--journal-path', 'shop.json', ...ledger()]);
  // Its change left in place (no rollback), as without Events.
  expect(out.code, out.stderr).toBe(EXIT.leftInPlace);
  // Its warnings: the one of the missing right (not one per object), and what it left in place.
  const warnings = out.stderr.split('\n').filter((line) => line.includes(' WARN] '));
  expect(warnings).toEqual([
    expect.stringContaining(
      `the identity may not create events (events create) in namespace '${ns.name}': the run goes on`,
    ),
    expect.stringContaining("This run's changes still in place: deployment 'shop'"),
  ]);
  // The changes were made: shop grew, three of its pods went.
  expect((await apps.readNamespacedDeployment({ name: 'shop', namespace: ns.name })).spec?.replicas).toBe(6);
  const journal = JSON.parse(await readFile(join(dir, 'shop.json'), 'utf8'));
  expect(journal.run.map((r: { status: string }) => r.status)).toEqual(['succeeded', 'succeeded']);
  expect(journal.run[1].output.pods).toHaveLength(3);
  // Each change's Event was asked for and refused: one per object (the deployment, three pods),
  // each refusal asked once more as core asks every 403 (a restarting apiserver's is not final).
  const refused = await until('the refused Events in the audit log', async () => {
    const events = (await readAuditLog(cluster.auditLogPath, { user: quiet.identity, since })).filter(
      (e) => e.objectRef?.resource === 'events' && e.verb === 'create',
    );
    return events.length >= 8 && events;
  });
  expect(refused.map((e) => e.responseStatus?.code)).toEqual(Array(8).fill(403));
});
