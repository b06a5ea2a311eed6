import assert from 'node:assert/strict';
import { microserviceAvailableAndHealthyActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { activityFailure, holdsOnHealthyWeb, stuckDeployment } from './fixtures.js';

export default defineCase({
  activity: microserviceAvailableAndHealthyActivity,
  scenarios: [
    holdsOnHealthyWeb(
      'returns true for a healthy deployment (D12: not null), so `tolerance: true` holds; warns once',
      (t) => [
        { name: 'web', ns: t.ns },
        { name: 'web', ns: t.ns, label_selector: 'app={name}' },
      ],
    ),
    {
      name: 'fails for a deployment not healthy and for one that is not there',
      async run(t) {
        await stuckDeployment(t, 'stuck', 2);
        assert.match(
          await activityFailure(t.call({ name: 'stuck', ns: t.ns })),
          /Deployment 'stuck' in namespace '.*' is not healthy: 0 of 2 replicas available/,
        );
        assert.match(
          await activityFailure(t.call({ name: 'ghost', ns: t.ns })),
          /Deployment 'ghost' was not found/,
        );
      },
    },
    {
      name: 'a missing or bad name, a bad selector and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'Web', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'app in (' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 5 }, 'timeout');
      },
    },
  ],
});
