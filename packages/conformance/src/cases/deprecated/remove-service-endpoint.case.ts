import assert from 'node:assert/strict';
import { removeServiceEndpointActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { planLeavesTheService, removesOnlyWeb, serviceRefusals } from '../service/fixtures.js';
import { callsWarnedOnce, failureOf, resultOf } from './fixtures.js';

export default defineCase({
  activity: removeServiceEndpointActivity,
  scenarios: [
    removesOnlyWeb(
      'deletes the service; a second time it is an ActivityFailed naming it; warns once',
      'name',
      async (t) => {
        const [first, second] = await callsWarnedOnce(t, [
          { name: 'web', ns: t.ns },
          { name: 'web', ns: t.ns },
        ]);
        assert.deepEqual(resultOf(first), { service: 'web', namespace: t.ns });
        assert.match(
          failureOf(second),
          new RegExp(`there is no service 'web' in namespace '${t.ns}' to remove`),
        );
      },
    ),
    planLeavesTheService,
    serviceRefusals,
  ],
});
