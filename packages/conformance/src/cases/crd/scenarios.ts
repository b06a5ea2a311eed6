import assert from 'node:assert/strict';
import type { CustomObject } from '@chaoskit/chaoscluster-crd';
import type { AnyActivity } from '@chaoskit/core';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';
import { planCall } from '../shared-fixtures.js';
import {
  activityFailure,
  missingTypes,
  otherScopeArgs,
  type Scope,
  type ScopeKind,
  scopeOf,
} from './fixtures.js';

// The scenarios that several crd activities share word for word: each takes the scope and the
// verb of the activity (`get`, `delete`, `patch`, `replace`) it runs for.

/** The name of the other scope's variant of `verb`, the one a wrong-scope failure points at. */
export function otherVariant(verb: string, kind: ScopeKind): string {
  return kind === 'namespaced' ? `${verb}_cluster_custom_object` : `${verb}_custom_object`;
}

/** get and delete of an object that does not exist. */
export function missingObjectScenario(verb: string, kind: ScopeKind): Scenario {
  return {
    name: 'a missing object is ActivityFailed that says it does not exist',
    async run(t) {
      const s = await scopeOf(t, kind);
      const message = await activityFailure(t.call({ ...s.args, name: s.name('ghost') }));
      assert.match(
        message,
        new RegExp(`failed to ${verb} custom object '${s.name('ghost')}' .*: it does not exist`),
      );
    },
  };
}

/** get and delete of an object whose resource is not served, or served in the other scope. */
export function missingDefinitionScenario(
  verb: string,
  kind: ScopeKind,
  /** The calls for the arguments of a missing type: patch and replace send a body of that type. */
  callsFor: (s: Scope, args: Record<string, unknown>) => Array<Record<string, unknown>> = (_s, args) => [
    { ...args, name: 'x' },
  ],
  /** The extra arguments of the call with the other scope's type. */
  otherScope: (s: Scope) => Record<string, unknown> = () => ({}),
): Scenario {
  return {
    name: 'a missing custom resource definition is ActivityFailed that says so; the other scope points at the other variant',
    async run(t) {
      const s = await scopeOf(t, kind);
      for (const { args } of missingTypes(s)) {
        for (const call of callsFor(s, args)) {
          const message = await activityFailure(t.call(call));
          assert.match(message, /the custom resource definition is missing/);
        }
      }
      const message = await activityFailure(t.call({ ...otherScopeArgs(s), name: 'x', ...otherScope(s) }));
      assert.match(message, new RegExp(`use ${otherVariant(verb, kind)}`));
    },
  };
}

/** A body of the type `args` name, for missingDefinitionScenario's patch and replace. */
export const bodyOfType = (s: Scope, args: Record<string, unknown>) => ({
  ...s.doc('x'),
  apiVersion: `${args.group}/v1`,
});

/** The other scope's kind, as the body of the call with the other scope's type. */
export const otherScopeBody = (s: Scope) => ({ resource: { ...s.doc('x'), kind: s.other.kind } });

/** patch and replace (forced) in plan mode: the result is the server's dry run, the object stays. */
export function planLeavesObjectScenario(operation: 'apply' | 'replace', kind: ScopeKind): Scenario {
  return {
    name: `in plan mode the ${operation} is a server-side dry run: the object is unchanged`,
    async run(t) {
      const s = await scopeOf(t, kind);
      const name = s.name('plan');
      await s.create(s.doc(name, { size: 1 }));
      const { result } = (await planCall(t, {
        ...s.args,
        name,
        force: true,
        resource: s.doc(name, { size: 2 }),
      })) as { result: CustomObject };
      assert.deepEqual(result.spec, { size: 2 });
      assert.deepEqual((await s.read(name))?.spec, { size: 1 });
    },
  };
}

/**
 * Calls `refuse` with an object that exists and a good body for it (patch and replace: each
 * expects its own refusals), then checks that the object was not changed.
 */
export async function refusalsLeaveObject<A extends AnyActivity>(
  t: CaseContext<A>,
  kind: ScopeKind,
  refuse: (s: Scope, name: string, good: CustomObject) => Promise<void>,
): Promise<void> {
  const s = await scopeOf(t, kind);
  const name = s.name('keep');
  const before = await s.create(s.doc(name, { size: 1 }));
  await refuse(s, name, s.doc(name, { size: 2 }));
  assert.equal((await s.read(name))?.metadata?.resourceVersion, before.metadata?.resourceVersion);
}
