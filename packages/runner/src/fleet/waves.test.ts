import { describe, expect, it } from 'vitest';
import { parseWaves, reach, splitWaves } from './waves.js';

const split = (text: string, total: number) => splitWaves(parseWaves(text), total);

describe('canary waves', () => {
  it('reads counts and percentages, cumulative, as written', () => {
    expect(parseWaves('1,50%,100%')).toEqual([{ count: 1 }, { percent: 50 }, { percent: 100 }]);
    expect(parseWaves(' 2 , 12.5% ')).toEqual([{ count: 2 }, { percent: 12.5 }]);
  });

  it('splits the contexts in order, one wave per size, each wave what the one before left', () => {
    expect(split('1,2,3', 3)).toEqual([[0], [1], [2]]);
    expect(split('1,50%,100%', 10)).toEqual([[0], [1, 2, 3, 4], [5, 6, 7, 8, 9]]);
    expect(split('2', 2)).toEqual([[0, 1]]);
  });

  it('rounds a percentage up: a canary of 1% of a small fleet is one context, never none', () => {
    expect(reach({ percent: 1 }, 3)).toBe(1);
    expect(reach({ percent: 50 }, 3)).toBe(2);
    expect(reach({ percent: 100 }, 3)).toBe(3);
    expect(reach({ percent: 33.3 }, 3)).toBe(1);
    // 7 × 100 / 100 is 7 exactly, not a float above it rounded up to 8.
    expect(reach({ percent: 100 }, 7)).toBe(7);
    expect(reach({ percent: 10 }, 30)).toBe(3);
    expect(split('1%,100%', 3)).toEqual([[0], [1, 2]]);
  });

  it('leaves out a wave that adds no context, and runs what the last wave leaves as one more', () => {
    // 50% of 2 is the one context wave 1 already ran.
    expect(split('1,50%,100%', 2)).toEqual([[0], [1]]);
    expect(split('1', 4)).toEqual([[0], [1, 2, 3]]);
    expect(split('25%', 8)).toEqual([
      [0, 1],
      [2, 3, 4, 5, 6, 7],
    ]);
    expect(splitWaves(undefined, 3)).toEqual([[0, 1, 2]]);
    expect(splitWaves([], 1)).toEqual([[0]]);
  });

  it('refuses bad text, naming the option and what it accepts', () => {
    const accepted =
      '--waves takes counts or percentages of the contexts, cumulative and increasing, separated by commas (1,50%,100%); ';
    for (const [text, why] of [
      ['0', "'0' is neither a count of at least 1 nor a percentage above 0% and at most 100%"],
      ['-1', "'-1' is neither"],
      ['0%', "'0%' is neither"],
      ['150%', "'150%' is neither"],
      ['1.5', "'1.5' is neither"],
      ['abc', "'abc' is neither"],
      ['1,,2', "an entry is empty in '1,,2'"],
      ['', "an entry is empty in ''"],
      ['2,1', "'1' after '2' does not add any context (the sizes are cumulative)"],
      ['50%,50%', "'50%' after '50%' does not add any context"],
    ] as const) {
      expect(() => parseWaves(text), text).toThrow(accepted + why);
    }
  });

  it('refuses sizes the fleet cannot have: more contexts than it has, a wave smaller than the one before', () => {
    expect(() => split('1,5', 3)).toThrow(/--waves takes .*; 5 is more than the 3 contexts of the run$/);
    expect(() => split('2', 1)).toThrow('2 is more than the 1 context of the run');
    expect(() => split('3,50%', 4)).toThrow(
      '50% (2 of 4) is fewer than the 3 contexts of the waves before it',
    );
  });
});
