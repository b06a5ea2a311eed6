import assert from 'node:assert/strict';
import { microserviceIsNotAvailableActivity } from '@chaoskit/chaoscluster-deprecated';
import { defineCase } from '../../case.js';
import { activityFailure, holdWarnedOnce, podInPhase } from './fixtures.js';

export default defineCase({
  activity: microserviceIsNotAvailableActivity,
  scenarios: [
    {
      name: 'holds when no pod labelled name=<name> is Running, also when there is none; warns once',
      async run(t) {
        await podInPhase(t, 'queued', 'Pending', { name: 'queue' });
        await t.createPods(['web-1'], { name: 'web' });
        await holdWarnedOnce(t, [
          { name: 'queue', ns: t.ns },
          { name: 'nobody', ns: t.ns },
        ]);
      },
    },
    {
      name: 'fails naming each Running pod of the microservice',
      async run(t) {
        await t.deploy('web', 2, { labels: { name: 'web' } });
        const message = await activityFailure(t.call({ name: 'web', ns: t.ns }));
        for (const pod of await t.podNames('name=web'))
          assert.match(message, new RegExp(`pod ${pod} is Running`));
      },
    },
    {
      name: 'a missing name, a bad selector and unknown arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: 'name in ({name}' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'web', ns: t.ns, phase: 'Running' }, 'phase');
      },
    },
  ],
});
