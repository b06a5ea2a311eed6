import assert from 'node:assert/strict';
import { setFaultActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import { ALL, ROUTE, to } from './fixtures.js';
import {
  concurrentEditScenario,
  editScenario,
  editScenarios,
  failureAndRefusalScenarios,
} from './scenarios.js';
import {
  assertAbortedShare,
  assertAllServed,
  assertDelayed,
  assertNotDelayed,
  DELAY,
  DELAY_MS,
  trafficScenarios,
} from './traffic.js';

const abort503 = { abort: { httpStatus: 503, percentage: { value: 30 } } };

export default defineCase({
  activity: setFaultActivity,
  needs: { mesh: true },
  scenarios: [
    ...editScenarios(
      'the fault of the named routes becomes exactly the given one (an abort and a delay become the abort); others keep theirs',
      { routes: [to('orders', 'v1'), to('reviews', 'v2')], fault: abort503 },
      { [ROUTE.broken]: abort503, [ROUTE.jason]: abort503 },
    ),
    editScenario(
      'abort and delay together, a percentage given as a number is written as {value}; matched by host',
      {
        version: 'networking.istio.io/v1',
        routes: [to('ratings')],
        fault: {
          abort: { httpStatus: 500, percentage: 10 },
          delay: { fixedDelay: '250ms', percentage: { value: 90 } },
        },
      },
      {
        [ROUTE.ratings]: {
          abort: { httpStatus: 500, percentage: { value: 10 } },
          delay: { fixedDelay: '250ms', percentage: { value: 90 } },
        },
      },
    ),
    concurrentEditScenario({
      args: { routes: [to('details', 'v1')], fault: { abort: { httpStatus: 500 } } },
      // The other client adds a delay on a route not named: it stays.
      alsoEdit: (vs) => {
        vs.spec.http![ROUTE.jason]!.fault = { delay: { fixedDelay: '3s' } };
      },
      // D85: the abort given without percentage is written with 100.
      faults: { [ROUTE.slow]: { abort: { httpStatus: 500, percentage: ALL } } },
    }),
    ...trafficScenarios<typeof setFaultActivity>(
      `both kinds at once (abort 503 for 50 %, delay ${DELAY} with no percentage): about half fail, every request is delayed first; then a delay alone replaces both; the route not named is untouched`,
      async (t, version, fx) => {
        const both = await t.call({
          ...fx.args(version),
          fault: { abort: { httpStatus: 503, percentage: 50 }, delay: { fixedDelay: DELAY } },
        });
        assert.deepEqual(both.spec.http![0]!.fault, {
          abort: { httpStatus: 503, percentage: { value: 50 } },
          delay: { fixedDelay: DELAY, percentage: ALL },
        });
        await fx.traffic.waitFor('a', (s) => s.failures > 0 && s.latencyMs.p50 >= DELAY_MS);
        const stats = await fx.send(400, 50);
        fx.record(`abort 503 at 50 % and delay ${DELAY}`, stats);
        assertAbortedShare(stats.a, 0.5, fx.host);
        // gRFC A33: the delay comes first, so aborted requests were held too.
        assertDelayed(stats.a);
        assertAllServed(stats.b, `${fx.host}/v2`);
        assertNotDelayed(stats.b, fx.baseline.b);

        await t.call({ ...fx.args(version), fault: { delay: { fixedDelay: DELAY, percentage: 100 } } });
        await fx.traffic.waitFor('a', (s) => s.failures === 0 && s.latencyMs.p50 >= DELAY_MS);
        const delayOnly = await fx.send(100);
        fx.record(`delay ${DELAY} alone`, delayOnly);
        assertAllServed(delayOnly.a, `${fx.host}/v1`);
        assertDelayed(delayOnly.a);
        assertAllServed(delayOnly.b, `${fx.host}/v2`);
      },
    ),
    ...failureAndRefusalScenarios(
      { fault: { abort: { httpStatus: 503 } } },
      'faults of a wrong shape (an abort without status, bad status, percentage or delay) are refused before any request',
      async (t, good) => {
        for (const fault of [
          { abort: { percentage: { value: 50 } } },
          { abort: {} },
          { abort: { httpStatus: 700 } },
          { abort: { httpStatus: '503' } },
          { abort: { httpStatus: 503, percentage: { value: 101 } } },
          { abort: { httpStatus: 503, grpcStatus: 'UNAVAILABLE' } },
          { delay: { fixedDelay: '5' } },
          { delay: { fixedDelay: '0s' } },
          { delay: { fixedDelay: '5s', percentage: -1 } },
          { delay: { percentage: { value: 10 } } },
          {},
          { aborts: { httpStatus: 503 } },
          'abort',
          null,
        ]) {
          await t.expectRefused({ ...good, fault }, 'fault');
        }
        const { fault: _, ...withoutFault } = good;
        await t.expectRefused(withoutFault, 'fault');
      },
    ),
  ],
});
