import assert from 'node:assert/strict';
import { removeStatefulsetActivity } from '@chaoskit/chaoscluster-statefulset';
import { defineCase } from '../../case.js';
import { planCall } from '../shared-fixtures.js';
import { activityFailure, readyStatefulSet, statefulSetNames } from './fixtures.js';

export default defineCase({
  activity: removeStatefulsetActivity,
  scenarios: [
    {
      name: 'removes the stateful set called name; its pods go, the other one stays',
      async run(t) {
        await readyStatefulSet(t, 'db', 2);
        await readyStatefulSet(t, 'cache', 2);
        assert.deepEqual(await t.call({ name: 'db', ns: t.ns }), { statefulsets: ['db'] });
        assert.deepEqual(await statefulSetNames(t), ['cache']);
        await t.until('no db pod left', async () => (await t.podNames('app=db', true)).length === 0);
        assert.deepEqual(await t.podNames('app=cache'), ['cache-0', 'cache-1']);
      },
    },
    {
      name: 'with label_selector, only if it also matches ({name} filled in); nothing matching is a failure (D77)',
      async run(t) {
        await readyStatefulSet(t, 'db', 1, { tier: 'data' });
        await readyStatefulSet(t, 'other', 1);
        const message = await activityFailure(t.call({ name: 'db', ns: t.ns, label_selector: 'tier=front' }));
        assert.equal(
          message,
          `there is no stateful set 'db' in namespace '${t.ns}' matching label selector 'tier=front'; nothing was removed`,
        );
        assert.equal(
          await activityFailure(t.call({ name: 'ghost', ns: t.ns })),
          `there is no stateful set 'ghost' in namespace '${t.ns}'; nothing was removed`,
        );
        assert.deepEqual(await statefulSetNames(t), ['db', 'other']);
        assert.deepEqual(await t.call({ name: 'db', ns: t.ns, label_selector: 'app={name}' }), {
          statefulsets: ['db'],
        });
        assert.deepEqual(await statefulSetNames(t), ['other']);
      },
    },
    {
      name: 'the stateful set it names goes with all its pods: the pod share rail guards selections, not a named target (D88)',
      async run(t) {
        await readyStatefulSet(t, 'db', 3);
        assert.deepEqual(await t.call({ name: 'db', ns: t.ns }), { statefulsets: ['db'] });
        assert.deepEqual(await statefulSetNames(t), []);
      },
    },
    {
      name: 'plan mode sends a server-side dry run: the stateful set stays',
      async run(t) {
        await readyStatefulSet(t, 'db', 1);
        await readyStatefulSet(t, 'keep', 1);
        assert.deepEqual((await planCall(t, { name: 'db', ns: t.ns })).result, { statefulsets: ['db'] });
        assert.deepEqual(await statefulSetNames(t), ['db', 'keep']);
      },
    },
    {
      name: 'a missing or bad name, a bad selector and unknown arguments are refused before any request',
      async run(t) {
        await readyStatefulSet(t, 'keep', 1);
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'Keep_1', ns: t.ns }, 'name');
        await t.expectRefused({ name: 'keep', ns: t.ns, label_selector: 'app in ({name}' }, 'label_selector');
        await t.expectRefused({ name: 'keep', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'keep', ns: t.ns, grace_period: 0 }, 'grace_period');
        assert.deepEqual(await statefulSetNames(t), ['keep']);
      },
    },
  ],
});
