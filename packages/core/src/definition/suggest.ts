const normal = (s: string) => s.toLowerCase().replace(/[_-]/g, '');

/**
 * The known name closest to a mistyped one, when it is close enough to be a likely typo, or
 * the only one it begins (`grace` for `grace_period`).
 */
export function suggest(given: string, known: readonly string[]): string | undefined {
  const { best, distance } = closest(given, known);
  if (best !== undefined && distance <= Math.max(2, Math.floor(given.length / 3))) return best;
  const longer = given.length >= 3 ? known.filter((k) => normal(k).startsWith(normal(given))) : [];
  return longer.length === 1 ? longer[0] : undefined;
}

/**
 * The known name a given one was almost certainly meant to be: the same but for case and
 * `-`/`_`, or one slip away (a letter wrong, missing, extra, or two swapped; two slips in a name
 * of 8 letters or more). Stricter than `suggest`: what it finds may be refused as a typo, where
 * a key merely unknown is let through.
 */
export function nearMiss(given: string, known: readonly string[]): string | undefined {
  const { best, distance } = closest(given, known);
  return best !== undefined && distance <= (given.length >= 8 ? 2 : 1) ? best : undefined;
}

function closest(given: string, known: readonly string[]): { best?: string; distance: number } {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = normal(candidate) === normal(given) ? 0 : editDistance(given, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === undefined ? { distance: bestDistance } : { best, distance: bestDistance };
}

/** Levenshtein's distance, with two neighbouring letters swapped counting as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
