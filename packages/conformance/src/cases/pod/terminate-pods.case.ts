import assert from 'node:assert/strict';
import { terminatePodsActivity } from '@chaoskit/chaoscluster-pod';
import { sleep } from '@chaoskit/core';
import { defineCase } from '../../case.js';
import { terminateRunning } from '../../running/pod-scenarios.js';

const six = ['web-a', 'web-b', 'web-c', 'web-d', 'web-e', 'web-f'];

export default defineCase({
  activity: terminatePodsActivity,
  scenarios: [
    {
      name: 'mode percentage, qty 50, over 6 pods deletes exactly 3',
      async run(t) {
        await t.createPods(six, { app: 'web' });
        const result = await t.call({
          ns: t.ns,
          label_selector: 'app=web',
          mode: 'percentage',
          qty: 50,
          grace_period: 0,
        });
        assert.deepEqual(result.pods, ['web-a', 'web-b', 'web-c']);
        await t.until('3 pods left', async () => (await t.podNames('app=web', true)).length === 3);
        assert.deepEqual(await t.podNames('app=web', true), ['web-d', 'web-e', 'web-f']);
      },
    },
    {
      name: 'order oldest deletes the oldest pod',
      async run(t) {
        await t.createPods(['z-first'], { app: 'aged' });
        await sleep(1100); // creation timestamps have 1 s resolution
        await t.createPods(['a-second', 'b-third'], { app: 'aged' });
        const result = await t.call({
          ns: t.ns,
          label_selector: 'app=aged',
          order: 'oldest',
          grace_period: 0,
        });
        assert.deepEqual(result.pods, ['z-first']);
        await t.until('z-first gone', async () => !(await t.podNames('app=aged', true)).includes('z-first'));
        assert.deepEqual(await t.podNames('app=aged', true), ['a-second', 'b-third']);
      },
    },
    {
      name: 'name_pattern matches anywhere in the name; anchors are honoured',
      async run(t) {
        await t.createPods(['api-cache-1', 'cache-api-2', 'worker-3'], { app: 'np' });
        const middle = await t.call({
          ns: t.ns,
          name_pattern: 'cache',
          all: true,
          grace_period: 0,
        });
        assert.deepEqual(middle.pods, ['api-cache-1', 'cache-api-2']);
        await t.until('both cache pods gone', async () => (await t.podNames('app=np', true)).length === 1);
        assert.deepEqual(await t.podNames('app=np', true), ['worker-3']);
        const anchored = await t.call({ ns: t.ns, name_pattern: '^orker', all: true });
        assert.deepEqual(anchored.pods, []);
      },
    },
    {
      name: 'the same rand seed picks the same pods; the seed is in the result',
      async run(t) {
        await t.createPods(six, { app: 'rnd' });
        const seeded = () =>
          t.call({
            ns: t.ns,
            label_selector: 'app=rnd',
            rand: true,
            qty: 2,
            seed: 4242,
            grace_period: 0,
          });
        const first = await seeded();
        assert.equal(first.seed, 4242);
        assert.equal(first.pods.length, 2);
        await t.until('2 pods gone', async () => (await t.podNames('app=rnd', true)).length === 4);
        await t.createPods(first.pods, { app: 'rnd' }); // the same six pods again
        const again = await seeded();
        assert.deepEqual(again.pods, first.pods);
        const unseeded = await t.call({
          ns: t.ns,
          label_selector: 'app=rnd',
          rand: true,
          qty: 1,
          grace_period: 0,
        });
        assert.equal(typeof unseeded.seed, 'number');
      },
    },
    {
      name: 'grace_period 0 removes the pod at once; the default leaves it Terminating for its grace period',
      async run(t) {
        await t.createPods(['graceful', 'abrupt'], { app: 'grace' });
        await t.call({ ns: t.ns, label_selector: 'app=grace', name_pattern: '^abrupt$', grace_period: 0 });
        await t.call({ ns: t.ns, label_selector: 'app=grace', name_pattern: '^graceful$' });
        await t.until('abrupt gone', async () => !(await t.podNames('app=grace', true)).includes('abrupt'));
        const graceful = await t.core.readNamespacedPod({ name: 'graceful', namespace: t.ns });
        assert.ok(graceful.metadata?.deletionTimestamp, 'graceful is Terminating');
        assert.equal(graceful.metadata?.deletionGracePeriodSeconds, 30);
      },
    },
    {
      name: 'with no selector, the defaults delete exactly one pod of the namespace',
      async run(t) {
        await t.createPods(['one', 'two'], { app: 'dflt' });
        const result = await t.call({ ns: t.ns, grace_period: 0 });
        assert.deepEqual(result.pods, ['one']);
      },
    },
    {
      name: 'bad mode, order, qty, regex and selector are refused before any request; nothing changes',
      async run(t) {
        await t.createPods(['keep'], { app: 'keep' });
        await t.expectRefused({ ns: t.ns, mode: 'random' }, 'mode');
        await t.expectRefused({ ns: t.ns, order: 'newest' }, 'order');
        await t.expectRefused({ ns: t.ns, qty: -1 }, 'qty');
        await t.expectRefused({ ns: t.ns, mode: 'percentage', qty: 101 }, 'qty');
        await t.expectRefused({ ns: t.ns, name_pattern: '(unclosed' }, 'name_pattern');
        await t.expectRefused({ ns: t.ns, label_selector: 'app in (keep' }, 'label_selector');
        await t.expectRefused({ ns: t.ns, grace_period: '0' }, 'grace_period');
        assert.deepEqual(await t.podNames(undefined, true), ['keep']);
      },
    },
    terminateRunning,
  ],
});
