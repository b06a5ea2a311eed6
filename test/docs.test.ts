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

describe("the root README's 'Where things go'", () => {
  it('names only paths that exist', async () => {
    const { readFile } = await import('node:fs/promises');
    const { existsSync } = await import('node:fs');
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.split('## Where things go')[1]?.split('\n## ')[0] ?? '';
    // Concrete paths only: a placeholder like `<group>` names no one file.
    const paths = [...section.matchAll(/`(packages\/[^`<>]+)`/g)].map((m) => m[1]!.replace(/'s$/, ''));
    expect(paths.length).toBeGreaterThan(8);
    const missing = paths.filter((path) => !existsSync(new URL(`../${path}`, import.meta.url)));
    expect(missing).toEqual([]);
  });
});
