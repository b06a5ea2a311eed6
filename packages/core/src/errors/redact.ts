// Secret values are registered here as soon as they are resolved, and every message that
// leaves chaoskit (errors, logs, journals) passes through `redact`. One process-wide set,
// because a secret read by one package may surface in another package's error. D90
// (docs/decisions.md) says what is masked, what is shown, and why.

const MASK = '***';

// Credentials: masked wherever they appear, inside other text too. Very short values ("1",
// "a") would mask unrelated text everywhere; they are not secrets worth hiding.
const secrets = new Set<string>();
const MIN_SECRET = 4;

// Names and addresses that select a cluster (contexts, hosts, kubeconfig paths): masked where
// they stand as a name of their own, so that a context named `sa` or `shop` is masked where it
// is named and leaves `usage`, `workshop` or `shop-frontend` alone, however short it is.
const targets = new Set<string>();
const MIN_TARGET = 2;

// Longest first: a host inside a URL must not split the URL's own mask.
let ordered: Array<{ value: string; word: boolean }> | undefined;

export function registerSecret(value: unknown): void {
  if (typeof value === 'string' && value.length >= MIN_SECRET && !secrets.has(value)) {
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
  if (
    typeof value === 'string' &&
    value.trim().length >= MIN_TARGET &&
    !GENERIC.has(value.toLowerCase()) &&
    !targets.has(value)
  ) {
    targets.add(value);
    ordered = undefined;
  }
}

// Who made a request is what a refusal is about (the identity to grant rights to): shown whole,
// even where a part of it is also the name of a context or a kubeconfig user (D90); a
// credential inside one is masked all the same. The
// apiserver names it `User "…"`; a service account is `system:serviceaccount:<ns>:<name>`.
const IDENTITY = /User "[^"\n]{1,256}"|system:serviceaccount:[a-z0-9.-]{1,253}:[a-z0-9.-]{1,253}/g;

// A name is letters and digits, joined by `.`, `-` or `_` (`shop-frontend`, `api.prod.example`).
const WORD = /[\p{L}\p{N}]/u;
const JOIN = new Set(['.', '-', '_']);
const isWordAt = (text: string, index: number) =>
  index >= 0 && index < text.length && WORD.test(text[index]!);

/** `text` with `value` masked where it is a whole name (not part of a longer one). */
function maskWord(text: string, value: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
    if (at < from) continue;
    const end = at + value.length;
    // A sentence's full stop ends a name; `.org` or `-frontend` make it another name.
    const joinedBefore = isWordAt(text, at - 1) || (JOIN.has(text[at - 1] ?? '') && isWordAt(text, at - 2));
    const joinedAfter = isWordAt(text, end) || (JOIN.has(text[end] ?? '') && isWordAt(text, end + 1));
    if ((WORD.test(value[0]!) && joinedBefore) || (WORD.test(value.at(-1)!) && joinedAfter)) continue;
    out += text.slice(from, at) + MASK;
    from = end;
  }
  return out + text.slice(from);
}

/** `text` with the secrets masked, and the targets too unless `identity` (a span naming who acted). */
function maskAll(text: string, show: ReadonlySet<string>, identity = false): string {
  ordered ??= [
    ...[...secrets].map((value) => ({ value, word: false })),
    ...[...targets].filter((value) => !secrets.has(value)).map((value) => ({ value, word: true })),
  ].sort((a, b) => b.value.length - a.value.length);
  let out = text;
  for (const { value, word } of ordered) {
    if ((word && identity) || show.has(value) || !out.includes(value)) continue;
    out = word ? maskWord(out, value) : out.split(value).join(MASK);
  }
  return out;
}

export interface RedactOptions {
  /**
   * Values shown although registered: what the user typed on this command line, in the
   * message that helps them fix it (`--context nope` is not a context…). Never a credential.
   */
  show?: Iterable<string>;
  /**
   * Every value that selects or reaches a cluster shown, credentials still masked: the line
   * on the user's own terminal that tells them what to fix (D90), never a journal, a log, a
   * trace or an Event.
   */
  showTargets?: boolean;
}

export function redact(text: string, options: RedactOptions = {}): string {
  if (secrets.size === 0 && targets.size === 0) return text;
  const show = new Set([...(options.show ?? []), ...(options.showTargets ? targets : [])]);
  // Identities keep the names in them; the text around them is masked.
  let out = '';
  let from = 0;
  for (const match of text.matchAll(IDENTITY)) {
    out += maskAll(text.slice(from, match.index), show) + maskAll(match[0], show, true);
    from = match.index + match[0].length;
  }
  return out + maskAll(text.slice(from), show);
}

/** Deep copy of a JSON-like value with every registered secret masked inside strings. */
export function redactValue<T>(value: T): T {
  if (secrets.size === 0 && targets.size === 0) return value;
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
  targets.clear();
  ordered = undefined;
}
