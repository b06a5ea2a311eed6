// Fixtures shared by the networking cases: an admin view of the network policies and spec files
// (plan-mode calls and the ActivityFailed assertion are the shared fixtures').
import assert from 'node:assert/strict';
import { NetworkingV1Api, type V1NetworkPolicy } from '@kubernetes/client-node';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';

import { activityFailure, fileWriter, planCall } from '../shared-fixtures.js';

export { activityFailure, fileWriter as specDir, planCall };

function api(t: CaseContext): NetworkingV1Api {
  return t.kc.makeApiClient(NetworkingV1Api);
}

/** A value as JSON has it: no class instances, no keys whose value is undefined. */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The names of the network policies of the scenario's namespace, sorted (admin view). */
export async function policyNames(t: CaseContext): Promise<string[]> {
  const list = await api(t).listNamespacedNetworkPolicy({ namespace: t.ns });
  return list.items.map((p) => p.metadata!.name!).sort();
}

/** The stored spec of a policy of the scenario's namespace, as plain JSON (admin view). */
export async function storedSpec(t: CaseContext, name: string): Promise<unknown> {
  const policy = await api(t).readNamespacedNetworkPolicy({ name, namespace: t.ns });
  assert.equal(policy.metadata?.namespace, t.ns);
  return plain(policy.spec);
}

/** Creates a policy with the admin identity (a fixture, not the activity under test). */
export async function adminCreate(t: CaseContext, body: V1NetworkPolicy): Promise<void> {
  await api(t).createNamespacedNetworkPolicy({ namespace: t.ns, body });
}

/** Deletes a policy with the admin identity (a fixture). */
export async function adminDelete(t: CaseContext, name: string): Promise<void> {
  await api(t).deleteNamespacedNetworkPolicy({ name, namespace: t.ns });
}

/** A policy for the spec and spec_path scenarios: pods app=<app> accept traffic from role=front only. */
export function policyDoc(name: string, app = 'web', extra: { namespace?: string } = {}): V1NetworkPolicy {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, labels: { team: 'shop' }, ...(extra.namespace ? { namespace: extra.namespace } : {}) },
    spec: {
      podSelector: { matchLabels: { app } },
      policyTypes: ['Ingress'],
      ingress: [
        {
          _from: [{ podSelector: { matchLabels: { role: 'front' } } }],
          ports: [{ port: 8080, protocol: 'TCP' }],
        },
      ],
    },
  };
}

