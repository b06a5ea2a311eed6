// The README's TypeScript example, run as written on the shared cluster: the region `use` is
// what README.md shows (`npm run docs` copies it there). The test below checks what it did.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readmeNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';

const { kc } = sharedCluster();
const core = kc.makeApiClient(CoreV1Api);
// The namespace the README names; no other test uses it.
const NS = 'checkout';

// What the example expects: KUBECONFIG pointing at the cluster, a Service `web` in namespace
// `checkout`, and its file in services/web.yaml of the working directory.
const previousCwd = process.cwd();
const workdir = mkdtempSync(join(tmpdir(), 'chaoskit-service-readme-'));
afterAll(() => {
  process.chdir(previousCwd);
  rmSync(workdir, { recursive: true, force: true });
});
await readmeNamespace(NS);
const web = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: { selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP' }] },
};
await core.createNamespacedService({ namespace: NS, body: web });
process.chdir(workdir);
writeFileSync(join(workdir, 'web.yaml'), JSON.stringify(web));

// #region use
import { createServiceEndpoint, deleteService, serviceIsInitialized } from '@chaoskit/chaoscluster-service';

await serviceIsInitialized({ name: 'web', ns: 'checkout' }); // true
const gone = await deleteService({ name: 'web', ns: 'checkout' }); // { service: 'web', namespace: 'checkout' }
const back = await createServiceEndpoint({ specPath: 'web.yaml', ns: 'checkout' }); // { name: 'web', namespace: 'checkout' }
// #endregion

describe('the README of @chaoskit/chaoscluster-service', () => {
  it('deleted the Service web and created it again from its file', async () => {
    expect(gone).toEqual({ service: 'web', namespace: NS });
    expect(back).toEqual({ name: 'web', namespace: NS });
    const now = await core.readNamespacedService({ name: 'web', namespace: NS });
    expect(now.metadata?.labels).toEqual({ app: 'web' });
  });
});
