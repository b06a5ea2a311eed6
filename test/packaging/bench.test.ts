// `./dev bench` in its tiny size (3 nodes, 50 pods, one repeat), only to prove that it works:
// every scenario runs with every tool, each tool's requests reach the apiserver's audit log, and
// nothing fails. The scenarios that count, delete or evict also run the reference client
// (benchref, client-go at full speed), and the report compares chaoskit with it. Times are reported by the bench, never asserted here.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './repo.js';

interface Variant {
  requests: { median: number };
  rssMb: { median: number };
  failures: string[];
}
interface Report {
  scenarios: { id: string; variants: Record<string, Variant> }[];
}

const out = mkdtempSync(join(tmpdir(), 'chaoskit-bench-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the bench, tiny', () => {
  it('refuses a tool it does not know, naming the ones it takes, before it starts anything', () => {
    const out = spawnSync(process.execPath, ['bench/run.mjs', '--tiny', '--tools', 'chaoskit,kubctl'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(out.status).toBe(2);
    expect(out.stderr).toBe(
      "bench: --tools takes chaoskit, python, kubectl, reference (separated by commas); not 'kubctl'\n",
    );
  });

  it('refuses a --limit that is not a number of seconds above 0', () => {
    const out = spawnSync(process.execPath, ['bench/run.mjs', '--tiny', '--limit', '0'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(out.status).toBe(2);
    expect(out.stderr).toBe("bench: --limit takes a number of seconds above 0; not '0'\n");
  });

  it('kills a process still running at its --limit, with its children, and says it did not finish', async () => {
    const { measureProcess } = await import('../../bench/measure.mjs');
    const pidFile = join(out, 'child.pid');
    const m = await measureProcess(`sleep 60 & echo $! > ${pidFile}; wait`, {
      env: process.env,
      cwd: out,
      scratch: out,
      limitSeconds: 1,
    });
    expect(m.stopped).toBe(true);
    expect(m.ended - m.started).toBeLessThan(30_000);
    // The command's own child went with it: gone, or dead and not yet reaped (a zombie).
    const child = Number(readFileSync(pidFile, 'utf8'));
    const state = () => {
      try {
        return readFileSync(`/proc/${child}/stat`, 'utf8').split(') ')[1]?.[0];
      } catch {
        return 'gone';
      }
    };
    expect(['gone', 'Z']).toContain(state());
  });

  it('runs every scenario with chaoskit, the Python originals and kubectl, and reports what each did', () => {
    // The timeout bounds a hang, not the bench's speed: the tiny bench runs beside the cluster
    // tests, and at a load of 59 on 2 cores it took more than 10 minutes.
    execFileSync(process.execPath, ['bench/run.mjs', '--tiny', '--out', out], {
      cwd: repoRoot,
      stdio: 'pipe',
      timeout: 1_500_000,
    });
    const report: Report = JSON.parse(readFileSync(join(out, 'tiny.json'), 'utf8'));
    expect(report.scenarios.map((s) => s.id)).toEqual([
      'start',
      'count',
      'phase',
      'terminate-tenth',
      'terminate-percent',
      'name-pattern',
      'terminate-hundred',
      'drain',
      'exec',
      'fault',
    ]);
    for (const scenario of report.scenarios) {
      const names = Object.keys(scenario.variants);
      for (const tool of [
        'chaoskit run',
        'python run',
        'kubectl',
        'chaoskit in-process',
        'python in-process',
      ])
        expect(names, scenario.id).toContain(tool);
      if (scenario.id !== 'start' && scenario.id !== 'exec' && scenario.id !== 'fault')
        expect(names, `${scenario.id}: the reference client ran`).toContain('reference');
      for (const [name, variant] of Object.entries(scenario.variants)) {
        expect(variant.failures, `${scenario.id} · ${name}`).toEqual([]);
        expect(
          variant.requests.median,
          `${scenario.id} · ${name}: requests in the audit log`,
        ).toBeGreaterThan(0);
        expect(variant.rssMb.median, `${scenario.id} · ${name}: peak RSS`).toBeGreaterThan(0);
      }
    }
    const markdown = readFileSync(join(out, 'tiny.md'), 'utf8');
    expect(markdown).toContain('Method: one run of `./dev bench`');
    expect(markdown).toContain('chaoskit / reference');
  }, 1_800_000);
});
