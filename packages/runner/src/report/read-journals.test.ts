import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { reportModel } from './model.js';
import { readJournals } from './read-journals.js';
import { fixture } from './test-journals.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-report-read-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('reading journals', () => {
  it("masks the secrets a Chaos Toolkit journal's experiment declares, in every journal", async () => {
    // Chaos Toolkit writes secrets as they are: a literal, and the value of an environment variable.
    const literal = 'literal-token-3f9a1c';
    const fromEnv = 'env-token-7d2e8b';
    const journal = fixture('chaostoolkit-completed.json') as {
      experiment: Record<string, unknown>;
      run: Array<{ output: unknown; logs?: string[] }>;
    };
    journal.experiment.secrets = {
      api: { token: literal, nested: { key: { type: 'env', key: 'REPORT_TEST_TOKEN' } } },
    };
    journal.run[0]!.output = { stdout: `Authorization: Bearer ${literal}` };
    const other = fixture('chaoskit-drain-a-node.json') as { run: Array<{ logs: string[] }> };
    other.run[0]!.logs.push(`called with ${fromEnv}`);
    await writeFile(join(dir, 'secret.json'), JSON.stringify(journal));
    await writeFile(join(dir, 'other.json'), JSON.stringify(other));

    const read = readJournals([join(dir, 'secret.json'), join(dir, 'other.json')], {
      REPORT_TEST_TOKEN: fromEnv,
    });
    const model = reportModel(read);
    for (const text of [JSON.stringify(read), renderHtml(model, 'x'), renderMarkdown(model, 'x')]) {
      expect(text).not.toContain(literal);
      expect(text).not.toContain(fromEnv);
    }
    expect(JSON.stringify(read)).toContain('Authorization: Bearer ***');
    expect(JSON.stringify(read)).toContain('called with ***');
  });

  it('names the file and why it cannot be read', async () => {
    await writeFile(join(dir, 'broken.json'), '{"run": [');
    expect(() => readJournals([join(dir, 'missing.json')])).toThrow(
      `${join(dir, 'missing.json')}: no such file`,
    );
    expect(() => readJournals([join(dir, 'broken.json')])).toThrow(
      new RegExp(`^${join(dir, 'broken.json')}: the file is not valid JSON`),
    );
  });
});