/** The same policy as a user writes it in a file (JSON field names: `from`, not `_from`). */
export function policyFileDoc(name: string, app = 'web', extra: { namespace?: string } = {}) {
  const { spec, ...rest } = policyDoc(name, app, extra);
  return {
    ...rest,
    spec: {
      ...spec,
      ingress: [
        {
          from: [{ podSelector: { matchLabels: { role: 'front' } } }],
          ports: [{ port: 8080, protocol: 'TCP' }],
        },
      ],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The scenarios of the three generated policies (deny_all_ingress, deny_all_egress,
// allow_dns_access) and of their removal: the same questions, each policy its own answers.
// ---------------------------------------------------------------------------------------------

export interface GeneratedPolicy {
  /** The policy's name, as documented (the Python original's). */
  policy: string;
  /** The activity that creates it, and the one that removes it. */
  creator: string;
  remover: string;
  /** The spec the API server stores for these pod labels (null: every pod), written out in full. */
  storedSpec: (matchLabels: Record<string, string> | null) => unknown;
}

export function createScenarios(p: GeneratedPolicy): Scenario[] {
  return [
    {
      name: `creates ${p.policy} for every pod of the namespace; the stored spec is the documented one`,
      async run(t) {
        const result = await t.call({ ns: t.ns });
        assert.deepEqual(result, { policy: p.policy, namespace: t.ns });
        assert.deepEqual(await policyNames(t), [p.policy]);
        assert.deepEqual(await storedSpec(t, p.policy), p.storedSpec(null));
      },
    },
    {
      name: 'label_selectors (a mapping) limits it to the pods carrying every label; {} and null mean every pod',
      async run(t) {
        const labels = { app: 'web', 'app.kubernetes.io/part-of': 'shop' };
        assert.deepEqual(await t.call({ ns: t.ns, label_selectors: labels }), {
          policy: p.policy,
          namespace: t.ns,
        });
        assert.deepEqual(await storedSpec(t, p.policy), p.storedSpec(labels));
        await adminDelete(t, p.policy);
        await t.call({ ns: t.ns, label_selectors: {} });
        assert.deepEqual(await storedSpec(t, p.policy), p.storedSpec(null));
        await adminDelete(t, p.policy);
        await t.call({ ns: t.ns, label_selectors: null });
        assert.deepEqual(await storedSpec(t, p.policy), p.storedSpec(null));
      },
    },
    {
      name: 'the policy already there is a clear ActivityFailed, and it is left as it was',
      async run(t) {
        await t.call({ ns: t.ns, label_selectors: { app: 'web' } });
        const message = await activityFailure(t.call({ ns: t.ns }));
        assert.match(
          message,
          new RegExp(`network policy '${p.policy}' already exists in namespace '${t.ns}'`),
        );
        assert.match(message, new RegExp(`${p.remover} removes it`));
        assert.deepEqual(await storedSpec(t, p.policy), p.storedSpec({ app: 'web' }));
      },
    },
    {
      name: 'plan mode sends a server-side dry run: nothing is created',
      async run(t) {
        const { result, lines } = await planCall(t, { ns: t.ns, label_selectors: { app: 'web' } });
        assert.deepEqual(result, { policy: p.policy, namespace: t.ns });
        // Said as what would happen (core's plan wording), not as done.
        assert.ok(
          lines.some((l) => l.startsWith(`would create network policy ${p.policy} in namespace ${t.ns}`)),
          lines.join('\n'),
        );
        assert.deepEqual(await policyNames(t), []);
      },
    },
    {
      name: 'a selector string (upstream #139), bad labels, a bad namespace and unknown arguments are refused',
      async run(t) {
        await t.expectRefused({ ns: t.ns, label_selectors: 'app=web' }, 'label_selectors');
        await t.expectRefused({ ns: t.ns, label_selectors: ['app=web'] }, 'label_selectors');
        await t.expectRefused({ ns: t.ns, label_selectors: { app: 5 } }, 'label_selectors');
        await t.expectRefused({ ns: t.ns, label_selectors: { 'bad key': 'web' } }, 'label_selectors');
        await t.expectRefused({ ns: t.ns, label_selectors: { app: 'no spaces allowed' } }, 'label_selectors');
        await t.expectRefused({ ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ ns: t.ns, label_selector: 'app=web' }, 'label_selector');
        assert.deepEqual(await policyNames(t), []);
      },
    },
  ];
}

export function removeScenarios(p: GeneratedPolicy & { manifest: V1NetworkPolicy }): Scenario[] {
  return [
    {
      name: `removes ${p.policy}; the other policies of the namespace stay`,
      async run(t) {
        await adminCreate(t, p.manifest);
        await adminCreate(t, policyDoc('keep'));
        const result = await t.call({ ns: t.ns });
        assert.deepEqual(result, { policy: p.policy, namespace: t.ns });
        assert.deepEqual(await policyNames(t), ['keep']);
      },
    },
    {
      name: 'removing the policy when it is not there is an ActivityFailed naming it and the namespace (upstream #116)',
      async run(t) {
        await adminCreate(t, policyDoc('keep'));
        const message = await activityFailure(t.call({ ns: t.ns }));
        assert.match(
          message,
          new RegExp(`there is no network policy '${p.policy}' in namespace '${t.ns}' to remove`),
        );
        assert.match(message, new RegExp(`${p.creator} creates it`));
        assert.deepEqual(await policyNames(t), ['keep']);
      },
    },
    {
      name: 'plan mode sends a server-side dry run: the policy stays; when absent it is only logged',
      async run(t) {
        await adminCreate(t, p.manifest);
        const present = await planCall(t, { ns: t.ns });
        assert.deepEqual(present.result, { policy: p.policy, namespace: t.ns });
        assert.deepEqual(await policyNames(t), [p.policy]);
        await adminDelete(t, p.policy);
        const absent = await planCall(t, { ns: t.ns });
        assert.deepEqual(absent.result, { policy: p.policy, namespace: t.ns });
        assert.ok(
          absent.lines.some((l) => l.includes('is not in namespace')),
          absent.lines.join('\n'),
        );
      },
    },
    {
      name: 'a bad namespace and unknown arguments are refused before any request',
      async run(t) {
        await adminCreate(t, p.manifest);
        await t.expectRefused({ ns: 'Not_A_Namespace' }, 'ns');
        await t.expectRefused({ ns: t.ns, name: p.policy }, 'name');
        await t.expectRefused({ ns: t.ns, label_selectors: { app: 'web' } }, 'label_selectors');
        assert.deepEqual(await policyNames(t), [p.policy]);
      },
    },
  ];
}
