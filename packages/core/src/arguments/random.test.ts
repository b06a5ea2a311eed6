import { describe, expect, it } from 'vitest';
import { isValidSeed, MAX_SEED, makeRandom } from './random.js';

describe('makeRandom', () => {
  it('gives the same sequence for the same seed', () => {
    const a = makeRandom(42);
    const b = makeRandom(42);
    const seqA = Array.from({ length: 10 }, () => a.next());
    const seqB = Array.from({ length: 10 }, () => b.next());
    expect(seqA).toEqual(seqB);
    expect(a.seed).toBe(42);
  });

  it('is mulberry32 (known first outputs for seed 0 and 1)', () => {
    // Reference values from the published mulberry32 function.
    expect(makeRandom(0).next()).toBeCloseTo(0.26642920868471265, 15);
    expect(makeRandom(1).next()).toBeCloseTo(0.6270739405881613, 15);
  });

  it('draws and reports a seed when none is given, and that seed replays the run', () => {
    const first = makeRandom();
    expect(isValidSeed(first.seed)).toBe(true);
    const values = [first.next(), first.next()];
    const replay = makeRandom(first.seed);
    expect([replay.next(), replay.next()]).toEqual(values);
  });

  it('stays within [0, 1)', () => {
    const r = makeRandom(7);
    for (let i = 0; i < 10_000; i++) {
      const v = r.next();
      expect(v >= 0 && v < 1).toBe(true);
    }
  });

  it.each([-1, 1.5, MAX_SEED + 1, Number.NaN])('refuses seed %s', (seed) => {
    expect(() => makeRandom(seed)).toThrow(RangeError);
  });

  it('accepts the largest seed', () => {
    expect(makeRandom(MAX_SEED).seed).toBe(MAX_SEED);
  });
});

describe('sample', () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

  it('picks n distinct items from the list', () => {
    for (let seed = 0; seed < 50; seed++) {
      const picked = makeRandom(seed).sample(items, 5);
      expect(picked).toHaveLength(5);
      expect(new Set(picked).size).toBe(5);
      for (const item of picked) expect(items).toContain(item);
    }
  });

  it.each<[number, number]>([
    [0, 0],
    [-3, 0],
    [Number.NaN, 0],
    [2.9, 2],
    [8, 8],
    [20, 8],
  ])('n=%s gives %s items', (n, length) => {
    expect(makeRandom(1).sample(items, n)).toHaveLength(length);
  });

  it('returns all items in a shuffled order when n covers the list', () => {
    const shuffled = makeRandom(3).sample(items, items.length);
    expect([...shuffled].sort()).toEqual(items);
    expect(shuffled).not.toEqual(items);
  });

  it('does not modify the input', () => {
    const copy = [...items];
    makeRandom(9).sample(items, 4);
    expect(items).toEqual(copy);
  });

  it('is reproducible and seed-dependent', () => {
    expect(makeRandom(11).sample(items, 3)).toEqual(makeRandom(11).sample(items, 3));
    const distinct = new Set(
      Array.from({ length: 20 }, (_, seed) => makeRandom(seed).sample(items, 3).join()),
    );
    expect(distinct.size).toBeGreaterThan(10);
  });

  it('is roughly uniform', () => {
    const r = makeRandom(2024);
    const counts = new Map<string, number>();
    for (let i = 0; i < 8000; i++) {
      const [item] = r.sample(items, 1);
      counts.set(item as string, (counts.get(item as string) ?? 0) + 1);
    }
    for (const item of items) expect(counts.get(item)).toBeGreaterThan(800);
  });
});
