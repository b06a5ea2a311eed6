import assert from 'node:assert/strict';
import { deploymentFullyAvailableActivity } from '@chaoskit/chaoscluster-deployment';
import { sleep } from '@chaoskit/core';
import { defineCase } from '../../case.js';
import { neverAvailableScenario, placeWorkload } from '../shared-fixtures.js';
import { activityFailure, replicasOf, stuckDeployment } from './fixtures.js';

export default defineCase({
  activity: deploymentFullyAvailableActivity,
  scenarios: [
    {
      name: 'holds at once when every replica is ready',
      async run(t) {
        await t.deploy('web', 2);
        const started = Date.now();
        assert.equal(await t.call({ name: 'web', ns: t.ns, timeout: 10 }), true);
        assert.equal(await t.call({ name: 'web', ns: t.ns, label_selector: 'app={name}' }), true);
        t.log(`deployment_fully_available on an available deployment returned in ${Date.now() - started} ms`);
      },
    },
    {
      name: 'returns promptly after the deployment becomes available',
      async run(t) {
        await stuckDeployment(t, 'late', 3);
        const waiting = t.call({ name: 'late', ns: t.ns, timeout: 30 }).then(() => Date.now());
        // Let the probe start watching, then make the pods schedulable.
        await sleep(1000);
        const fixedAt = Date.now();
        await placeWorkload(t, { kind: 'Deployment', name: 'late' }, null);
        // An admin poll, every 50 ms, for when the condition became true as the test sees it.
        let seenAt: number | undefined;
        const poll = (async () => {
          while (seenAt === undefined && Date.now() - fixedAt < 30_000) {
            const { desired, ready } = await replicasOf(t, 'late');
            if (ready === desired) seenAt = Date.now();
            else await sleep(50);
          }
        })();
        const returnedAt = await waiting;
        await poll;
        t.log(
          `deployment_fully_available returned ${returnedAt - fixedAt} ms after the fix; a 50 ms admin poll saw the deployment ready ${seenAt === undefined ? 'never' : `${seenAt - fixedAt} ms`} after it`,
        );
        const { desired, ready } = await replicasOf(t, 'late');
        assert.equal(ready, desired);
      },
    },
    neverAvailableScenario('deployment', stuckDeployment),
    {
      name: 'a missing deployment is reported as not found at the timeout',
      async run(t) {
        const message = await activityFailure(t.call({ name: 'ghost', ns: t.ns, timeout: 1 }));
        assert.equal(
          message,
          `deployment 'ghost' failed to recover within 1s: it was not found in namespace '${t.ns}'`,
        );
        await t.deploy('web', 1);
        const excluded = await activityFailure(
          t.call({ name: 'web', ns: t.ns, label_selector: 'tier=back', timeout: 1 }),
        );
        assert.match(excluded, /it was not found in namespace '.*' matching label selector 'tier=back'$/);
      },
    },
    {
      name: 'bad timeouts, names, selectors and arguments are refused before any request',
      async run(t) {
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 0 }, 'timeout');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: -5 }, 'timeout');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: '30' }, 'timeout');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout: 1.5 }, 'timeout');
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'Web', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'web', ns: t.ns, label_selector: '=x' }, 'label_selector');
        await t.expectRefused({ name: 'web', ns: t.ns, timeout_seconds: 3 }, 'timeout_seconds');
      },
    },
  ],
});
