import { sharedCluster } from '@chaoskit/cluster/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CaseContext, type ClusterInfo } from './case-context.js';
import { loadCases } from './cases/index.js';

// chaoskit's own run of the conformance cases, on the shared local cluster.
const shared = sharedCluster();
const cluster: ClusterInfo = {
  provider: 'local',
  kc: shared.kc,
  server: shared.credentials.server,
  caFile: shared.credentials.caFile,
  auditLogPath: shared.auditLogPath,
  fakeNodes: true,
  podLogFile: shared.podLogFile,
};

for (const c of await loadCases()) {
  describe(c.activity.qualifiedName, () => {
    let t: CaseContext;
    beforeAll(async () => {
      t = await CaseContext.create(cluster, c, (line) => console.log(line));
    });
    afterAll(async () => {
      await t?.dispose();
    });
    for (const s of c.scenarios) {
      it(
        s.name,
        async () => {
          await t.beginScenario();
          await s.run(t);
        },
        s.timeoutMs ?? 60_000,
      );
    }
  });
}
