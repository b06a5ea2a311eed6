import assert from 'node:assert/strict';
import { removeDelayFaultActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import { EXISTING_BROKEN, EXISTING_DELAY, ROUTE, to } from './fixtures.js';
import {
  concurrentEditScenario,
  editScenarios,
  failureAndRefusalScenarios,
  noWriteScenario,
} from './scenarios.js';
import {
  assertAllServed,
  assertDelayed,
  assertNotDelayed,
  DELAY_ALL,
  DELAY_MS,
  trafficScenarios,
} from './traffic.js';

export default defineCase({
  activity: removeDelayFaultActivity,
  needs: { mesh: true },
  scenarios: [
    ...editScenarios(
      'removes only the delay of the named routes: the abort beside it stays, a delay-only route loses its fault key',
      { routes: [to('orders', 'v1'), to('details', 'v1')] },
      { [ROUTE.broken]: { abort: EXISTING_BROKEN.abort }, [ROUTE.slow]: undefined },
    ),
    noWriteScenario(
      'nothing to remove on the matched routes (a rollback run twice): no write, the object returned as it is',
      { version: 'networking.istio.io/v1beta1', routes: [to('reviews'), to('ratings')] },
    ),
    concurrentEditScenario({
      args: { routes: [to('details', 'v1')] },
      // The other client adds an abort next to the delay being removed: the abort stays.
      alsoEdit: (vs) => {
        vs.spec.http![ROUTE.slow]!.fault = { delay: EXISTING_DELAY, abort: { httpStatus: 429 } };
      },
      faults: { [ROUTE.slow]: { abort: { httpStatus: 429 } } },
    }),
    ...trafficScenarios<typeof removeDelayFaultActivity>(
      'the delayed route is back to its baseline latency; the route not named stays delayed',
      async (t, version, fx) => {
        await fx.writeFaults({ a: DELAY_ALL, b: DELAY_ALL });
        await fx.traffic.waitFor('a', (s) => s.latencyMs.p50 >= DELAY_MS);
        await fx.traffic.waitFor('b', (s) => s.latencyMs.p50 >= DELAY_MS);
        const before = await fx.send(100);
        fx.record('both routes delayed', before);
        assertDelayed(before.a);

        const result = await t.call(fx.args(version));
        assert.equal('fault' in result.spec.http![0]!, false);
        await fx.traffic.waitFor('a', (s) => s.latencyMs.p50 < fx.baseline.a.latencyMs.p50 + DELAY_MS);
        const after = await fx.send(100);
        fx.record('delay removed from a', after);
        assertAllServed(after.a, `${fx.host}/v1`);
        assertNotDelayed(after.a, fx.baseline.a);
        assertAllServed(after.b, `${fx.host}/v2`);
        assertDelayed(after.b);
      },
    ),
    ...failureAndRefusalScenarios({}, 'bad arguments are refused before any request', async (t, good) => {
      await t.expectRefused({ ...good, routes: [{}] }, 'routes');
      await t.expectRefused({ ...good, fixed_delay: '5s' }, 'fixed_delay');
    }),
  ],
});
