import assert from 'node:assert/strict';
import { createServiceEndpointActivity } from '@chaoskit/chaoscluster-service';
import { dump } from 'js-yaml';
import { defineCase } from '../../case.js';
import { serviceDoc, serviceNames, specDir } from './fixtures.js';

export default defineCase({
  activity: createServiceEndpointActivity,
  scenarios: [
    {
      name: 'creates the service of a JSON file and of a YAML file; the API server gives each a cluster IP',
      async run(t) {
        const file = await specDir(t);
        const json = await file('web.json', JSON.stringify(serviceDoc('web')));
        const yaml = await file(
          'api.yml',
          `# the api\n---\n${dump(serviceDoc('api', { labels: { tier: 'back' } }))}`,
        );
        assert.deepEqual(await t.call({ spec_path: json, ns: t.ns }), { name: 'web', namespace: t.ns });
        assert.deepEqual(await t.call({ spec_path: yaml, ns: t.ns }), { name: 'api', namespace: t.ns });
        assert.deepEqual(await serviceNames(t), ['api', 'web']);
        const api = await t.core.readNamespacedService({ name: 'api', namespace: t.ns });
        assert.deepEqual(api.metadata?.labels, { app: 'api', tier: 'back' });
        assert.deepEqual(api.spec?.selector, { app: 'api' });
        assert.ok(api.spec?.clusterIP, 'the service has a cluster IP');
      },
    },
    {
      name: 'a file that names the namespace ns is created there; another namespace is refused (D75)',
      async run(t) {
        const file = await specDir(t);
        const same = await file('same.yaml', dump(serviceDoc('same', { namespace: t.ns })));
        assert.deepEqual(await t.call({ spec_path: same, ns: t.ns }), { name: 'same', namespace: t.ns });
        const other = await file('other.yaml', dump(serviceDoc('other', { namespace: 'elsewhere' })));
        await t.expectRefused({ spec_path: other, ns: t.ns }, 'ns');
        assert.deepEqual(await serviceNames(t), ['same']);
      },
    },
    {
      name: 'an existing service of that name is a clear error',
      async run(t) {
        const file = await specDir(t);
        const path = await file('dup.json', JSON.stringify(serviceDoc('dup')));
        await t.call({ spec_path: path, ns: t.ns });
        const err = await t.call({ spec_path: path, ns: t.ns }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        assert.ok(err, 'the second create failed');
        assert.match(err.message, /create service 'dup' in namespace '.*': Conflict \(409\)/);
      },
    },
    {
      name: 'bad spec_path files and arguments are refused before any request (D75)',
      async run(t) {
        const file = await specDir(t);
        const good = await file('good.yaml', dump(serviceDoc('good')));
        const refused: Array<[Record<string, unknown>, string]> = [
          [{ spec_path: `${good}.missing.yaml`, ns: t.ns }, 'spec_path'],
          [{ spec_path: await file('web.txt', dump(serviceDoc('web'))), ns: t.ns }, 'spec_path'],
          [{ spec_path: await file('bad.json', '{"kind": "Service",'), ns: t.ns }, 'spec_path'],
          [
            {
              spec_path: await file(
                'deploy.yaml',
                'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {}\n',
              ),
              ns: t.ns,
            },
            'spec_path',
          ],
          [
            { spec_path: await file('nospec.yaml', 'kind: Service\nmetadata: {name: s}\n'), ns: t.ns },
            'spec_path',
          ],
          [{ ns: t.ns }, 'spec_path'],
          [{ spec_path: good, ns: 'Not_A_Namespace' }, 'ns'],
          [{ spec_path: good, ns: t.ns, name: 'good' }, 'name'],
        ];
        for (const [args, argument] of refused) await t.expectRefused(args, argument);
        assert.deepEqual(await serviceNames(t), []);
      },
    },
  ],
});
