import assert from 'node:assert/strict';
import { deleteServiceActivity } from '@chaoskit/chaoscluster-service';
import { defineCase } from '../../case.js';
import {
  activityFailure,
  createService,
  planLeavesTheService,
  serviceNames,
  serviceRefusals,
} from './fixtures.js';

export default defineCase({
  activity: deleteServiceActivity,
  scenarios: [
    {
      name: 'deletes the service called name; the others stay',
      async run(t) {
        await createService(t, 'web', { app: 'web' });
        await createService(t, 'api', { app: 'api' });
        assert.deepEqual(await t.call({ name: 'web', ns: t.ns }), { service: 'web', namespace: t.ns });
        assert.deepEqual(await serviceNames(t), ['api']);
      },
    },
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
