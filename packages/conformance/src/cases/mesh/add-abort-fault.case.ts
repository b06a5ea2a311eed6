import assert from 'node:assert/strict';
import { addAbortFaultActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import {
  ALL,
  assertOnlyFaultsChanged,
  createBookinfo,
  EXISTING_BROKEN,
  EXISTING_DELAY,
  ROUTE,
  readVs,
  to,
  updatesSince,
  VS_NAME,
} from './fixtures.js';
import {
  concurrentEditScenario,
  editScenario,
  editScenarios,
  failureAndRefusalScenarios,
} from './scenarios.js';
import { assertAbortedShare, assertAllAborted, assertAllServed, trafficScenarios } from './traffic.js';

const abort418 = { httpStatus: 418, percentage: { value: 50 } };
const abortAll503 = { abort: { httpStatus: 503, percentage: { value: 100 } } };

export default defineCase({
  activity: addAbortFaultActivity,
  needs: { mesh: true },
  scenarios: [
    ...editScenarios(
      'sets the abort on the named routes only: one of two destinations matches its entry, an existing delay is kept',
      { http_status: 418, percentage: 50, routes: [to('reviews', 'v3'), to('details', 'v1')] },
      {
        [ROUTE.split]: { abort: abort418 },
        [ROUTE.slow]: { delay: EXISTING_DELAY, abort: abort418 },
      },
    ),
    editScenario(
      'a destination without subset matches by host (subsets or none); percentage as {value}',
      { http_status: 503, percentage: { value: 100.0 }, routes: [to('reviews'), to('ratings')] },
      { [ROUTE.jason]: abortAll503, [ROUTE.split]: abortAll503, [ROUTE.ratings]: abortAll503 },
    ),
    editScenario(
      'replaces an existing abort and keeps the delay beside it; no percentage is written as 100 (D85)',
      { version: 'networking.istio.io/v1', http_status: 500, routes: [to('orders', 'v1')] },
      { [ROUTE.broken]: { abort: { httpStatus: 500, percentage: ALL }, delay: EXISTING_BROKEN.delay } },
    ),
    concurrentEditScenario({
      args: { http_status: 503, routes: [to('reviews', 'v2')] },
      faults: { [ROUTE.jason]: { abort: { httpStatus: 503, percentage: ALL } } },
    }),
    {
      name: 'several activities at once on different routes: every one of them lands',
      async run(t) {
        await createBookinfo(t);
        const before = await readVs(t, 'networking.istio.io/v1');
        const targets = [
          [to('reviews', 'v2'), 500],
          [to('reviews', 'v1'), 501],
          [to('ratings'), 502],
          [to('productpage', 'v1'), 504],
        ] as const;
        await Promise.all(
          targets.map(([route, status]) =>
            t.call({ virtual_service_name: VS_NAME, ns: t.ns, http_status: status, routes: [route] }),
          ),
        );
        const after = await readVs(t, 'networking.istio.io/v1');
        assertOnlyFaultsChanged(before, after, {
          [ROUTE.jason]: { abort: { httpStatus: 500, percentage: ALL } },
          [ROUTE.split]: { abort: { httpStatus: 501, percentage: ALL } },
          [ROUTE.ratings]: { abort: { httpStatus: 502, percentage: ALL } },
          [ROUTE.fallback]: { abort: { httpStatus: 504, percentage: ALL } },
        });
      },
    },
    {
      name: 'plan mode: the write is a server-side dry run; the result shows the fault, nothing is stored',
      async run(t) {
        await createBookinfo(t);
        const before = await readVs(t, 'networking.istio.io/v1');
        const since = new Date(Date.now() - 1000);
        const result = await t.activity.call(
          {
            virtual_service_name: VS_NAME,
            ns: t.ns,
            version: 'networking.istio.io/v1',
            http_status: 503,
            routes: [to('reviews', 'v2')],
          },
          { secrets: t.secrets, dryRun: true },
        );
        assert.deepEqual(result.spec.http![ROUTE.jason]!.fault, {
          abort: { httpStatus: 503, percentage: ALL },
        });
        assert.deepEqual(await readVs(t, 'networking.istio.io/v1'), before);
        if (t.cluster.auditLogPath) {
          const updates = (await t.requestsSince(since)).filter(
            (e) => e.verb === 'update' && e.objectRef?.namespace === t.ns,
          );
          assert.equal(updates.length, 1);
          assert.match(updates[0]!.requestURI, /[?&]dryRun=All\b/);
        }
        assert.deepEqual(await updatesSince(t, since), t.cluster.auditLogPath ? [200] : undefined);
      },
    },
    ...trafficScenarios<typeof addAbortFaultActivity>(
      'HTTP 503 for 50 % aborts about half of the named route with UNAVAILABLE, then, with no percentage (100 %), all of it; the route not named never fails',
      async (t, version, fx) => {
        const half = await t.call({ ...fx.args(version), http_status: 503, percentage: 50 });
        assert.deepEqual(half.spec.http![0]!.fault, {
          abort: { httpStatus: 503, percentage: { value: 50 } },
        });
        await fx.traffic.waitFor('a', (s) => s.failures > 0);
        const stats = await fx.send(400);
        fx.record('abort 503 at 50 %', stats);
        assertAbortedShare(stats.a, 0.5, fx.host);
        assertAllServed(stats.b, `${fx.host}/v2`);

        const all = await t.call({ ...fx.args(version), http_status: 503 });
        assert.deepEqual(all.spec.http![0]!.fault, { abort: { httpStatus: 503, percentage: ALL } });
        await fx.traffic.waitFor('a', (s) => s.failures === s.requests);
        const every = await fx.send(200);
        fx.record('abort 503, no percentage', every);
        assertAllAborted(every.a);
        assertAllServed(every.b, `${fx.host}/v2`);
      },
    ),
    ...failureAndRefusalScenarios(
      { http_status: 503 },
      'invalid http_status and percentage values, and bad common arguments, are refused before any request',
      async (t, good) => {
        for (const http_status of [199, 600, 0, 503.5, '503', null]) {
          await t.expectRefused({ ...good, http_status }, 'http_status');
        }
        const { http_status: _, ...withoutStatus } = good;
        await t.expectRefused(withoutStatus, 'http_status');
        for (const percentage of [
          101,
          -1,
          { value: 150 },
          { value: -5 },
          '50',
          {},
          { value: 50, of: 'all' },
        ]) {
          await t.expectRefused({ ...good, percentage }, 'percentage');
        }
      },
    ),
  ],
});
