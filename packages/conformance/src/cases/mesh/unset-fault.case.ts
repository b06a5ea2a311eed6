import assert from 'node:assert/strict';
import { unsetFaultActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import { ROUTE, to } from './fixtures.js';
import {
  concurrentEditScenario,
  editScenario,
  editScenarios,
  failureAndRefusalScenarios,
  noWriteScenario,
} from './scenarios.js';
import {
  ABORT_ALL,
  assertAllAborted,
  assertAllServed,
  assertDelayed,
  assertNotDelayed,
  DELAY_ALL,
  DELAY_MS,
  trafficScenarios,
} from './traffic.js';

export default defineCase({
  activity: unsetFaultActivity,
  needs: { mesh: true },
  scenarios: [
    ...editScenarios(
      'removes the whole fault (abort and delay) of the named routes; routes not named keep theirs',
      { routes: [to('orders', 'v1')] },
      { [ROUTE.broken]: undefined },
    ),
    editScenario(
      'a destination without subset matches by host: every route of those hosts loses its fault',
      { routes: [to('details'), to('orders')] },
      { [ROUTE.slow]: undefined, [ROUTE.broken]: undefined },
    ),
    noWriteScenario('no fault on the matched routes: no write, the object returned as it is', {
      version: 'networking.istio.io/v1',
      routes: [to('reviews', 'v1'), to('productpage')],
    }),
    concurrentEditScenario({
      args: { routes: [to('orders', 'v1')] },
      // The other client adds a delay on a route not named: it stays.
      alsoEdit: (vs) => {
        vs.spec.http![ROUTE.ratings]!.fault = { delay: { fixedDelay: '100ms' } };
      },
      faults: { [ROUTE.broken]: undefined },
    }),
    ...trafficScenarios<typeof unsetFaultActivity>(
      'a route with an abort and a delay is back to no failures and its baseline latency; the route not named keeps its fault',
      async (t, version, fx) => {
        await fx.writeFaults({ a: { ...ABORT_ALL, ...DELAY_ALL }, b: ABORT_ALL });
        await fx.traffic.waitFor('a', (s) => s.failures === s.requests && s.latencyMs.p50 >= DELAY_MS);
        await fx.traffic.waitFor('b', (s) => s.failures === s.requests);
        const before = await fx.send(100);
        fx.record('a aborted and delayed, b aborted', before);
        assertAllAborted(before.a);
        assertDelayed(before.a);

        const result = await t.call(fx.args(version));
        assert.equal('fault' in result.spec.http![0]!, false);
        await fx.traffic.waitFor(
          'a',
          (s) => s.failures === 0 && s.latencyMs.p50 < fx.baseline.a.latencyMs.p50 + DELAY_MS,
        );
        const after = await fx.send(200);
        fx.record('fault unset on a', after);
        assertAllServed(after.a, `${fx.host}/v1`);
        assertNotDelayed(after.a, fx.baseline.a);
        assertAllAborted(after.b);
      },
    ),
    ...failureAndRefusalScenarios({}, 'bad arguments are refused before any request', async (t, good) => {
      await t.expectRefused({ ...good, fault: {} }, 'fault');
    }),
  ],
});
