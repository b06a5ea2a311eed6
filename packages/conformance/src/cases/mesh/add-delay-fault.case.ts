import assert from 'node:assert/strict';
import { addDelayFaultActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import { ALL, createVirtualService, EXISTING_BROKEN, ROUTE, to, VS_NAME } from './fixtures.js';
import {
  concurrentEditScenario,
  editScenario,
  editScenarios,
  failureAndRefusalScenarios,
} from './scenarios.js';
import {
  assertAllServed,
  assertDelayed,
  assertNotDelayed,
  DELAY,
  DELAY_MS,
  trafficScenarios,
} from './traffic.js';

// Duration texts around the CRD's rule `duration(self) >= duration('1ms')` (Go's syntax).
const DURATIONS = [
  '5s',
  '500ms',
  '1.5s',
  '1m',
  '1h30m',
  '+2s',
  '.5s',
  '5.s',
  '250000us',
  '250000µs',
  '1ms',
  '0.001s',
  '1.5ms',
  '1000001ns',
  '999us',
  '0',
  '0s',
  '-1s',
  '',
  '5',
  '5 s',
  ' 5s',
  '1d',
  '5S',
  '1e3ms',
  '2562048h',
  'PT5S',
];

const editDelay = { fixedDelay: '1.5s', percentage: { value: 20 } };

export default defineCase({
  activity: addDelayFaultActivity,
  needs: { mesh: true },
  scenarios: [
    ...editScenarios(
      'sets the delay on the named routes only: an existing abort is kept, an existing delay replaced',
      { fixed_delay: '1.5s', percentage: 20, routes: [to('reviews', 'v1'), to('orders', 'v1')] },
      {
        [ROUTE.split]: { delay: editDelay },
        [ROUTE.broken]: { abort: EXISTING_BROKEN.abort, delay: editDelay },
      },
    ),
    editScenario(
      'a destination without subset matches by host; no percentage is written as 100 (D85)',
      { version: 'networking.istio.io/v1beta1', fixed_delay: '1m', routes: [to('ratings'), to('details')] },
      {
        [ROUTE.ratings]: { delay: { fixedDelay: '1m', percentage: ALL } },
        [ROUTE.slow]: { delay: { fixedDelay: '1m', percentage: ALL } },
      },
    ),
    concurrentEditScenario({
      args: { fixed_delay: '5s', routes: [to('reviews', 'v2')] },
      // The other client adds an abort on the very route being delayed: both stay.
      alsoEdit: (vs) => {
        vs.spec.http![ROUTE.jason]!.fault = { abort: { httpStatus: 502 } };
      },
      faults: { [ROUTE.jason]: { abort: { httpStatus: 502 }, delay: { fixedDelay: '5s', percentage: ALL } } },
    }),
    ...trafficScenarios<typeof addDelayFaultActivity>(
      `${DELAY} for 100 % holds every request of the named route at least that long; the route not named keeps its baseline latency`,
      async (t, version, fx) => {
        const result = await t.call({ ...fx.args(version), fixed_delay: DELAY, percentage: 100 });
        assert.deepEqual(result.spec.http![0]!.fault, { delay: { fixedDelay: DELAY, percentage: ALL } });
        await fx.traffic.waitFor('a', (s) => s.failures === 0 && s.latencyMs.p50 >= DELAY_MS);
        const stats = await fx.send(100);
        fx.record(`delay ${DELAY} at 100 %`, stats);
        assertAllServed(stats.a, `${fx.host}/v1`);
        assert.ok(stats.a.latencyMs.p50 >= DELAY_MS);
        assertDelayed(stats.a);
        assertAllServed(stats.b, `${fx.host}/v2`);
        assertNotDelayed(stats.b, fx.baseline.b);
      },
    ),
    {
      name: "fixed_delay accepts what Istio's CRD accepts, except sub-millisecond precision (istiod's rule, which its webhook enforces where it runs)",
      async run(t) {
        // Refused by chaoskit for istiod's rule: by istiod's webhook too where it runs, accepted
        // by a server with the CRDs alone.
        const istiodRule: string[] = [];
        const refusedBy = new Set<string>();
        for (const fixedDelay of DURATIONS) {
          const ours = (() => {
            try {
              addDelayFaultActivity.validate({
                virtual_service_name: VS_NAME,
                fixed_delay: fixedDelay,
                routes: [to('a')],
              });
              return { ok: true, message: '' };
            } catch (err) {
              return { ok: false, message: (err as Error).message };
            }
          })();
          const server = await createVirtualService(
            t,
            { name: 'probe' },
            { hosts: ['a'], http: [{ route: [to('a')], fault: { delay: { fixedDelay } } }] },
            { dryRun: 'All' },
          ).then(
            () => ({ ok: true, by: '', message: '' }),
            (err: { code?: number; body?: string }) => {
              const message = String(err.body);
              const status = (JSON.parse(message) as { message?: string }).message ?? '';
              if (err.code === 400 && status.startsWith('admission webhook "validation.istio.io"'))
                return { ok: false, by: 'istiod', message: status };
              assert.equal(err.code, 422, `${JSON.stringify(fixedDelay)}: ${err.body}`);
              return { ok: false, by: 'crd', message };
            },
          );
          if (ours.ok)
            assert.ok(server.ok, `${JSON.stringify(fixedDelay)} is accepted here but refused by the server`);
          if (server.by === 'crd') {
            assert.ok(!ours.ok, `${JSON.stringify(fixedDelay)} is refused by the CRD but accepted here`);
            assert.match(server.message, /fixedDelay/);
          }
          if (!ours.ok && server.by !== 'crd') {
            assert.match(ours.message, /not a whole number of milliseconds/);
            if (server.by === 'istiod') assert.match(server.message, /only durations to ms precision/);
            istiodRule.push(fixedDelay);
            refusedBy.add(server.by || 'nobody (no istiod)');
          }
        }
        assert.deepEqual(istiodRule, ['1.5ms', '1000001ns']);
        // All of them by istiod, or none: one server either runs its webhook or does not.
        assert.equal(refusedBy.size, 1);
      },
    },
    ...failureAndRefusalScenarios(
      { fixed_delay: '5s' },
      'invalid fixed_delay and percentage values, and bad common arguments, are refused before any request',
      async (t, good) => {
        for (const fixed_delay of ['5', '5 s', '1d', '0s', '-1s', '1.5ms', '', 'PT5S', 5, null]) {
          await t.expectRefused({ ...good, fixed_delay }, 'fixed_delay');
        }
        for (const percentage of [100.5, -0.1, { value: 101 }, '10%', []]) {
          await t.expectRefused({ ...good, percentage }, 'percentage');
        }
      },
    ),
  ],
});
