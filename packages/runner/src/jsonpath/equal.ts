// Deep equality of JSON values, with the scalars' equality as a parameter: tolerances compare
// with JSON's (D64), jsonpath tolerances with Python's (D161).

export const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Lists item by item, mappings key by key (in any order), anything else by `same`. */
export function equalBy(same: (a: unknown, b: unknown) => boolean): (a: unknown, b: unknown) => boolean {
  const equal = (a: unknown, b: unknown): boolean => {
    if (Array.isArray(a)) {
      return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]));
    }
    if (isMapping(a)) {
      const keys = Object.keys(a);
      return (
        isMapping(b) &&
        keys.length === Object.keys(b).length &&
        keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]))
      );
    }
    return same(a, b);
  };
  return equal;
}
