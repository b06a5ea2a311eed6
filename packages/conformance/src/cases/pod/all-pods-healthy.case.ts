import assert from 'node:assert/strict';
import { allPodsHealthyActivity } from '@chaoskit/chaoscluster-pod';
import { defineCase } from '../../case.js';
import { activityFailure } from '../shared-fixtures.js';
import { podInPhase } from './fixtures.js';

export default defineCase({
  activity: allPodsHealthyActivity,
  scenarios: [
    {
      name: 'holds when every pod is Running or Succeeded (a deployment and a finished pod)',
      async run(t) {
        await t.deploy('web', 2);
        await podInPhase(t, 'job-done', 'Succeeded');
        assert.equal(await t.call({ ns: t.ns }), true);
      },
    },
    {
      name: 'holds in a namespace without pods',
      async run(t) {
        assert.equal(await t.call({ ns: t.ns }), true);
      },
    },
    {
      name: 'fails naming the Failed pods, then those neither Running nor Succeeded (D50)',
      async run(t) {
        await t.deploy('web', 1);
        await podInPhase(t, 'queued', 'Pending');
        await podInPhase(t, 'crashed', 'Failed');
        const message = await activityFailure(t.call({ ns: t.ns }));
        assert.match(
          message,
          /^the system is unhealthy: pod crashed is Failed; pod queued is Pending, not Running or Succeeded \(2 of 3 pods/,
        );
      },
    },
    {
      name: 'a bad namespace and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ ns: t.ns, name: 'web' }, 'name');
      },
    },
  ],
});
