import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalCluster, start } from '@chaoskit/cluster';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterInfo } from './case-context.js';
import { discoverCases } from './cases/index.js';
import { onKubeconfig, runKit } from './kit/test-kit-command.js';
import { localClusterInfo } from './running/cluster.js';
import { describeCases } from './test-cases.js';
import { OWN_CLUSTER_GROUPS } from './test-shared-cases.js';

// The mesh cases on a local cluster of their own with a real istiod (and only here): every scenario, those
// that prove the VirtualService written (now also past istiod's validating webhook) and those
// that send real gRPC traffic through the mesh and prove what the fault did to it. The
// measured numbers are printed (`mesh traffic <activity> <version> <what>: …`).

const mesh = (await discoverCases()).filter((d) => OWN_CLUSTER_GROUPS.includes(d.group)).map((d) => d.case);
let local: LocalCluster;
// Filled in before the cases' own set-up runs (describeCases reads it in their beforeAll).
const cluster = { provider: 'local', fakeNodes: true } as ClusterInfo;

beforeAll(async () => {
  local = await start({ provider: 'local', nodes: 1, mesh: 'istiod' });
  const kc = new KubeConfig();
  kc.loadFromString(local.kubeconfig);
  Object.assign(cluster, { ...localClusterInfo(local, kc), meshXds: local.istiod!.xdsAddress });
  console.log(`mesh traffic: istiod ready in ${local.istiod!.readyMs} ms`);
}, 1_200_000);

afterAll(async () => {
  await local?.stop();
});

describeCases(cluster, mesh);

describe("the kit on a user's cluster with a mesh", () => {
  it('runs the traffic scenarios when --mesh-xds reaches istiod, and skips them with the reason when it does not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chaoskit-kit-mesh-'));
    try {
      const base = [...onKubeconfig(local), '--only', 'get_virtual_service'];
      const reached = await runKit(dir, [
        ...base,
        '--mesh-xds',
        local.istiod!.xdsAddress,
        '--report',
        'reached',
      ]);
      expect(reached.code, reached.stderr).toBe(0);
      expect(reached.stderr).toMatch(
        /1 of 1 activities passed, 0 failed, 0 skipped \(0 scenario\(s\) skipped/,
      );
      const md = await readFile(join(dir, 'reached', 'conformance.md'), 'utf8');
      expect(md).not.toContain('## Skipped, and why');
      // What the traffic did, in both reports: per scenario, moment and route, the requests,
      // the failed share and the median latency.
      process.stdout.write(`\n${md.slice(md.indexOf('## Real traffic'))}`);
      const rows =
        md.match(
          /^\| `[^`]+get_virtual_service` \| .+ \| .+ \| [ab] \| \d+ \| [\d.]+ % \| [\d.]+ ms \|$/gm,
        ) ?? [];
      expect(md).toContain('## Real traffic through the mesh');
      // 3 API versions × (baseline + as read) × 2 routes.
      expect(rows).toHaveLength(12);
      // Route a is aborted at 100 % as read, route b is not.
      expect(
        rows.filter((r) => / as read: a aborted, b delayed \| a \| \d+ \| 100\.0 % /.test(r)),
      ).toHaveLength(3);
      expect(
        rows.filter((r) => / as read: a aborted, b delayed \| b \| \d+ \| 0\.0 % /.test(r)),
      ).toHaveLength(3);
      const reachedJunit = await readFile(join(dir, 'reached', 'conformance.junit.xml'), 'utf8');
      expect(
        reachedJunit.match(/<system-out>[^<]*baseline, route a: \d+ requests, 0\.0 % failed, p50 [\d.]+ ms/g),
      ).toHaveLength(3);

      const missing = await runKit(dir, [...base, '--report', 'missing']);
      expect(missing.code, missing.stderr).toBe(0);
      expect(missing.stderr).toMatch(
        /1 of 1 activities passed, 0 failed, 0 skipped \(3 scenario\(s\) skipped/,
      );
      expect(missing.stderr).toContain(
        'needs a mesh data plane: no istiod to send traffic through: give --mesh-xds',
      );
      // Said once, for the 3 scenarios it skipped.
      expect(missing.stderr.split('--mesh-xds').length - 1).toBe(1);
      const junit = await readFile(join(dir, 'missing', 'conformance.junit.xml'), 'utf8');
      expect(junit.match(/<skipped message="needs a mesh data plane: /g)).toHaveLength(3);

      const wrong = await runKit(dir, [...base, '--mesh-xds', '127.0.0.1:1', '--report', 'wrong']);
      expect(wrong.code, wrong.stderr).toBe(0);
      expect(wrong.stderr).toMatch(
        /needs a mesh data plane: the istiod of --mesh-xds: the xDS server did not answer a request for a listener/,
      );
      expect(wrong.stderr).not.toMatch(/127\.0\.0\.1:1\b/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
