// Which fields of an object a write changes, as JSON pointers (RFC 6901), and the values at
// them: what the run's ledger records before a write, and what a revert puts back.

/** Fields the server owns: never recorded, never restored. */
const SERVER_FIELDS = new Set([
  '/metadata/resourceVersion',
  '/metadata/generation',
  '/metadata/uid',
  '/metadata/creationTimestamp',
  '/metadata/managedFields',
  '/metadata/selfLink',
  '/status',
]);

const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeToken = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function owned(pointer: string, ignore: (pointer: string) => boolean): boolean {
  for (const server of SERVER_FIELDS)
    if (pointer === server || pointer.startsWith(`${server}/`)) return false;
  return !ignore(pointer);
}

/**
 * The pointers a JSON merge patch (or a server-side apply body) sets: its leaves, objects being
 * walked into; a list is set whole.
 */
export function patchPointers(patch: unknown, ignore: (pointer: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (value: unknown, at: string) => {
    if (isObject(value) && Object.keys(value).length > 0) {
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}/${escapeToken(key)}`);
    } else if (at && owned(at, ignore)) out.push(at);
  };
  walk(patch, '');
  return out;
}

/**
 * The pointers at which `after` differs from `before` (a whole-object write): objects are
 * walked into, lists of the same length item by item, other lists whole.
 */
export function diffPointers(
  before: unknown,
  after: unknown,
  ignore: (pointer: string) => boolean = () => false,
): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (at && !owned(at, ignore)) return;
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk(a[key], b[key], `${at}/${escapeToken(key)}`);
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (const [i, item] of a.entries()) walk(item, b[i], `${at}/${i}`);
    } else if (!same(a, b)) out.push(at);
  };
  walk(before, after, '');
  return out;
}

/** The value at `pointer`, or `{ present: false }`. */
export function valueAt(object: unknown, pointer: string): { present: boolean; value?: unknown } {
  let current: unknown = object;
  for (const token of pointer.split('/').slice(1).map(unescapeToken)) {
    if (Array.isArray(current) && /^\d+$/.test(token) && Number(token) < current.length)
      current = current[Number(token)];
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
    else return { present: false };
  }
  return { present: true, value: current };
}

/** Deep equality of JSON values (key order does not matter). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]))
    );
  }
  return false;
}

/** A pointer into `metadata.annotations` for an annotation key. */
export function annotationPointer(key: string): string {
  return `/metadata/annotations/${escapeToken(key)}`;
}

/** A field's value at a pointer: present (with its value) or absent. */
export interface FieldValue {
  present: boolean;
  value?: unknown;
}

// Kubernetes leaves out a field at its zero value (omitempty): `unschedulable: false` reads
// back as no field at all. So an absent field and a zero one are the same.
const isZero = (v: unknown) =>
  v === null ||
  v === false ||
  v === 0 ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (isObject(v) && Object.keys(v).length === 0);

/** Whether two field values are the same, an absent field being its zero value. */
export function sameField(a: FieldValue, b: FieldValue): boolean {
  const absent = (f: FieldValue) => !f.present || isZero(f.value);
  if (absent(a) || absent(b)) return absent(a) && absent(b);
  return same(a.value, b.value);
}
