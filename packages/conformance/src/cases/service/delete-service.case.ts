import assert from 'node:assert/strict';
import { deleteServiceActivity } from '@chaoskit/chaoscluster-service';
import { defineCase } from '../../case.js';
import { activityFailure, createService, planLeavesTheService, serviceNames } from './fixtures.js';

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
    {
      name: 'a missing or bad name, a bad namespace and unknown arguments are refused before any request',
      async run(t) {
        await createService(t, 'keep', {});
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'Keep_1', ns: t.ns }, 'name');
        await t.expectRefused({ name: '1keep', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'keep', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'keep', ns: t.ns, label_selector: 'app=keep' }, 'label_selector');
        assert.deepEqual(await serviceNames(t), ['keep']);
      },
    },
  ],
});
