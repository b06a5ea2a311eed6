import assert from 'node:assert/strict';
import { getVirtualServiceActivity } from '@chaoskit/chaosmesh-fault';
import { defineCase } from '../../case.js';
import { activityFailure, createBookinfo, onEveryVersion, readVs, VS_NAME } from './fixtures.js';

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
