// Fixtures shared by the mesh cases: a VirtualService with several kinds of http routes, reads
// at any API version and whole-object comparisons (the scenarios built on them: scenarios.ts).

import assert from 'node:assert/strict';
import type { Fault, HttpRoute, MeshVersion, VirtualService } from '@chaoskit/chaosmesh-fault';
import { VERSIONS } from '@chaoskit/chaosmesh-fault';
import type { AnyActivity } from '@chaoskit/core';
import { CustomObjectsApi } from '@kubernetes/client-node';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';

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

/** Updates the identity sent since `since` (local provider), with their response codes. */
export async function updatesSince(t: CaseContext, since: Date): Promise<number[] | undefined> {
  if (!t.cluster.auditLogPath) return undefined;
  return (await t.requestsSince(since))
    .filter((e) => e.verb === 'update' && e.objectRef?.resource === PLURAL && e.objectRef.namespace === t.ns)
    .map((e) => e.responseStatus?.code ?? 0);
}
