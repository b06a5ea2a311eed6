import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realNodeProblems } from '@chaoskit/cluster';
import { expect, it } from 'vitest';
import { loadCases } from '../cases/index.js';
import { runKit } from './test-kit-command.js';

const cases = await loadCases();
const canRunRealNodes = (await realNodeProblems()).length === 0;
// One activity of each group, real mesh traffic included: the kit's own workings as a user
// runs it (every case runs in cases-*.cluster.test.ts, the mesh traffic in
// mesh-traffic.cluster.test.ts).
const ONLY = [
  'terminate_pods',
  'drain_nodes',
  'scale_deployment',
  'deny_all_ingress',
  'patch_custom_object',
  'kill_microservice',
  'add_abort_fault',
  'delete_service',
  'scale_statefulset',
  'delete_replica_set',
];

// The kit, as a user runs it, on a disposable local cluster of its own.
it('passes one case of every group on the local provider and reports each of them', async () => {
  const chosen = cases.filter((c) => ONLY.includes(c.activity.name));
  expect(chosen.map((c) => c.activity.name).sort()).toEqual([...ONLY].sort());
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-kit-local-'));
  try {
    const run = await runKit(dir, ['--report', dir, '--only', ONLY.join(',')]);
    const report = await readFile(join(dir, 'conformance.md'), 'utf8');
    console.log(report.split('\n').slice(0, 5).join('\n'));
    expect(run.code, run.stderr.slice(-4000)).toBe(0);
    expect(report).toContain(`**${ONLY.length} of ${ONLY.length} activities passed**, 0 failed, 0 skipped`);
    // The kit starts two real nodes where this machine can run them: terminate_pods, drain_nodes
    // and deny_all_ingress then also run their scenarios on running containers.
    if (canRunRealNodes) expect(run.stderr).toMatch(/\(0 scenario\(s\) skipped/);
    else expect(run.stderr).toContain('needs pods that really run: ');
    const junit = await readFile(join(dir, 'conformance.junit.xml'), 'utf8');
    // One test case per scenario, the root's counts included.
    const scenarios = chosen.reduce((n, c) => n + c.scenarios.length, 0);
    expect(junit).toMatch(
      new RegExp(`<testsuites [^>]*tests="${scenarios}" failures="0" errors="0" skipped="0"`),
    );
    expect(junit.match(/<testcase /g)).toHaveLength(scenarios);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 900_000);
