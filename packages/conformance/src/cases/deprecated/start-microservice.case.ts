import assert from 'node:assert/strict';
import { startMicroserviceActivity } from '@chaoskit/chaoscluster-deprecated';
import { dump } from 'js-yaml';
import { defineCase } from '../../case.js';
import { callsWarnedOnce, deploymentDoc, deploymentNames, resultOf, specDir } from './fixtures.js';

export default defineCase({
  activity: startMicroserviceActivity,
  scenarios: [
    {
      name: 'creates the deployments of a JSON and a YAML file, as create_deployment does; warns once',
      async run(t) {
        const file = await specDir(t);
        const json = await file('web.json', JSON.stringify(deploymentDoc('web', 2)));
        const yaml = await file('api.yaml', dump(deploymentDoc('api', 1)));
        const [web, api] = await callsWarnedOnce(t, [
          { spec_path: json, ns: t.ns },
          { spec_path: yaml, ns: t.ns },
        ]);
        assert.deepEqual(resultOf(web), { name: 'web', namespace: t.ns });
        assert.deepEqual(resultOf(api), { name: 'api', namespace: t.ns });
        assert.deepEqual(await deploymentNames(t), ['api', 'web']);
        await t.until('2 web pods', async () => (await t.podNames('app=web')).length === 2);
      },
    },
    {
      name: 'bad files and a file naming another namespace are refused before any request, as start_microservice',
      async run(t) {
        const file = await specDir(t);
        const good = await file('good.yaml', dump(deploymentDoc('good', 1)));
        await t.expectRefused({ ns: t.ns }, 'spec_path');
        await t.expectRefused({ spec_path: `${good}.missing.yaml`, ns: t.ns }, 'spec_path');
        await t.expectRefused(
          { spec_path: await file('web.txt', dump(deploymentDoc('web', 1))), ns: t.ns },
          'spec_path',
        );
        const elsewhere = await file(
          'elsewhere.yaml',
          dump(deploymentDoc('x', 1, { namespace: 'elsewhere' })),
        );
        await t.expectRefused({ spec_path: elsewhere, ns: t.ns }, 'ns');
        const err = await t.call({ spec_path: elsewhere, ns: t.ns }).catch((e: Error) => e);
        assert.match(
          String((err as Error).message),
          /^chaoscluster\.actions\.start_microservice: argument 'ns'/,
        );
        await t.expectRefused({ spec_path: good, ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ spec_path: good, ns: t.ns, name: 'good' }, 'name');
        assert.deepEqual(await deploymentNames(t), []);
      },
    },
  ],
});
