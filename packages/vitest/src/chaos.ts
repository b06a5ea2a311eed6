// The `chaos` object: every action of chaoskit's activity packages as `chaos.<name>` returning
// a fault handle, every probe as `chaos.probe.<name>`, on one cluster; and the faults it made,
// so that what a test left in place can be named and undone (`settle`).

import type { AnyActivity, RunCallOptions } from '@chaoskit/core';
import { type Actions, type Catalogue, catalogue, type Probes } from './catalogue.js';
import { type Fault, FaultRun, faultHandle, revertAndThrow } from './fault.js';
import { type TestNamespace, testNamespace } from './namespace.js';
import { type ProbeCall, probeCall } from './probe.js';
import { type ChaosTarget, envOf } from './target.js';

export interface ChaosOptions extends ChaosTarget {
  /** The title of the faults' records (a test's name). */
  title?: string;
  /** Where the faults' activities write their log lines (default: nowhere). */
  log?: (line: string) => void;
}

export interface SettleOptions {
  /**
   * Also each namespace of `testNamespace` never disposed: named, and deleted. The fixture's end
   * passes it; mid-test, a namespace still in use is not left behind.
   */
  namespaces?: boolean;
}

export interface ChaosMembers {
  /** Every probe, `chaos.probe.<name>(options)`: awaited, it runs once; matchers poll it. */
  readonly probe: Probes;
  /** A fresh namespace, deleted when disposed (`await using ns = await chaos.testNamespace()`). */
  testNamespace(prefix?: string): Promise<TestNamespace>;
  /**
   * What the faults left in place, in words — each one found is reverted, and the record it
   * leaves removed (and with `namespaces`, each test namespace never disposed, deleted); an empty
   * list means the cluster holds nothing of them. The vitest fixture fails a test whose list, with
   * namespaces, is not empty.
   */
  settle(options?: SettleOptions): Promise<string[]>;
}

/** Every action, and the members above. */
export type Chaos = Actions & ChaosMembers;

type Options = Record<string, unknown> & Pick<RunCallOptions, 'signal'>;
type Callable = (options?: Options) => Promise<unknown>;

/** A `chaos` object on the cluster `options` names (default: the environment's, as kubectl's). */
export function createChaos(options: ChaosOptions = {}): Chaos {
  const env = envOf(options);
  const ledgerNamespace = options.ledgerNamespace ?? process.env.CHAOSKIT_LEDGER_NAMESPACE ?? 'default';
  const runs: FaultRun[] = [];
  const call = (found: AnyActivity, given: Options | undefined, extra: Record<string, unknown>) =>
    (found as unknown as { fn: Callable }).fn({
      ...(options.log ? { log: options.log } : {}),
      ...given,
      ...extra,
      env,
    });

  const act = async (name: string, given?: Options): Promise<Fault> => {
    const known: Catalogue = await catalogue();
    const activity = known.find(name, 'action');
    const run = new FaultRun(activity, known, {
      ledgerNamespace,
      title: options.title ?? 'chaoskit vitest',
      ...(options.log ? { log: options.log } : {}),
    });
    runs.push(run);
    let result: unknown;
    try {
      result = await call(activity, given, { ledger: run.ledger });
    } catch (err) {
      // What the action changed before it failed is undone before the error goes on.
      return revertAndThrow(err, () => run.revert());
    }
    return faultHandle(run, result);
  };

  const probe = new Proxy({} as Probes, {
    get: (_, name) =>
      typeof name === 'string' && name !== 'then'
        ? (given?: Options): ProbeCall =>
            probeCall(`chaos.probe.${name}`, async (signal) => {
              const activity = (await catalogue()).find(name, 'probe');
              return call(activity, given, signal ? { signal } : {});
            })
        : undefined,
  });

  // The test's namespaces: one never disposed is named, and removed, when the test ends.
  const namespaces: TestNamespace[] = [];
  const members: ChaosMembers = {
    probe,
    testNamespace: async (prefix) => {
      const ns = await testNamespace(options, prefix);
      namespaces.push(ns);
      return ns;
    },
    async settle({ namespaces: withNamespaces = false } = {}) {
      const left: string[] = [];
      // Newest first: a fault written over another is undone before it.
      for (const run of runs.splice(0).reverse()) {
        const inPlace = await run.settle();
        if (inPlace.length === 0) continue;
        left.push(...inPlace.map((what) => `${run.activity.qualifiedName} (run ${run.runId}): ${what}`));
        await run.revert().catch((err: unknown) => left.push((err as Error).message));
      }
      // After the faults: a fault in a namespace is undone before the namespace goes.
      for (const ns of withNamespaces ? namespaces.splice(0).filter((n) => !n.removed) : []) {
        left.push(
          `namespace ${ns.name} (chaos.testNamespace) was never disposed: write \`await using ns = await chaos.testNamespace()\`; it is deleted now`,
        );
        await ns.remove().catch((err: unknown) => left.push((err as Error).message));
      }
      return left;
    },
  };

  return new Proxy(members as Chaos, {
    get: (target, name) => {
      if (name in target) return target[name as keyof ChaosMembers];
      return typeof name === 'string' && name !== 'then' ? (given?: Options) => act(name, given) : undefined;
    },
  });
}
