import { randomInt } from 'node:crypto';

/** A seeded source of randomness; `seed` reproduces the same sequence when passed back in. */
export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** `n` distinct items (without replacement) in random order; fewer when `items` is shorter. */
  sample<T>(items: readonly T[], n: number): T[];
}

export const MAX_SEED = 0xffff_ffff;

export function isValidSeed(seed: unknown): seed is number {
  return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED;
}

// mulberry32 (Tommy Ettinger, public domain): 32 bits of state, fast, and good enough to pick
// victims; reproducibility from one reported integer matters more here than statistical quality.
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Without `seed`, a random 32-bit seed is drawn and reported in `.seed` so a run can be replayed. */
export function makeRandom(seed?: number): Random {
  if (seed !== undefined && !isValidSeed(seed)) {
    throw new RangeError(`seed must be an integer from 0 to ${MAX_SEED}, got ${seed}`);
  }
  const chosen = seed ?? randomInt(0, MAX_SEED + 1);
  const next = mulberry32(chosen);
  return {
    seed: chosen,
    next,
    sample<T>(items: readonly T[], n: number): T[] {
      const count = Math.min(items.length, Math.max(0, Math.floor(n) || 0));
      const pool = [...items];
      // Partial Fisher-Yates: the first `count` slots end up a uniform sample in random order.
      for (let i = 0; i < count; i++) {
        const j = i + Math.floor(next() * (pool.length - i));
        const picked = pool[j] as T;
        pool[j] = pool[i] as T;
        pool[i] = picked;
      }
      return pool.slice(0, count);
    },
  };
}
