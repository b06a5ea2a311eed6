// The scenarios every mesh action shares, on the fixture VirtualService: an edit compared as a
// whole object, a call with nothing to change, no matching route, a real concurrent edit
// between the action's read and its write, and arguments refused before any request.

import assert from 'node:assert/strict';
import {
  DEFAULT_VERSION,
  type Fault,
  type MeshVersion,
  type VirtualService,
} from '@chaoskit/chaosmesh-fault';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { activityFailure } from '../shared-fixtures.js';
import {
  assertOnlyFaultsChanged,
  createBookinfo,
  onEveryVersion,
  ROUTE,
  readVs,
  replaceVs,
  to,
  updatesSince,
  VS_NAME,
  withFaults,
  withoutServerFields,
} from './fixtures.js';
import { interceptFirstWrite } from './interceptor.js';

type Faults = Record<number, Fault | undefined>;

/**
 * Creates the fixture and runs the action with `args` (without `version`: its default); read
 * at the version the action used, the stored object is the one returned, with exactly
 * `faults` changed.
 */
async function assertEdit(t: CaseContext, args: Record<string, unknown>, faults: Faults): Promise<void> {
  const version = (args.version as MeshVersion | undefined) ?? DEFAULT_VERSION;
  await createBookinfo(t);
  const before = await readVs(t, version);
  const result = await t.call({ virtual_service_name: VS_NAME, ns: t.ns, ...args });
  const after = await readVs(t, version);
  assert.equal(after.apiVersion, version);
  assert.deepEqual(result, after, 'the result is the updated virtual service, as stored');
  assertOnlyFaultsChanged(before, after, faults);
}

/** One edit, compared as a whole object (see assertEdit). */
export function editScenario(name: string, args: Record<string, unknown>, faults: Faults): Scenario {
  return { name, run: (t) => assertEdit(t, args, faults) };
}

/** The standard scenario of an action: the same edit on every API version. */
export function editScenarios(name: string, args: Record<string, unknown>, faults: Faults): Scenario[] {
  return onEveryVersion(name, (t, version) => assertEdit(t, { ...args, version }, faults));
}

/** Nothing to change on the matched routes: no write, the object returned as it is. */
export function noWriteScenario(name: string, args: Record<string, unknown>): Scenario {
  return {
    name,
    async run(t) {
      await createBookinfo(t);
      const version = (args.version as MeshVersion | undefined) ?? DEFAULT_VERSION;
      const before = await readVs(t, version);
      const since = new Date(Date.now() - 1000);
      const result = await t.call({ virtual_service_name: VS_NAME, ns: t.ns, ...args });
      assert.deepEqual(result, before);
      assert.equal((await readVs(t, version)).metadata.resourceVersion, before.metadata.resourceVersion);
      const updates = await updatesSince(t, since);
      if (updates) assert.deepEqual(updates, []);
    },
  };
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

/**
 * Bad arguments are refused before any request and the object stays as it is: `refuse` tries
 * the action's own, starting from `good` (the fixture, one route and `args`); then come the
 * ones every action refuses.
 */
export function refusalScenario(
  name: string,
  args: Record<string, unknown>,
  refuse: (t: CaseContext, good: Record<string, unknown>) => Promise<void>,
): Scenario {
  return {
    name,
    async run(t) {
      await createBookinfo(t);
      const before = await readVs(t, 'networking.istio.io/v1');
      const good = { virtual_service_name: VS_NAME, ns: t.ns, routes: [to('reviews', 'v2')], ...args };
      await refuse(t, good);
      await t.expectRefused({ ...good, routes: [] }, 'routes');
      await t.expectRefused({ ...good, routes: [{ weight: 50 }] }, 'routes');
      await t.expectRefused({ ...good, routes: [{ destination: { subset: 'v2' } }] }, 'routes');
      await t.expectRefused({ ...good, routes: 'reviews' }, 'routes');
      await t.expectRefused({ ...good, version: 'v1beta1' }, 'version');
      await t.expectRefused({ ...good, version: 'networking.istio.io/v2' }, 'version');
      await t.expectRefused({ ...good, virtual_service_name: 'Book_Info' }, 'virtual_service_name');
      await t.expectRefused({ ...good, ns: 'Not A Namespace' }, 'ns');
      assert.deepEqual(await readVs(t, 'networking.istio.io/v1'), before);
    },
  };
}

/**
 * What every fault action refuses and fails on, from `args` (what its own arguments add to a
 * good call): failureScenarios, then refusalScenario with the action's own refusals.
 */
export function failureAndRefusalScenarios(
  args: Record<string, unknown>,
  name: string,
  refuse: (t: CaseContext, good: Record<string, unknown>) => Promise<void>,
): Scenario[] {
  return [...failureScenarios(args), refusalScenario(name, args, refuse)];
}
