import assert from 'node:assert/strict';
import { removeDelayFaultActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import {
  concurrentEditScenario,
  createBookinfo,
  EXISTING_BROKEN,
  EXISTING_DELAY,
  editScenarios,
  expectCommonRefusals,
  failureScenarios,
  ROUTE,
  readVs,
  to,
  updatesSince,
  VS_NAME,
} from './fixtures.js';

export default defineCase({
  activity: removeDelayFaultActivity,
  needs: { mesh: true },
  scenarios: [
    ...editScenarios(
      'removes only the delay of the named routes: the abort beside it stays, a delay-only route loses its fault key',
      { routes: [to('orders', 'v1'), to('details', 'v1')] },
      () => ({ [ROUTE.broken]: { abort: EXISTING_BROKEN.abort }, [ROUTE.slow]: undefined }),
    ),
    {
      name: 'nothing to remove on the matched routes (a rollback run twice): no write, the object returned as it is',
      async run(t) {
        await createBookinfo(t);
        const before = await readVs(t, 'networking.istio.io/v1beta1');
        const since = new Date(Date.now() - 1000);
        const result = await t.call({
          virtual_service_name: VS_NAME,
          ns: t.ns,
          version: 'networking.istio.io/v1beta1',
          routes: [to('reviews'), to('ratings')],
        });
        assert.deepEqual(result, before);
        const updates = await updatesSince(t, since);
        if (updates) assert.deepEqual(updates, []);
      },
    },
    concurrentEditScenario({
      args: { routes: [to('details', 'v1')] },
      // The other client adds an abort next to the delay being removed: the abort stays.
      alsoEdit: (vs) => {
        vs.spec.http![ROUTE.slow]!.fault = { delay: EXISTING_DELAY, abort: { httpStatus: 429 } };
      },
      faults: { [ROUTE.slow]: { abort: { httpStatus: 429 } } },
    }),
    ...failureScenarios({}),
    {
      name: 'bad arguments are refused before any request',
      async run(t) {
        await createBookinfo(t);
        await expectCommonRefusals(t, {});
        await t.expectRefused({ virtual_service_name: VS_NAME, ns: t.ns, routes: [{}] }, 'routes');
        await t.expectRefused(
          { virtual_service_name: VS_NAME, routes: [to('a')], fixed_delay: '5s' },
          'fixed_delay',
        );
      },
    },
  ],
});
