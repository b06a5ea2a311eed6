import assert from 'node:assert/strict';
import { createDeploymentActivity } from '@chaoskit/chaoscluster-deployment';
import { dump } from 'js-yaml';
import { defineCase } from '../../case.js';
import { badSpecFiles } from '../shared-fixtures.js';
import { deploymentDoc, deploymentNames, specDir } from './fixtures.js';

export default defineCase({
  activity: createDeploymentActivity,
  scenarios: [
    {
      name: 'creates the deployment of a JSON file; its pods come up',
      async run(t) {
        const file = await specDir(t);
        const path = await file('web.json', JSON.stringify(deploymentDoc('web', 2), null, 2));
        const result = await t.call({ spec_path: path, ns: t.ns });
        assert.deepEqual(result, { name: 'web', namespace: t.ns });
        const created = await t.apps.readNamespacedDeployment({ name: 'web', namespace: t.ns });
        assert.equal(created.spec?.replicas, 2);
        assert.deepEqual(created.metadata?.labels, { app: 'web' });
        await t.until('2 web pods', async () => (await t.podNames('app=web')).length === 2);
      },
    },
    {
      name: 'creates deployments from .yaml and .yml files',
      async run(t) {
        const file = await specDir(t);
        const yaml = await file('api.yaml', dump(deploymentDoc('api', 1)));
        const yml = await file('worker.yml', `# a comment\n---\n${dump(deploymentDoc('worker', 3))}`);
        assert.deepEqual(await t.call({ spec_path: yaml, ns: t.ns }), { name: 'api', namespace: t.ns });
        assert.deepEqual(await t.call({ spec_path: yml, ns: t.ns }), { name: 'worker', namespace: t.ns });
        assert.deepEqual(await deploymentNames(t), ['api', 'worker']);
        const worker = await t.apps.readNamespacedDeployment({ name: 'worker', namespace: t.ns });
        assert.equal(worker.spec?.replicas, 3);
      },
    },
    {
      name: 'a file that names the namespace ns is created there; another namespace is refused',
      async run(t) {
        const file = await specDir(t);
        const same = await file('same.yaml', dump(deploymentDoc('same', 1, { namespace: t.ns })));
        assert.deepEqual(await t.call({ spec_path: same, ns: t.ns }), { name: 'same', namespace: t.ns });
        const other = await file('other.yaml', dump(deploymentDoc('other', 1, { namespace: 'elsewhere' })));
        await t.expectRefused({ spec_path: other, ns: t.ns }, 'ns');
        assert.deepEqual(await deploymentNames(t), ['same']);
      },
    },
    {
      name: 'an existing deployment of that name is a clear error',
      async run(t) {
        const file = await specDir(t);
        const path = await file('dup.json', JSON.stringify(deploymentDoc('dup', 1)));
        await t.call({ spec_path: path, ns: t.ns });
        const err = await t.call({ spec_path: path, ns: t.ns }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        assert.ok(err, 'the second create failed');
        assert.match(err.message, /create deployment 'dup' in namespace '.*': Conflict \(409\)/);
      },
    },
    {
      name: 'bad spec_path files, types and arguments are refused before any request',
      async run(t) {
        const file = await specDir(t);
        const good = await file('good.yaml', dump(deploymentDoc('good', 1)));
        const refused: Array<[Record<string, unknown>, string]> = [
          ...(await badSpecFiles(file, good, 'Deployment', (name) => deploymentDoc(name, 1), t.ns)),
          [{ spec_path: 42, ns: t.ns }, 'spec_path'],
          [{ ns: t.ns }, 'spec_path'],
          [{ spec_path: good, ns: 'Not_A_Namespace' }, 'ns'],
          [{ spec_path: good, ns: t.ns, namespace: t.ns }, 'namespace'],
        ];
        for (const [args, argument] of refused) await t.expectRefused(args, argument);
        assert.deepEqual(await deploymentNames(t), []);
      },
    },
  ],
});
