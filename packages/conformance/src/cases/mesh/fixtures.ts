// Fixtures shared by the mesh cases: a VirtualService with several kinds of http routes, reads
// at any API version, whole-object comparisons, and a real concurrent edit between an
// activity's read and its write.

import assert from 'node:assert/strict';
import type { Fault, HttpRoute, MeshVersion, VirtualService } from '@chaoskit/chaosmesh-fault';
import { VERSIONS } from '@chaoskit/chaosmesh-fault';
import { type AnyActivity, isChaosError } from '@chaoskit/core';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { interceptFirstWrite } from './interceptor.js';

export { VERSIONS };
export const GROUP = 'networking.istio.io';
export const PLURAL = 'virtualservices';
export const VS_NAME = 'bookinfo';

/** Indexes of the fixture's http routes, by what they are there for. */
export const ROUTE = {
  /** reviews/v2 only, behind a header match. */
  jason: 0,
  /** Two destinations: reviews/v1 (80) and reviews/v3 (20). */
  split: 1,
  /** A destination without subset: ratings. */
  ratings: 2,
  /** details/v1, with a delay already. */
  slow: 3,
  /** orders/v1, with an abort and a delay already. */
  broken: 4,
  /** No `route` at all: a redirect. */
  moved: 5,
  /** The catch-all: productpage/v1, with a timeout. */
  fallback: 6,
} as const;

export const EXISTING_DELAY = { fixedDelay: '2s', percentage: { value: 10 } };
export const EXISTING_BROKEN = {
  abort: { httpStatus: 503, percentage: { value: 25 } },
  delay: { fixedDelay: '1s' },
};

/** The percentage chaoskit writes when none is given (D85). */
export const ALL = { value: 100 };

export const to = (host: string, subset?: string) => ({
  destination: subset === undefined ? { host } : { host, subset },
});

export function bookinfoHttp(): HttpRoute[] {
  return [
    {
      name: 'jason',
      match: [{ headers: { 'end-user': { exact: 'jason' } } }],
      route: [to('reviews', 'v2')],
    },
    {
      name: 'split',
      match: [{ uri: { prefix: '/reviews' } }],
      route: [
        { ...to('reviews', 'v1'), weight: 80 },
        { ...to('reviews', 'v3'), weight: 20 },
      ],
    },
    { name: 'ratings', match: [{ uri: { prefix: '/ratings' } }], route: [to('ratings')] },
    {
      name: 'slow',
      match: [{ uri: { prefix: '/details' } }],
      route: [to('details', 'v1')],
      fault: { delay: EXISTING_DELAY },
    },
    {
      name: 'broken',
      match: [{ uri: { prefix: '/orders' } }],
      route: [to('orders', 'v1')],
      fault: EXISTING_BROKEN,
    },
    { name: 'moved', match: [{ uri: { prefix: '/old' } }], redirect: { uri: '/new' } },
    { name: 'fallback', route: [to('productpage', 'v1')], timeout: '10s' },
  ];
}

export function objects(t: CaseContext): CustomObjectsApi {
  return t.kc.makeApiClient(CustomObjectsApi);
}

/** Creates a VirtualService (admin, stored version v1) in the scenario's namespace; `dryRun` only asks the server. */
export function createVirtualService(
  t: CaseContext,
  metadata: { name: string; labels?: Record<string, string> },
  spec: Record<string, unknown>,
  options: { dryRun?: 'All' } = {},
): Promise<object> {
  return objects(t).createNamespacedCustomObject({
    group: GROUP,
    version: 'v1',
    namespace: t.ns,
    plural: PLURAL,
    ...options,
    body: { apiVersion: `${GROUP}/v1`, kind: 'VirtualService', metadata, spec },
  });
}

/** Creates the fixture VirtualService in the scenario's namespace. */
export async function createBookinfo(t: CaseContext, name = VS_NAME): Promise<void> {
  await createVirtualService(
    t,
    { name, labels: { app: 'bookinfo' } },
    { hosts: ['reviews', 'ratings', 'details', 'orders', 'productpage'], http: bookinfoHttp() },
  );
}

/** The VirtualService as the admin reads it at `version`. */
export async function readVs(t: CaseContext, version: MeshVersion, name = VS_NAME): Promise<VirtualService> {
  return (await objects(t).getNamespacedCustomObject({
    group: GROUP,
    version: version.split('/')[1]!,
    namespace: t.ns,
    plural: PLURAL,
    name,
  })) as VirtualService;
}

