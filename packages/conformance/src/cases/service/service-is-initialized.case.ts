import assert from 'node:assert/strict';
import { serviceIsInitializedActivity } from '@chaoskit/chaoscluster-service';
import { defineCase } from '../../case.js';
import { activityFailure, createService } from './fixtures.js';

export default defineCase({
  activity: serviceIsInitializedActivity,
  scenarios: [
    {
      name: 'holds for a service found by name, by label, by both, and for any service with neither',
      async run(t) {
        await createService(t, 'web', { app: 'web', tier: 'front' });
        assert.equal(await t.call({ name: 'web', ns: t.ns }), true);
        assert.equal(await t.call({ label_selector: 'tier=front', ns: t.ns }), true);
        assert.equal(await t.call({ name: 'web', label_selector: 'app={name}', ns: t.ns }), true);
        assert.equal(await t.call({ ns: t.ns }), true);
      },
    },
    {
      name: 'fails for a service that is not there, or that lacks the labels, saying which (D75)',
      async run(t) {
        await createService(t, 'api', { tier: 'api' });
        assert.equal(
          await activityFailure(t.call({ name: 'ghost', ns: t.ns })),
          `service 'ghost' is not initialized: there is no service 'ghost' in namespace '${t.ns}'`,
        );
        assert.match(
          await activityFailure(t.call({ name: 'api', label_selector: 'app={name}', ns: t.ns })),
          /service 'api' is not initialized: service 'api' of namespace '.*' does not match label selector 'app=api' \(its labels: 'tier=api'\)/,
        );
        assert.equal(
          await activityFailure(t.call({ label_selector: 'tier=web', ns: t.ns })),
          `no service is initialized: no service of namespace '${t.ns}' matches label selector 'tier=web'`,
        );
      },
    },
    {
      name: 'a namespace without any service fails',
      async run(t) {
        assert.equal(
          await activityFailure(t.call({ ns: t.ns })),
          `no service is initialized: there is no service in namespace '${t.ns}'`,
        );
      },
    },
    {
      name: 'a bad name, a selector needing a name, a bad selector and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ name: 'Web_1', ns: t.ns }, 'name');
        await t.expectRefused({ label_selector: 'app={name}', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', label_selector: 'app in ({name}', ns: t.ns }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 5 }, 'timeout');
      },
    },
  ],
});
