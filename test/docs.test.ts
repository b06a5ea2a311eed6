import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations
import { readmes } from '../scripts/docs.mjs';

describe('the READMEs', () => {
  it('say what the definitions and the tests say (npm run docs regenerates them)', async () => {
    const found = (await readmes()) as Array<{ path: string; text: string; expected: string }>;
    expect(found.length).toBeGreaterThan(5);
    for (const { path, text, expected } of found) {
      expect(text, `${relative(process.cwd(), path)} drifted: run npm run docs`).toBe(expected);
    }
  });
});
