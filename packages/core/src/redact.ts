// Secret values are registered here as soon as they are resolved, and every message that
// leaves chaoskit (errors, logs, journals) passes through `redact`. One process-wide set,
// because a secret read by one package may surface in another package's error.

const secrets = new Set<string>();
// Longest first: a host inside a URL must not split the URL's own mask.
let ordered: string[] | undefined;
const MASK = '***';

// Very short values ("1", "a") would mask unrelated text everywhere; they are not secrets
// worth hiding and are too short to be guessed from context anyway.
const MIN_LENGTH = 4;

export function registerSecret(value: unknown): void {
  if (typeof value === 'string' && value.length >= MIN_LENGTH && !secrets.has(value)) {
    secrets.add(value);
    ordered = undefined;
  }
}

// Names every cluster has (k3s calls its context, cluster and user `default`): masking them
// would mask namespaces and words everywhere, and they tell nothing about a cluster.
const GENERIC = new Set([
  'default',
  'kubernetes',
  'admin',
  'local',
  'localhost',
  'cluster',
  'user',
  'in-cluster',
]);

/** A value that selects or reaches a cluster (a context, a host, a kubeconfig path): masked too. */
export function registerTarget(value: unknown): void {
  if (typeof value === 'string' && !GENERIC.has(value.toLowerCase())) registerSecret(value);
}

export function redact(text: string): string {
  ordered ??= [...secrets].sort((a, b) => b.length - a.length);
  let out = text;
  for (const value of ordered) {
    if (out.includes(value)) out = out.split(value).join(MASK);
  }
  return out;
}

/** Deep copy of a JSON-like value with every registered secret masked inside strings. */
export function redactValue<T>(value: T): T {
  if (secrets.size === 0) return value;
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v)])) as T;
  }
  return value;
}

/** For tests only: forget every registered secret. */
export function clearSecretsForTests(): void {
  secrets.clear();
  ordered = undefined;
}
