import assert from 'node:assert/strict';
import { removeAbortFaultActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import {
  createBookinfo,
  EXISTING_BROKEN,
  ROUTE,
  readVs,
  replaceVs,
  to,
  VS_NAME,
  withoutServerFields,
} from './fixtures.js';
import {
  concurrentEditScenario,
  editScenarios,
  failureAndRefusalScenarios,
  noWriteScenario,
} from './scenarios.js';
import { ABORT_ALL, assertAllAborted, assertAllServed, trafficScenarios } from './traffic.js';

export default defineCase({
  activity: removeAbortFaultActivity,
  needs: { mesh: true },
  scenarios: [
    ...editScenarios(
      'removes only the abort of the named routes: the delay beside it stays; a named route with only a delay keeps it',
      { routes: [to('orders', 'v1'), to('details', 'v1')] },
      { [ROUTE.broken]: { delay: EXISTING_BROKEN.delay } },
    ),
    {
      name: 'a route whose only fault was an abort loses its fault key; routes not named keep their abort',
      async run(t) {
        await createBookinfo(t);
        const version = 'networking.istio.io/v1';
        const setup = await readVs(t, version);
        // Abort-only faults on jason and on split, through the admin client.
        setup.spec.http![ROUTE.jason]!.fault = { abort: { httpStatus: 500 } };
        setup.spec.http![ROUTE.split]!.fault = { abort: { httpStatus: 501 } };
        await replaceVs(t, setup);
        const before = await readVs(t, version);
        const result = await t.call({
          virtual_service_name: VS_NAME,
          ns: t.ns,
          version,
          routes: [to('reviews', 'v2')],
        });
        assert.equal('fault' in result.spec.http![ROUTE.jason]!, false);
        assert.deepEqual(result.spec.http![ROUTE.split]!.fault, { abort: { httpStatus: 501 } });
        const expected = structuredClone(before);
        delete expected.spec.http![ROUTE.jason]!.fault;
        assert.deepEqual(withoutServerFields(result), withoutServerFields(expected));
      },
    },
    noWriteScenario(
      'nothing to remove on the matched routes (a rollback run twice): no write, the object returned as it is',
      { routes: [to('reviews'), to('details', 'v1')] },
    ),
    concurrentEditScenario({
      args: { routes: [to('orders', 'v1')] },
      // The other client changes the delay of the same route: the new delay stays, the abort goes.
      alsoEdit: (vs) => {
        vs.spec.http![ROUTE.broken]!.fault = { ...EXISTING_BROKEN, delay: { fixedDelay: '4s' } };
      },
      faults: { [ROUTE.broken]: { delay: { fixedDelay: '4s' } } },
    }),
    ...trafficScenarios<typeof removeAbortFaultActivity>(
      'the aborted route answers every request again (0 failures); the route not named keeps failing',
      async (t, version, fx) => {
        await fx.writeFaults({ a: ABORT_ALL, b: ABORT_ALL });
        await fx.traffic.waitFor('a', (s) => s.failures === s.requests);
        await fx.traffic.waitFor('b', (s) => s.failures === s.requests);
        const before = await fx.send(200);
        fx.record('both routes aborted', before);
        assertAllAborted(before.a);

        const result = await t.call(fx.args(version));
        assert.equal('fault' in result.spec.http![0]!, false);
        await fx.traffic.waitFor('a', (s) => s.failures === 0);
        const after = await fx.send(200);
        fx.record('abort removed from a', after);
        assertAllServed(after.a, `${fx.host}/v1`);
        assertAllAborted(after.b);
      },
    ),
    ...failureAndRefusalScenarios({}, 'bad arguments are refused before any request', async (t, good) => {
      const { routes: _, ...withoutRoutes } = good;
      await t.expectRefused(withoutRoutes, 'routes');
      await t.expectRefused({ ...good, http_status: 503 }, 'http_status');
    }),
  ],
});
