// Fixtures shared by the service cases (and the deprecated ones): Services in front of pods, and
// a Service as a user would write it in a spec file.
import assert from 'node:assert/strict';
import type { V1Service } from '@kubernetes/client-node';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { activityFailure, fileWriter, planCall } from '../shared-fixtures.js';

export { activityFailure, fileWriter as specDir };

/** A Service in front of the pods app=<name>. */
export async function createService(
  t: CaseContext,
  name: string,
  labels: Record<string, string>,
): Promise<void> {
  await t.core.createNamespacedService({
    namespace: t.ns,
    body: {
      metadata: { name, labels },
      spec: { selector: { app: name }, ports: [{ port: 80, protocol: 'TCP' }] },
    },
  });
}

/** The names of the services of the scenario's namespace, sorted. */
export async function serviceNames(t: CaseContext): Promise<string[]> {
  const list = await t.core.listNamespacedService({ namespace: t.ns });
  return list.items.map((s) => s.metadata!.name!).sort();
}

/** A Service as a user would write it in a spec file (no namespace unless given). */
export function serviceDoc(
  name: string,
  extra: { labels?: Record<string, string>; namespace?: string } = {},
): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      labels: { app: name, ...extra.labels },
      ...(extra.namespace ? { namespace: extra.namespace } : {}),
    },
    spec: { selector: { app: name }, ports: [{ port: 80, protocol: 'TCP' }] },
  };
}

/**
 * delete_service and remove_service_endpoint: of the services web and api (each labelled
 * `label`=<its name>), `removeWeb` deletes web, and api stays.
 */
export function removesOnlyWeb(
  name: string,
  label: string,
  removeWeb: (t: CaseContext) => Promise<void>,
): Scenario {
  return {
    name,
    async run(t) {
      await createService(t, 'web', { [label]: 'web' });
      await createService(t, 'api', { [label]: 'api' });
      await removeWeb(t);
      assert.deepEqual(await serviceNames(t), ['api']);
    },
  };
}

/** delete_service and remove_service_endpoint in plan mode: a server-side dry run, the service stays. */
export const planLeavesTheService: Scenario = {
  name: 'plan mode sends a server-side dry run: the service stays',
  async run(t) {
    await createService(t, 'web', {});
    assert.deepEqual((await planCall(t, { name: 'web', ns: t.ns })).result, {
      service: 'web',
      namespace: t.ns,
    });
    assert.deepEqual(await serviceNames(t), ['web']);
  },
};

/** delete_service and remove_service_endpoint: what they refuse, and the Service that stays. */
export const serviceRefusals: Scenario = {
  name: 'a missing or bad name, a bad namespace and unknown arguments are refused before any request',
  async run(t) {
    await createService(t, 'keep', {});
    await t.expectRefused({ ns: t.ns }, 'name');
    await t.expectRefused({ name: 'Keep_1', ns: t.ns }, 'name');
    await t.expectRefused({ name: '1keep', ns: t.ns }, 'name');
    await t.expectRefused({ name: 'keep', ns: 'Not_A_Namespace' }, 'ns');
    await t.expectRefused({ name: 'keep', ns: t.ns, label_selector: 'app=keep' }, 'label_selector');
    assert.deepEqual(await serviceNames(t), ['keep']);
  },
};
