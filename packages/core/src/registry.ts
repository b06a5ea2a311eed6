import type { AnyActivity } from './define-activity.js';

// Experiments written for the Python originals name their modules `chaosk8s.…` and
// `chaosistio.…`; they run unchanged, as the same activities under chaoskit's prefixes.
const MODULE_ALIASES: ReadonlyArray<readonly [alias: string, canonical: string]> = [
  ['chaosk8s', 'chaoscluster'],
  ['chaosistio', 'chaosmesh'],
];

/** `chaosk8s.pod.actions` → `chaoscluster.pod.actions`; other names are returned unchanged. */
export function canonicalModule(module: string): string {
  for (const [alias, canonical] of MODULE_ALIASES) {
    if (module === alias) return canonical;
    if (module.startsWith(`${alias}.`)) return canonical + module.slice(alias.length);
  }
  return module;
}

/** The activities known to a process, by module and function name. */
export class ActivityRegistry {
  readonly #byName = new Map<string, AnyActivity>();

  /**
   * Adds activities. Registering a second, different activity under a qualified name already
   * taken throws; registering the very same activity object again is a no-op (a package's
   * entry point evaluated twice must not break the process).
   */
  register(...activities: AnyActivity[]): this {
    for (const activity of activities) {
      const key = `${canonicalModule(activity.module)}.${activity.name}`;
      const existing = this.#byName.get(key);
      if (existing === activity) continue;
      if (existing) {
        throw new Error(
          `activity '${key}' is registered twice: two packages (or two copies of one package) define it`,
        );
      }
      this.#byName.set(key, activity);
    }
    return this;
  }

  /** The activity `func` of `module`, accepting the `chaosk8s.` / `chaosistio.` prefixes. */
  get(module: string, func: string): AnyActivity | undefined {
    return this.#byName.get(`${canonicalModule(module)}.${func}`);
  }

  has(module: string, func: string): boolean {
    return this.get(module, func) !== undefined;
  }

  /** Every activity, ordered by qualified name (or those of one module). */
  list(module?: string): AnyActivity[] {
    const wanted = module === undefined ? undefined : canonicalModule(module);
    return [...this.#byName.entries()]
      .filter(([, activity]) => wanted === undefined || canonicalModule(activity.module) === wanted)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, activity]) => activity);
  }

  /** The module names that have at least one activity, sorted. */
  modules(): string[] {
    return [...new Set([...this.#byName.values()].map((a) => canonicalModule(a.module)))].sort();
  }
}

// The process-wide registry lives on globalThis under a registered symbol: activity packages
// are versioned independently and may resolve different copies of @chaoskit/core, yet the
// runner must see every activity they register.
const GLOBAL_KEY = Symbol.for('chaoskit.registry');
const holder = globalThis as { [GLOBAL_KEY]?: ActivityRegistry };

/** The default, process-wide registry that activity packages register into. */
export const registry: ActivityRegistry = holder[GLOBAL_KEY] ?? new ActivityRegistry();
holder[GLOBAL_KEY] = registry;
