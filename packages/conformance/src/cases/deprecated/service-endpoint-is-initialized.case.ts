import assert from 'node:assert/strict';
import { serviceEndpointIsInitializedActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { activityFailure, createService, holdWarnedOnce } from './fixtures.js';

export default defineCase({
  activity: serviceEndpointIsInitializedActivity,
  scenarios: [
    {
      name: 'holds for the service called name and labelled name=<name> (D13: {name} is filled in); warns once',
      async run(t) {
        await t.deploy('web', 1);
        await createService(t, 'web', { name: 'web' });
        await holdWarnedOnce(t, [
          { name: 'web', ns: t.ns },
          { name: 'web', ns: t.ns },
        ]);
      },
    },
    {
      name: 'a service without the label fails, saying so; a label_selector of its own or "" finds it',
      async run(t) {
        await createService(t, 'api', { tier: 'api' });
        const message = await activityFailure(t.call({ name: 'api', ns: t.ns }));
        assert.match(
          message,
          /service 'api' is not initialized: service 'api' of namespace '.*' does not match label selector 'name in \(api\)' \(its labels: 'tier=api'\)/,
        );
        assert.equal(await t.call({ name: 'api', ns: t.ns, label_selector: 'tier={name}' }), true);
        assert.equal(await t.call({ name: 'api', ns: t.ns, label_selector: '' }), true);
      },
    },
    {
      name: 'a service that is not there fails, saying so',
      async run(t) {
        await createService(t, 'other', { name: 'ghost' });
        assert.match(
          await activityFailure(t.call({ name: 'ghost', ns: t.ns })),
          /service 'ghost' is not initialized: there is no service 'ghost' in namespace/,
        );
      },
    },
    {
      name: 'a missing or bad name, a bad selector and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'Web_1', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'name in ({name}' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 5 }, 'timeout');
      },
    },
  ],
});
