import assert from 'node:assert/strict';
import { removeNetworkPolicyActivity } from '@chaoskit/chaoscluster-networking';
import { defineCase } from '../../case.js';
import { activityFailure, adminCreate, adminDelete, planCall, policyDoc, policyNames } from './fixtures.js';

export default defineCase({
  activity: removeNetworkPolicyActivity,
  scenarios: [
    {
      name: 'removes the named policy; the others stay',
      async run(t) {
        await adminCreate(t, policyDoc('web-only'));
        await adminCreate(t, policyDoc('keep'));
        assert.deepEqual(await t.call({ name: 'web-only', ns: t.ns }), {
          policy: 'web-only',
          namespace: t.ns,
        });
        assert.deepEqual(await policyNames(t), ['keep']);
      },
    },
    {
      name: 'removing a policy that is not there is an ActivityFailed naming it and the namespace',
      async run(t) {
        await adminCreate(t, policyDoc('keep'));
        const message = await activityFailure(t.call({ name: 'ghost', ns: t.ns }));
        assert.match(
          message,
          new RegExp(`there is no network policy 'ghost' in namespace '${t.ns}' to remove`),
        );
        assert.deepEqual(await policyNames(t), ['keep']);
      },
    },
    {
      name: 'plan mode sends a server-side dry run: the policy stays; when absent it is only logged',
      async run(t) {
        await adminCreate(t, policyDoc('web-only'));
        assert.deepEqual((await planCall(t, { name: 'web-only', ns: t.ns })).result, {
          policy: 'web-only',
          namespace: t.ns,
        });
        assert.deepEqual(await policyNames(t), ['web-only']);
        await adminDelete(t, 'web-only');
        const absent = await planCall(t, { name: 'web-only', ns: t.ns });
        assert.ok(
          absent.lines.some((l) => l.includes('is not in namespace')),
          absent.lines.join('\n'),
        );
      },
    },
    {
      name: 'a missing or bad name, a bad namespace and unknown arguments are refused before any request',
      async run(t) {
        await adminCreate(t, policyDoc('keep'));
        await t.expectRefused({ ns: t.ns }, 'name');
        await t.expectRefused({ name: 'Not_Valid', ns: t.ns }, 'name');
        await t.expectRefused({ name: 42, ns: t.ns }, 'name');
        await t.expectRefused({ name: 'keep', ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ name: 'keep', ns: t.ns, spec: {} }, 'spec');
        assert.deepEqual(await policyNames(t), ['keep']);
      },
    },
  ],
});
