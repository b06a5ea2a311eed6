import type { AnyActivity } from './activity.js';
import type { ActivityAlias } from './alias.js';

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

/** `chaoscluster.pod.actions` → `chaosk8s.pod.actions`: the Python original's name (others unchanged). */
export function originalModule(module: string): string {
  for (const [alias, canonical] of MODULE_ALIASES) {
    if (module === canonical) return alias;
    if (module.startsWith(`${canonical}.`)) return alias + module.slice(canonical.length);
  }
  return module;
}

/**
 * `module` (chaoskit's name) as an experiment that names modules like `given` writes it:
 * `chaoscluster.pod.probes` is `chaosk8s.pod.probes` to one that wrote `chaosk8s.…`.
 */
export function spelledAs(module: string, given: string): string {
  for (const [alias, canonical] of MODULE_ALIASES)
    if ((given === alias || given.startsWith(`${alias}.`)) && module.startsWith(`${canonical}.`))
      return alias + module.slice(canonical.length);
  return module;
}

/** The activities known to a process, by module and function name, and their aliases. */
export class ActivityRegistry {
  readonly #byName = new Map<string, AnyActivity>();
  readonly #aliases = new Map<string, ActivityAlias>();

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
      if (existing || this.#aliases.has(key)) {
        throw new Error(
          `activity '${key}' is registered twice: two packages (or two copies of one package) define it`,
        );
      }
      this.#byName.set(key, activity);
    }
    return this;
  }

  /**
   * Adds aliases: one more module and name for an activity defined elsewhere. An alias may not
   * take the name of an activity, nor of another alias of a different activity.
   */
  alias(...aliases: ActivityAlias[]): this {
    for (const alias of aliases) {
      const key = `${canonicalModule(alias.module)}.${alias.name}`;
      const existing = this.#aliases.get(key);
      if (existing?.activity === alias.activity) continue;
      if (existing || this.#byName.has(key)) {
        throw new Error(
          `'${key}' is registered twice: as an alias of ${alias.activity.qualifiedName}, and as ${existing ? `an alias of ${existing.activity.qualifiedName}` : 'an activity'}`,
        );
      }
      this.#aliases.set(key, alias);
    }
    return this;
  }

  /**
   * The activity `func` of `module`, accepting the `chaosk8s.` / `chaosistio.` prefixes; through
   * an alias, the activity it stands for.
   */
  get(module: string, func: string): AnyActivity | undefined {
    const key = `${canonicalModule(module)}.${func}`;
    return this.#byName.get(key) ?? this.#aliases.get(key)?.activity;
  }

  has(module: string, func: string): boolean {
    return this.get(module, func) !== undefined;
  }

  /** Every activity, ordered by qualified name (or those of one module); aliases are not listed. */
  list(module?: string): AnyActivity[] {
    return ordered(this.#byName, module);
  }

  /** Every alias, ordered by qualified name (or those of one module). */
  aliases(module?: string): ActivityAlias[] {
    return ordered(this.#aliases, module);
  }

  /** The function names a module offers: its activities' and its aliases', sorted. */
  names(module: string): string[] {
    return [...this.list(module).map((a) => a.name), ...this.aliases(module).map((a) => a.name)].sort();
  }

  /** The module names that have at least one activity or alias, sorted. */
  modules(): string[] {
    return [
      ...new Set([
        ...[...this.#byName.values()].map((a) => canonicalModule(a.module)),
        ...[...this.#aliases.values()].map((a) => canonicalModule(a.module)),
      ]),
    ].sort();
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

/** The values of `byName` ordered by their qualified name, or those of one module only. */
function ordered<T extends { module: string }>(byName: Map<string, T>, module?: string): T[] {
  const wanted = module === undefined ? undefined : canonicalModule(module);
  return [...byName.entries()]
    .filter(([, entry]) => wanted === undefined || canonicalModule(entry.module) === wanted)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, entry]) => entry);
}
