// The activities `chaos` offers, derived from the activity packages' own definitions: every
// export `<name>Activity` made by defineActivity is `chaos.<name>` (an action) or
// `chaos.probe.<name>` (a probe), with the options and result of its camelCase export `<name>`.
// The packages are dependencies (D140) and are loaded together on first use, as the runner loads
// them when an experiment names them; the deprecated package's old names are left to experiments.

import type { AnyActivity, RbacRule } from '@chaoskit/core';
import type { Fault } from './fault.js';
import type { ProbeCall } from './probe.js';

/** chaoskit's activity packages, each loaded on demand. */
export const ACTIVITY_PACKAGES = {
  '@chaoskit/chaoscluster-crd': () => import('@chaoskit/chaoscluster-crd'),
  '@chaoskit/chaoscluster-deployment': () => import('@chaoskit/chaoscluster-deployment'),
  '@chaoskit/chaoscluster-networking': () => import('@chaoskit/chaoscluster-networking'),
  '@chaoskit/chaoscluster-node': () => import('@chaoskit/chaoscluster-node'),
  '@chaoskit/chaoscluster-pod': () => import('@chaoskit/chaoscluster-pod'),
  '@chaoskit/chaoscluster-replicaset': () => import('@chaoskit/chaoscluster-replicaset'),
  '@chaoskit/chaoscluster-service': () => import('@chaoskit/chaoscluster-service'),
  '@chaoskit/chaoscluster-statefulset': () => import('@chaoskit/chaoscluster-statefulset'),
  '@chaoskit/chaosmesh-fault': () => import('@chaoskit/chaosmesh-fault'),
} as const;

type Loaded = Awaited<ReturnType<(typeof ACTIVITY_PACKAGES)[keyof typeof ACTIVITY_PACKAGES]>>;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every export of every activity package. */
type Exports = Intersection<Loaded>;

/** The camelCase names of the activities of `kind`: those with both `<name>Activity` and `<name>`. */
type NamesOf<Kind> = {
  [K in keyof Exports]: K extends `${infer Name}Activity`
    ? Exports[K] extends { readonly kind: Kind; readonly camelName: string }
      ? Name extends keyof Exports
        ? Name
        : never
      : never
    : never;
}[keyof Exports];

/** `chaos.<name>(options)`: the activity runs, and its fault handle is returned. */
export type Actions = {
  [Name in NamesOf<'action'> & keyof Exports]: Exports[Name] extends (...args: infer P) => Promise<infer R>
    ? (...args: P) => Promise<Fault<R>>
    : never;
};

/** `chaos.probe.<name>(options)`: a probe call, run when awaited or by a matcher. */
export type Probes = {
  [Name in NamesOf<'probe'> & keyof Exports]: Exports[Name] extends (...args: infer P) => Promise<infer R>
    ? (...args: P) => ProbeCall<R>
    : never;
};

export interface Catalogue {
  /** The activity of `kind` called `camelName`, or an error saying which names there are. */
  find(camelName: string, kind: 'action' | 'probe'): AnyActivity;
  /** The RBAC rules of an activity by qualified name: what a revert checks a record against. */
  rulesOf(qualifiedName: string): readonly RbacRule[] | undefined;
  readonly activities: readonly AnyActivity[];
}

let loading: Promise<Catalogue> | undefined;

/** The catalogue, loaded once per process. */
export function catalogue(): Promise<Catalogue> {
  loading ??= Promise.all(Object.values(ACTIVITY_PACKAGES).map((load) => load())).then((modules) =>
    catalogueOf(modules.flatMap((m) => m.activities)),
  );
  return loading;
}

export function catalogueOf(activities: readonly AnyActivity[]): Catalogue {
  const byName = new Map(activities.map((a) => [`${a.kind}:${a.camelName}`, a]));
  const rules = new Map(activities.map((a) => [a.qualifiedName, a.rbac]));
  return {
    activities,
    rulesOf: (name) => rules.get(name),
    find(camelName, kind) {
      const found = byName.get(`${kind}:${camelName}`);
      if (found) return found;
      const known = activities.filter((a) => a.kind === kind).map((a) => a.camelName);
      const where = kind === 'action' ? `chaos.${camelName}` : `chaos.probe.${camelName}`;
      const other = byName.get(`${kind === 'action' ? 'probe' : 'action'}:${camelName}`);
      throw new TypeError(
        other
          ? `${where}: ${other.qualifiedName} is ${kind === 'action' ? 'a probe: use chaos.probe.' : 'an action: use chaos.'}${camelName}`
          : `${where}: no chaoskit ${kind} is called so; the ${kind}s are ${known.join(', ')}`,
      );
    },
  };
}
