import assert from 'node:assert/strict';
import { createNetworkPolicyActivity } from '@chaoskit/chaoscluster-networking';
import { dump } from 'js-yaml';
import { defineCase } from '../../case.js';
import { createPolicyRunning } from '../../running/network-scenarios.js';
import { badSpecFiles } from '../shared-fixtures.js';
import { activityFailure, planCall, policyFileDoc, policyNames, specDir, storedSpec } from './fixtures.js';

/**
 * The spec of policyFileDoc(…, app) as the API server stores it, read back through client-node
 * (whose model calls an ingress rule's `from` `_from`).
 */
const stored = (app: string) => ({
  podSelector: { matchLabels: { app } },
  policyTypes: ['Ingress'],
  ingress: [
    {
      _from: [{ podSelector: { matchLabels: { role: 'front' } } }],
      ports: [{ port: 8080, protocol: 'TCP' }],
    },
  ],
});

export default defineCase({
  activity: createNetworkPolicyActivity,
  scenarios: [
    {
      name: 'creates the policy given as spec; the stored spec is the one given, `from` included',
      async run(t) {
        const result = await t.call({ spec: policyFileDoc('web-only'), ns: t.ns });
        assert.deepEqual(result, { policy: 'web-only', namespace: t.ns });
        assert.deepEqual(await policyNames(t), ['web-only']);
        assert.deepEqual(await storedSpec(t, 'web-only'), stored('web'));
      },
    },
    {
      name: 'creates policies from a JSON file and from .yaml and .yml files',
      async run(t) {
        const file = await specDir(t);
        const json = await file('web.json', JSON.stringify(policyFileDoc('web-only', 'web'), null, 2));
        const yaml = await file('api.yaml', dump(policyFileDoc('api-only', 'api')));
        const yml = await file('db.yml', `# a comment\n---\n${dump(policyFileDoc('db-only', 'db'))}`);
        assert.deepEqual(await t.call({ spec_path: json, ns: t.ns }), {
          policy: 'web-only',
          namespace: t.ns,
        });
        assert.deepEqual(await t.call({ spec_path: yaml, ns: t.ns }), {
          policy: 'api-only',
          namespace: t.ns,
        });
        assert.deepEqual(await t.call({ spec_path: yml, ns: t.ns }), { policy: 'db-only', namespace: t.ns });
        assert.deepEqual(await policyNames(t), ['api-only', 'db-only', 'web-only']);
        for (const [name, app] of [
          ['web-only', 'web'],
          ['api-only', 'api'],
          ['db-only', 'db'],
        ] as const) {
          assert.deepEqual(await storedSpec(t, name), stored(app), name);
        }
      },
    },
    {
      name: 'a policy naming namespace ns is created there; generateName gets the server-given name back',
      async run(t) {
        const same = { ...policyFileDoc('same', 'web', { namespace: t.ns }) };
        assert.deepEqual(await t.call({ spec: same, ns: t.ns }), { policy: 'same', namespace: t.ns });
        const { name: _, ...metadata } = policyFileDoc('x').metadata!;
        const generated = { ...policyFileDoc('x'), metadata: { ...metadata, generateName: 'chaos-' } };
        const result = await t.call({ spec: generated, ns: t.ns });
        assert.match(result.policy, /^chaos-[a-z0-9]+$/);
        assert.deepEqual(await policyNames(t), [result.policy, 'same'].sort());
      },
    },
    {
      name: 'an existing policy of that name is a clear ActivityFailed',
      async run(t) {
        await t.call({ spec: policyFileDoc('dup'), ns: t.ns });
        const message = await activityFailure(t.call({ spec: policyFileDoc('dup', 'other'), ns: t.ns }));
        assert.match(message, new RegExp(`network policy 'dup' already exists in namespace '${t.ns}'`));
        assert.deepEqual(await storedSpec(t, 'dup'), stored('web'));
      },
    },
    {
      name: 'plan mode sends a server-side dry run: nothing is created',
      async run(t) {
        const { result } = await planCall(t, { spec: policyFileDoc('planned'), ns: t.ns });
        assert.deepEqual(result, { policy: 'planned', namespace: t.ns });
        assert.deepEqual(await policyNames(t), []);
      },
    },
    {
      name: 'neither or both of spec and spec_path, bad files, bad policies and bad arguments are refused',
      async run(t) {
        const file = await specDir(t);
        const good = await file('good.yaml', dump(policyFileDoc('good')));
        const spec = policyFileDoc('good');
        const refused: Array<[Record<string, unknown>, string]> = [
          [{ ns: t.ns }, 'spec'],
          [{ spec, spec_path: good, ns: t.ns }, 'spec_path'],
          ...(await badSpecFiles(file, good, 'NetworkPolicy', (name) => policyFileDoc(name), t.ns)),
          [{ spec_path: 42, ns: t.ns }, 'spec_path'],
          [{ spec: 'kind: NetworkPolicy', ns: t.ns }, 'spec'],
          [{ spec: { ...spec, apiVersion: 'extensions/v1beta1' }, ns: t.ns }, 'spec'],
          [{ spec: { ...spec, kind: 'Deployment' }, ns: t.ns }, 'spec'],
          [{ spec: { ...spec, spec: { ...spec.spec, podSelectr: {} } }, ns: t.ns }, 'spec'],
          [{ spec: policyFileDoc('elsewhere', 'web', { namespace: 'other' }), ns: t.ns }, 'ns'],
          [{ spec, ns: 'Not_A_Namespace' }, 'ns'],
          [{ spec, ns: t.ns, name: 'good' }, 'name'],
        ];
        for (const [args, argument] of refused) await t.expectRefused(args, argument);
        assert.deepEqual(await policyNames(t), []);
      },
    },
    createPolicyRunning,
  ],
});