/** Writes the VirtualService back (admin, stored version v1), as another client would. */
export async function replaceVs(t: CaseContext, vs: VirtualService): Promise<VirtualService> {
  return (await objects(t).replaceNamespacedCustomObject({
    group: GROUP,
    version: 'v1',
    namespace: t.ns,
    plural: PLURAL,
    name: vs.metadata.name,
    body: { ...vs, apiVersion: `${GROUP}/v1` },
  })) as VirtualService;
}

/** The object without what the server changes on every write. */
export function withoutServerFields(vs: VirtualService): unknown {
  const copy = structuredClone(vs);
  const metadata = copy.metadata as Record<string, unknown>;
  delete metadata.resourceVersion;
  delete metadata.generation;
  delete metadata.managedFields;
  return copy;
}

/** `before` with the faults of some http routes replaced (undefined: no fault key at all). */
export function withFaults(
  before: VirtualService,
  faults: Record<number, Fault | undefined>,
): VirtualService {
  const copy = structuredClone(before);
  for (const [index, fault] of Object.entries(faults)) {
    const entry = copy.spec.http![Number(index)]!;
    if (fault === undefined) delete entry.fault;
    else entry.fault = fault as Record<string, unknown>;
  }
  return copy;
}

/**
 * Asserts the whole object: `after` is `before` with exactly the given faults changed (and the
 * server's resourceVersion, generation and managedFields), nothing else.
 */
export function assertOnlyFaultsChanged(
  before: VirtualService,
  after: VirtualService,
  faults: Record<number, Fault | undefined>,
): void {
  assert.deepEqual(withoutServerFields(after), withoutServerFields(withFaults(before, faults)));
  assert.notEqual(after.metadata.resourceVersion, before.metadata.resourceVersion);
}

/** One scenario per API version: "on networking.istio.io/v1beta1: <name>". */
export function onEveryVersion<A extends AnyActivity>(
  name: string,
  run: (t: CaseContext<A>, version: MeshVersion) => Promise<void>,
): Scenario<A>[] {
  return VERSIONS.map((version) => ({ name: `on ${version}: ${name}`, run: (t) => run(t, version) }));
}

/**
 * The standard scenario of an action on one version: create the fixture, read it at that
 * version, run the action with `args`, and compare the whole object before and after.
 */
export function editScenarios(
  name: string,
  args: Record<string, unknown>,
  faults: (before: VirtualService) => Record<number, Fault | undefined>,
): Scenario[] {
  return onEveryVersion(name, async (t, version) => {
    await createBookinfo(t);
    const before = await readVs(t, version);
    const result = await t.call({
      virtual_service_name: VS_NAME,
      ns: t.ns,
      version,
      ...args,
    });
    const after = await readVs(t, version);
    assert.equal(after.apiVersion, version);
    assert.deepEqual(result, after, 'the result is the updated virtual service, as stored');
    assertOnlyFaultsChanged(before, after, faults(before));
  });
}

/** Updates the identity sent since `since` (local provider), with their response codes. */
export async function updatesSince(t: CaseContext, since: Date): Promise<number[] | undefined> {
  if (!t.cluster.auditLogPath) return undefined;
  return (await t.requestsSince(since))
    .filter((e) => e.verb === 'update' && e.objectRef?.resource === PLURAL && e.objectRef.namespace === t.ns)
    .map((e) => e.responseStatus?.code ?? 0);
}

/** Asserts that `promise` rejects with ActivityFailed; returns the message. */
export async function activityFailure(promise: Promise<unknown>): Promise<string> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  assert.ok('error' in outcome, `expected ActivityFailed, got the result ${JSON.stringify(outcome)}`);
  assert.ok(
    isChaosError(outcome.error, 'ActivityFailed'),
    `expected ActivityFailed, got ${String(outcome.error)}`,
  );
  return (outcome.error as Error).message;
}

/**
 * No route matches: ActivityFailed naming the selectors and what the routes send to; the
 * object keeps its resourceVersion and no update was sent. Also: a missing virtual service.
 */
