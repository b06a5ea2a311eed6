// The Event the write chain posts after a real write (D134), on the real apiserver: a
// cluster-wide object's kept in `default`, found as `kubectl describe` finds it (every namespace,
// by involvedObject, no namespace); ChaosReverted within asReverting; none for a dry run.

import { adminSecrets, sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, expect, it } from 'vitest';
import { kubeClient, transportOf } from '../client/kube-client.js';
import { asReverting } from '../telemetry/telemetry.js';
import { Namespaces } from '../transport/resources.js';
import { RunNotes } from './notes.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const name = `notes-${process.pid}-${Date.now().toString(36)}`;
const runId = `notes-test-${process.pid}`;

afterAll(async () => {
  await core.deleteNamespace({ name }).catch(() => undefined);
});

/** The Events `kubectl describe namespace <name>` lists: of every namespace, by involvedObject. */
const described = async () =>
  (
    await core.listEventForAllNamespaces({
      fieldSelector: `involvedObject.kind=Namespace,involvedObject.name=${name},involvedObject.namespace=`,
    })
  ).items.filter((e) => e.reportingComponent === 'chaoskit');

it("a cluster-wide object's Events are kept in default, injected then reverted; a dry run posts none", async () => {
  const notes = new RunNotes({ runId, warn: (line) => expect.fail(line) });
  const onCluster = notes.for(transportOf(kubeClient(adminSecrets())));
  const client = (dryRun = false) =>
    kubeClient(adminSecrets(), { activity: 'chaoskit.test.actions.namespace', dryRun, notes: onCluster });
  const made = await client().create<{ metadata: { uid: string } }>(Namespaces, { metadata: { name } });
  await client(true).patch(Namespaces, name, { metadata: { labels: { planned: 'yes' } } }, 'merge');
  await asReverting(() =>
    client().patch(Namespaces, name, { metadata: { labels: { back: 'yes' } } }, 'merge'),
  );
  await notes.settled();
  const events = await described();
  expect(
    events.map((e) => [e.metadata?.namespace, e.reason, e.message, e.involvedObject.uid]).sort(),
  ).toEqual([
    [
      'default',
      'ChaosInjected',
      `chaoskit run ${runId}: created by activity chaoskit.test.actions.namespace`,
      made.metadata.uid,
    ],
    [
      'default',
      'ChaosReverted',
      `chaoskit run ${runId}: changed by rollback activity chaoskit.test.actions.namespace`,
      made.metadata.uid,
    ],
  ]);
  expect(events[0]).toMatchObject({ type: 'Normal', source: { component: 'chaoskit' } });
});
