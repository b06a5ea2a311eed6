import assert from 'node:assert/strict';
import { createStatefulsetActivity } from '@chaoskit/chaoscluster-statefulset';
import { dump } from 'js-yaml';
import { defineCase } from '../../case.js';
import { replicasOf, specDir, statefulSetDoc, statefulSetNames } from './fixtures.js';

export default defineCase({
  activity: createStatefulsetActivity,
  scenarios: [
    {
      name: 'creates the stateful set of a JSON file; its pods come up, named by ordinal',
      async run(t) {
        const file = await specDir(t);
        const path = await file('db.json', JSON.stringify(statefulSetDoc('db', 2), null, 2));
        assert.deepEqual(await t.call({ spec_path: path, ns: t.ns }), { name: 'db', namespace: t.ns });
        const created = await t.apps.readNamespacedStatefulSet({ name: 'db', namespace: t.ns });
        assert.equal(created.spec?.replicas, 2);
        await t.until('2 db pods ready', async () => (await replicasOf(t, 'db')).ready === 2);
        assert.deepEqual(await t.podNames('app=db'), ['db-0', 'db-1']);
      },
    },
    {
      name: 'creates from .yaml and .yml files; a file naming ns is created there, another namespace is refused',
      async run(t) {
        const file = await specDir(t);
        const yaml = await file('cache.yaml', dump(statefulSetDoc('cache', 1, { namespace: t.ns })));
        const yml = await file('queue.yml', `# a comment\n---\n${dump(statefulSetDoc('queue', 1))}`);
        assert.deepEqual(await t.call({ spec_path: yaml, ns: t.ns }), { name: 'cache', namespace: t.ns });
        assert.deepEqual(await t.call({ spec_path: yml, ns: t.ns }), { name: 'queue', namespace: t.ns });
        const other = await file('other.yaml', dump(statefulSetDoc('other', 1, { namespace: 'elsewhere' })));
        await t.expectRefused({ spec_path: other, ns: t.ns }, 'ns');
        assert.deepEqual(await statefulSetNames(t), ['cache', 'queue']);
      },
    },
    {
      name: 'an existing stateful set of that name is a clear error',
      async run(t) {
        const file = await specDir(t);
        const path = await file('dup.json', JSON.stringify(statefulSetDoc('dup', 1)));
        await t.call({ spec_path: path, ns: t.ns });
        const err = await t.call({ spec_path: path, ns: t.ns }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        assert.ok(err, 'the second create failed');
        assert.match(err.message, /create stateful set 'dup' in namespace '.*': Conflict \(409\)/);
      },
    },
    {
      name: 'bad spec_path files and arguments are refused before any request (D77)',
      async run(t) {
        const file = await specDir(t);
        const good = await file('good.yaml', dump(statefulSetDoc('good', 1)));
        const refused: Array<[Record<string, unknown>, string]> = [
          [{ spec_path: `${good}.missing.yaml`, ns: t.ns }, 'spec_path'],
          [{ spec_path: await file('db.txt', dump(statefulSetDoc('db', 1))), ns: t.ns }, 'spec_path'],
          [
            { spec_path: await file('bad.yaml', 'kind: StatefulSet\n  metadata: [oops\n'), ns: t.ns },
            'spec_path',
          ],
          [
            {
              spec_path: await file(
                'v1beta.yaml',
                dump({ ...statefulSetDoc('old', 1), apiVersion: 'apps/v1beta1' }),
              ),
              ns: t.ns,
            },
            'spec_path',
          ],
          [
            {
              spec_path: await file(
                'two.yaml',
                `${dump(statefulSetDoc('a', 1))}---\n${dump(statefulSetDoc('b', 1))}`,
              ),
              ns: t.ns,
            },
            'spec_path',
          ],
          [{ ns: t.ns }, 'spec_path'],
          [{ spec_path: good, ns: 'Not_A_Namespace' }, 'ns'],
          [{ spec_path: good, ns: t.ns, replicas: 2 }, 'replicas'],
        ];
        for (const [args, argument] of refused) await t.expectRefused(args, argument);
        assert.deepEqual(await statefulSetNames(t), []);
      },
    },
  ],
});
