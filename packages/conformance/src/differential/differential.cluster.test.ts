import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedCluster } from '@chaoskit/cluster/testing';
import { expect, it } from 'vitest';
import { onKubeconfig, runKit } from '../kit/test-kit-command.js';
import { scenarios } from './scenarios.js';

// The kit's differential mode, as users run it: the Python originals (installed from PyPI into
// a cached virtual environment) and chaoskit run the same experiments on the shared cluster.
const shared = sharedCluster();

it('finds no unexpected difference with the Python originals and explains every expected one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-differential-'));
  try {
    const run = await runKit(dir, ['--compare-python', ...onKubeconfig(shared), '--report', dir]);
    const report = await readFile(join(dir, 'differential.md'), 'utf8');
    console.log(report);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    expect(report).toContain(`${scenarios.length} scenarios run`);
    expect(report).toContain('**0 unexpected difference(s)**');
    // The deviations chaoskit makes on purpose (docs/decisions.md) show up, each with its reason.
    for (const id of [
      'returns-what-it-touched',
      'istio-result',
      'remove-abort-only',
      'delete-pods-no-grace',
      'exec-result',
    ]) {
      expect(report).toContain(`| ${id} |`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 600_000);