export function failureScenarios(args: Record<string, unknown>): Scenario[] {
  return [
    {
      name: 'no matching route: ActivityFailed, nothing written, the resourceVersion unchanged',
      async run(t) {
        await createBookinfo(t);
        const before = await readVs(t, 'networking.istio.io/v1');
        const since = new Date(Date.now() - 1000);
        const message = await activityFailure(
          t.call({
            ...args,
            virtual_service_name: VS_NAME,
            ns: t.ns,
            routes: [to('reviews', 'v9'), to('nowhere')],
          }),
        );
        assert.match(
          message,
          new RegExp(
            `no http route of virtual service '${VS_NAME}' in namespace '${t.ns}' \\(networking.istio.io/v1alpha3\\) sends to reviews/v9, nowhere \\(any subset\\); nothing was changed \\(its http routes send to reviews/v2, reviews/v1, reviews/v3, ratings, details/v1, orders/v1, productpage/v1\\)`,
          ),
        );
        const after = await readVs(t, 'networking.istio.io/v1');
        assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
        assert.deepEqual(after, before);
        const updates = await updatesSince(t, since);
        if (updates) assert.deepEqual(updates, [], 'no update was sent');
      },
    },
    {
      name: 'a missing virtual service: ActivityFailed naming it',
      async run(t) {
        await createBookinfo(t);
        const message = await activityFailure(
          t.call({
            routes: [to('reviews', 'v2')],
            ...args,
            virtual_service_name: 'ghost',
            ns: t.ns,
            version: 'networking.istio.io/v1beta1',
          }),
        );
        assert.equal(
          message,
          `virtual service 'ghost' in namespace '${t.ns}' (networking.istio.io/v1beta1) does not exist`,
        );
      },
    },
  ];
}

/**
 * A concurrent edit between the activity's read and its write survives: another client changes
 * a label and the fallback route's timeout (and, optionally, more) after the activity has read
 * the object; the activity's write conflicts, it reads again and re-applies its change; the
 * final object holds both changes.
 */
export function concurrentEditScenario(options: {
  args: Record<string, unknown>;
  /** More of the concurrent edit, on the object as stored (v1). */
  alsoEdit?: (vs: VirtualService) => void;
  /** The faults expected in the end, by http route index (over the concurrent edit). */
  faults: Record<number, Fault | undefined>;
}): Scenario {
  return {
    name: 'a concurrent edit between the read and the write survives: conflict, read again, re-apply',
    async run(t) {
      await createBookinfo(t);
      const version: MeshVersion = 'networking.istio.io/v1';
      const before = await readVs(t, version);
      const interceptor = await interceptFirstWrite(t, async () => {
        const current = await readVs(t, version);
        current.metadata.labels = { ...(current.metadata.labels as object), edited: 'concurrently' };
        current.spec.http![ROUTE.fallback]!.timeout = '3s';
        options.alsoEdit?.(current);
        await replaceVs(t, current);
      });
      const since = new Date(Date.now() - 1000);
      const result = await t.activity.call(
        { ...options.args, virtual_service_name: VS_NAME, ns: t.ns, version },
        { secrets: interceptor.secrets, log: (m) => t.log(`${t.activity.name}: ${m}`) },
      );
      assert.equal(interceptor.fired(), true, 'the write was held and the concurrent edit made');
      const after = await readVs(t, version);
      assert.deepEqual(result, after);
      const edited = structuredClone(before);
      edited.metadata.labels = { ...(edited.metadata.labels as object), edited: 'concurrently' };
      edited.spec.http![ROUTE.fallback]!.timeout = '3s';
      options.alsoEdit?.(edited);
      const expected = withFaults(edited, options.faults);
      assert.deepEqual(withoutServerFields(after), withoutServerFields(expected));
      const updates = await updatesSince(t, since);
      if (updates) assert.deepEqual(updates, [409, 200], 'the first write conflicted, the second landed');
    },
  };
}

/** Arguments refused before any request, common to every action. */
export async function expectCommonRefusals(t: CaseContext, args: Record<string, unknown>): Promise<void> {
  const good = { virtual_service_name: VS_NAME, ns: t.ns, routes: [to('reviews', 'v2')], ...args };
  await t.expectRefused({ ...good, routes: [] }, 'routes');
  await t.expectRefused({ ...good, routes: [{ weight: 50 }] }, 'routes');
  await t.expectRefused({ ...good, routes: [{ destination: { subset: 'v2' } }] }, 'routes');
  await t.expectRefused({ ...good, routes: 'reviews' }, 'routes');
  await t.expectRefused({ ...good, version: 'v1beta1' }, 'version');
  await t.expectRefused({ ...good, version: 'networking.istio.io/v2' }, 'version');
  await t.expectRefused({ ...good, virtual_service_name: 'Book_Info' }, 'virtual_service_name');
  await t.expectRefused({ ...good, ns: 'Not A Namespace' }, 'ns');
}
