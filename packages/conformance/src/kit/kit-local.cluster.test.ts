import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { loadCases } from '../cases/index.js';

const cases = await loadCases();

// The whole kit, as a user runs it, on a disposable local cluster of its own.
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

it('passes every case on the local provider and reports all of them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-kit-local-'));
  try {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [cli, '--report', dir],
        { cwd: dir, maxBuffer: 1 << 26 },
        (err, _out, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    const report = await readFile(join(dir, 'conformance.md'), 'utf8');
    console.log(report.split('\n').slice(0, 5).join('\n'));
    expect(run.code, run.stderr.slice(-4000)).toBe(0);
    expect(report).toContain(`**${cases.length} of ${cases.length} activities passed**, 0 failed, 0 skipped`);
    const junit = await readFile(join(dir, 'conformance.junit.xml'), 'utf8');
    expect(junit).toMatch(new RegExp(`<testsuites [^>]*tests="${cases.length}" failures="0" skipped="0"`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 900_000);
