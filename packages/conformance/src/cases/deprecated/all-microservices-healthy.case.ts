import assert from 'node:assert/strict';
import { allMicroservicesHealthyActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { activityFailure, callsWarnedOnce, podInPhase, resultOf } from './fixtures.js';

export default defineCase({
  activity: allMicroservicesHealthyActivity,
  scenarios: [
    {
      name: 'holds when every pod is Running or Succeeded (a deployment and a finished pod); warns once',
      async run(t) {
        await t.deploy('web', 2);
        await podInPhase(t, 'job-done', 'Succeeded');
        const outcomes = await callsWarnedOnce(t, [{ ns: t.ns }, { ns: t.ns }]);
        for (const outcome of outcomes) assert.equal(resultOf(outcome), true);
      },
    },
    {
      name: 'holds in a namespace without pods',
      async run(t) {
        assert.equal(await t.call({ ns: t.ns }), true);
      },
    },
    {
      name: 'fails naming the Failed pods, then those neither Running nor Succeeded',
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
