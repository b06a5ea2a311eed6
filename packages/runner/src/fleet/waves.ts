// Canary waves (`--waves 1,50%,100%`): how many of a fleet's contexts have run once each wave
// is over, as a count or a percentage of the contexts, cumulative, as the user wrote them
// (D113). The contexts are taken in their order; whatever the last wave leaves is one more wave.

import { InvalidArgumentError } from 'commander';

/** One wave's size as written: the contexts run once it is over. */
export type WaveSize = { count: number } | { percent: number };

const ACCEPTED =
  'counts or percentages of the contexts, cumulative and increasing, separated by commas (1,50%,100%)';

/** `--waves`' text, read; bad text is refused naming what is accepted. */
export function parseWaves(text: string): WaveSize[] {
  const refuse = (why: string) => new InvalidArgumentError(`--waves takes ${ACCEPTED}; ${why}`);
  const sizes = text.split(',').map((raw): WaveSize => {
    const entry = raw.trim();
    if (/^\d+$/.test(entry) && Number(entry) >= 1) return { count: Number(entry) };
    const percent = /^(\d+(?:\.\d+)?)%$/.exec(entry);
    if (percent && Number(percent[1]) > 0 && Number(percent[1]) <= 100)
      return { percent: Number(percent[1]) };
    throw refuse(
      entry === ''
        ? `an entry is empty in '${text}'`
        : `'${entry}' is neither a count of at least 1 nor a percentage above 0% and at most 100%`,
    );
  });
  const written = (s: WaveSize) => ('count' in s ? `${s.count}` : `${s.percent}%`);
  for (let i = 1; i < sizes.length; i++) {
    const [a, b] = [sizes[i - 1]!, sizes[i]!];
    const sameKind = 'count' in a === 'count' in b;
    const value = (s: WaveSize) => ('count' in s ? s.count : s.percent);
    if (sameKind && value(b) <= value(a))
      throw refuse(
        `'${written(b)}' after '${written(a)}' does not add any context (the sizes are cumulative)`,
      );
  }
  return sizes;
}

/** How many of `total` contexts a wave's size reaches: a percentage rounds up (1% of 3 is 1). */
export function reach(size: WaveSize, total: number): number {
  if ('count' in size) return size.count;
  // toPrecision: 3 × 100% / 100 must be 3, not a float a hair above it.
  return Math.ceil(Number(((total * size.percent) / 100).toPrecision(12)));
}

/**
 * The contexts (their indexes, in order) of each wave. A wave that adds no context (50% of 2
 * after 1) is left out; the contexts the last wave leaves form one more wave; no sizes: one
 * wave of them all. A count beyond the fleet, or a wave smaller than the one before, is
 * refused.
 */
export function splitWaves(sizes: readonly WaveSize[] | undefined, total: number): number[][] {
  const waves: number[][] = [];
  let done = 0;
  for (const size of sizes ?? []) {
    const upTo = reach(size, total);
    if (upTo > total)
      throw new InvalidArgumentError(
        `--waves takes ${ACCEPTED}; ${upTo} is more than the ${total} context${total === 1 ? '' : 's'} of the run`,
      );
    if (upTo < done)
      throw new InvalidArgumentError(
        `--waves takes ${ACCEPTED}; ${'percent' in size ? `${size.percent}% (${upTo} of ${total})` : upTo} is fewer than the ${done} context${done === 1 ? '' : 's'} of the waves before it`,
      );
    if (upTo === done) continue;
    waves.push(range(done, upTo));
    done = upTo;
  }
  if (done < total) waves.push(range(done, total));
  return waves;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
