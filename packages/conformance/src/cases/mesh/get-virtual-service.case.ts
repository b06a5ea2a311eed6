import assert from 'node:assert/strict';
import { type Fault, getVirtualServiceActivity, parseGoDuration } from '@chaoskit/chaosmesh-fault';
import type { RouteStats } from '@chaoskit/cluster';
import { defineCase } from '../../case.js';
import { activityFailure } from '../shared-fixtures.js';
import { createBookinfo, onEveryVersion, readVs, VS_NAME } from './fixtures.js';
import {
  ABORT_ALL,
  ABORTED,
  assertNotDelayed,
  DELAY_ALL,
  DELAY_MS,
  TRAFFIC_VS,
  trafficScenarios,
} from './traffic.js';

/**
 * What a route's traffic must show, from the fault as the probe read it: the share of aborted
 * RPCs (this case writes only 0 % or 100 %) and the delay every RPC waits.
 */
function assertObeys(stats: RouteStats, fault: Fault | undefined, baseline: RouteStats): void {
  const aborted = (fault?.abort?.percentage?.value ?? 0) / 100;
  assert.equal(stats.failures, stats.requests * aborted);
  if (aborted > 0) assert.deepEqual(stats.messages, { [ABORTED]: stats.failures });
  const delay = fault?.delay;
  if (delay && (delay.percentage?.value ?? 0) === 100) {
    const ms = Number(parseGoDuration(delay.fixedDelay) / 1_000_000n);
    assert.ok(stats.latencyMs.min >= ms, `fastest RPC ${stats.latencyMs.min} ms, under ${delay.fixedDelay}`);
  } else {
    assertNotDelayed(stats, baseline);
  }
}

export default defineCase({
  activity: getVirtualServiceActivity,
  needs: { mesh: true },
  scenarios: [
    ...onEveryVersion<typeof getVirtualServiceActivity>(
      'returns the whole virtual service as the API server gives it in that version',
      async (t, version) => {
        await createBookinfo(t);
        const result = await t.call({ virtual_service_name: VS_NAME, ns: t.ns, version });
        assert.equal(result.apiVersion, version);
        assert.equal(result.kind, 'VirtualService');
        assert.deepEqual(result, await readVs(t, version));
      },
    ),
    ...trafficScenarios<typeof getVirtualServiceActivity>(
      'what it reads is what the traffic obeys: an abort of every request on one route, a delay of every request on the other',
      async (t, version, fx) => {
        await fx.writeFaults({ a: ABORT_ALL, b: DELAY_ALL });
        await fx.traffic.waitFor('a', (s) => s.failures === s.requests);
        await fx.traffic.waitFor('b', (s) => s.latencyMs.p50 >= DELAY_MS);
        const vs = await t.call({ virtual_service_name: TRAFFIC_VS, ns: t.ns, version });
        assert.equal(vs.apiVersion, version);
        const [a, b] = vs.spec.http!;
        assert.deepEqual(a!.fault, ABORT_ALL);
        assert.deepEqual(b!.fault, DELAY_ALL);
        const stats = await fx.send(100);
        fx.record('as read: a aborted, b delayed', stats);
        assertObeys(stats.a, a!.fault as Fault, fx.baseline.a);
        assertObeys(stats.b, b!.fault as Fault, fx.baseline.b);
      },
    ),
    {
      name: 'the default version is networking.istio.io/v1alpha3; the probe only reads',
      async run(t) {
        await createBookinfo(t);
        const since = new Date(Date.now() - 1000);
        const result = await t.call({ virtual_service_name: VS_NAME, ns: t.ns });
        assert.equal(result.apiVersion, 'networking.istio.io/v1alpha3');
        if (t.cluster.auditLogPath) {
          const verbs = (await t.requestsSince(since))
            .filter((e) => e.objectRef?.namespace === t.ns)
            .map((e) => e.verb);
          assert.deepEqual(verbs, ['get']);
        }
      },
    },
    {
      name: 'a missing virtual service: ActivityFailed naming it',
      async run(t) {
        const message = await activityFailure(t.call({ virtual_service_name: 'ghost', ns: t.ns }));
        assert.equal(
          message,
          `virtual service 'ghost' in namespace '${t.ns}' (networking.istio.io/v1alpha3) does not exist`,
        );
      },
    },
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        await createBookinfo(t);
        await t.expectRefused({ virtual_service_name: VS_NAME, ns: t.ns, version: 'v1' }, 'version');
        await t.expectRefused(
          { virtual_service_name: VS_NAME, ns: t.ns, version: 'networking.istio.io/v1beta2' },
          'version',
        );
        await t.expectRefused({ virtual_service_name: 'Book_Info', ns: t.ns }, 'virtual_service_name');
        await t.expectRefused({ ns: t.ns }, 'virtual_service_name');
        await t.expectRefused({ virtual_service_name: VS_NAME, ns: t.ns, routes: [] }, 'routes');
      },
    },
  ],
});
