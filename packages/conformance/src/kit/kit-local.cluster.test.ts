import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { loadCases } from '../cases/index.js';
import { runKit } from './test-kit-command.js';

const cases = await loadCases();
// One activity of each group: the kit's own workings as a user runs it (every case runs in
// cases-*.cluster.test.ts). Without real nodes and istiod: the kit's local provider with both,
// their scenarios passing, is what test/packaging/e2e.test.ts runs from the tarballs (and
// running.cluster.test.ts, mesh-traffic.cluster.test.ts run every such scenario); here the kit
// must say, per scenario, why it skipped them.
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
    const run = await runKit(dir, [
      '--report',
      dir,
      '--only',
      ONLY.join(','),
      '--no-real-nodes',
      '--no-istiod',
    ]);
    const report = await readFile(join(dir, 'conformance.md'), 'utf8');
    console.log(report.split('\n').slice(0, 5).join('\n'));
    expect(run.code, run.stderr.slice(-4000)).toBe(0);
    expect(report).toContain(`**${ONLY.length} of ${ONLY.length} activities passed**, 0 failed, 0 skipped`);
    const junit = await readFile(join(dir, 'conformance.junit.xml'), 'utf8');
    // One test case per scenario, the root's counts included; what was skipped, with the reason.
    const scenarios = chosen.reduce((n, c) => n + c.scenarios.length, 0);
    const reasons = [...junit.matchAll(/<skipped message="([^"]*)"\/>/g)].map((m) => m[1]);
    expect(junit).toMatch(
      new RegExp(`<testsuites [^>]*tests="${scenarios}" failures="0" errors="0" skipped="${reasons.length}"`),
    );
    const noRealNodes = 'needs pods that really run: the local cluster was started without real nodes';
    const noIstiod = 'needs a mesh data plane: istiod was turned off (--no-istiod)';
    const running = chosen.flatMap((c) => c.scenarios.filter((x) => x.running));
    expect(reasons.filter((r) => r === noRealNodes)).toHaveLength(running.length);
    expect(reasons.filter((r) => r === noIstiod).length).toBeGreaterThan(0);
    expect(reasons.filter((r) => r !== noRealNodes && r !== noIstiod)).toEqual([]);
    expect(junit.match(/<testcase /g)).toHaveLength(scenarios);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 900_000);
