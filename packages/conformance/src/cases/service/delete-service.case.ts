import assert from 'node:assert/strict';
import { deleteServiceActivity } from '@chaoskit/chaoscluster-service';
import { defineCase } from '../../case.js';
import { activityFailure, planLeavesTheService, removesOnlyWeb, serviceRefusals } from './fixtures.js';

export default defineCase({
  activity: deleteServiceActivity,
  scenarios: [
    removesOnlyWeb('deletes the service called name; the others stay', 'app', async (t) => {
      assert.deepEqual(await t.call({ name: 'web', ns: t.ns }), { service: 'web', namespace: t.ns });
    }),
    {
      name: 'a missing service is an ActivityFailed naming it and the namespace (D75)',
      async run(t) {
        const message = await activityFailure(t.call({ name: 'ghost', ns: t.ns }));
        assert.equal(message, `there is no service 'ghost' in namespace '${t.ns}' to remove`);
      },
    },
    planLeavesTheService,
    serviceRefusals,
  ],
});
