// A Python module exposes every function it imports: `chaosk8s.probes.read_pod_logs` is
// `chaosk8s.pod.probes.read_pod_logs`, and experiments call it so. An alias is that: one more
// module and name under which an activity defined elsewhere is found. It holds the activity
// itself, so a lookup through it returns the one definition (no copy to drift).

import { type AnyActivity, isActivity } from './activity.js';

export interface ActivityAlias {
  /** The module the activity is also found in (`chaoscluster.probes`). */
  readonly module: string;
  /** The name it has there; the activity's own name unless given. */
  readonly name: string;
  /** `module.name`. */
  readonly qualifiedName: string;
  /** The one definition it stands for. */
  readonly activity: AnyActivity;
}

// Recognised by a brand, as activities are: two copies of core may be loaded side by side.
const ALIAS = Symbol.for('chaoskit.alias');
const SNAKE_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
const MODULE_NAME = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * `activity`, also found as `module.name` (by default under its own name). A package lists its
 * aliases in its `aliases` export; the runner registers them when it loads the package.
 */
export function aliasActivity(module: string, activity: AnyActivity, name = activity.name): ActivityAlias {
  const where = `aliasActivity(${module}.${name})`;
  if (!isActivity(activity))
    throw new TypeError(`${where}: the target is not an activity made by defineActivity`);
  if (!MODULE_NAME.test(module)) throw new TypeError(`${where}: the module must be a dotted name`);
  if (!SNAKE_NAME.test(name)) throw new TypeError(`${where}: the name must be snake_case`);
  if (module === activity.module && name === activity.name)
    throw new TypeError(`${where}: that is the activity's own name`);
  return Object.freeze({ [ALIAS]: true, module, name, qualifiedName: `${module}.${name}`, activity });
}

/** Whether a value is an alias made by aliasActivity. */
export function isAlias(value: unknown): value is ActivityAlias {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ALIAS] === true;
}
