import assert from 'node:assert/strict';
import { removeServiceEndpointActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { planLeavesTheService } from '../service/fixtures.js';
import { callsWarnedOnce, createService, failureOf, resultOf, serviceNames } from './fixtures.js';

export default defineCase({
  activity: removeServiceEndpointActivity,
  scenarios: [
    {
      name: 'deletes the service; a second time it is an ActivityFailed naming it; warns once',
      async run(t) {
        await createService(t, 'web', { name: 'web' });
        await createService(t, 'api', { name: 'api' });
        const [first, second] = await callsWarnedOnce(t, [
          { name: 'web', ns: t.ns },
          { name: 'web', ns: t.ns },
        ]);
        assert.deepEqual(resultOf(first), { service: 'web', namespace: t.ns });
        assert.match(
          failureOf(second),
          new RegExp(`there is no service 'web' in namespace '${t.ns}' to remove`),
        );
        assert.deepEqual(await serviceNames(t), ['api']);
      },
    },
    planLeavesTheService,
    {
      name: 'a missing or bad name, a bad namespace and unknown arguments are refused before any request',
      async run(t) {
        await createService(t, 'keep', {});
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'Keep_1', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'keep', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'keep', ns: t.ns, label_selector: 'name=keep' }, 'label_selector');
        assert.deepEqual(await serviceNames(t), ['keep']);
      },
    },
  ],
});
