import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issueServingCert, validatingWebhook } from './istio/istiod.js';
import { istiodManifests } from './k3s-istiod.js';
import { sharedCluster, testNamespace } from './testing.js';

// The k3s provider cannot run here (no container engine), but what it would apply can be put
// to a real apiserver: a server-side dry run with strict field validation refuses an unknown or
// misspelt field, a wrong type or a value out of range, as it would in k3s.

const execFileAsync = promisify(execFile);
const shared = sharedCluster();
let ns: Awaited<ReturnType<typeof testNamespace>>;
beforeAll(async () => {
  ns = await testNamespace(shared.kc, 'k3s-istiod');
});
afterAll(async () => {
  await ns?.remove();
});

it('the apiserver accepts every object the k3s provider applies for istiod (dry run, strict fields)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-k3s-istiod-'));
  try {
    const files = await issueServingCert(dir);
    const [caPem, certPem, keyPem] = await Promise.all(
      [files.caFile, files.certFile, files.keyFile].map((f) => readFile(f, 'utf8')),
    );
    const manifests = istiodManifests('docker.io/istio/pilot:1.31.1', {
      caPem: caPem!,
      certPem: certPem!,
      keyPem: keyPem!,
    });
    // Namespaced objects go to a namespace of the test (istio-system is not created by a dry run).
    const items = [
      ...manifests.map((o) =>
        o.metadata?.namespace ? { ...o, metadata: { ...o.metadata, namespace: ns.name } } : o,
      ),
      validatingWebhook(
        { service: { namespace: 'istio-system', name: 'istiod', path: '/validate', port: 443 } },
        Buffer.from(caPem!),
      ),
    ];
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
    const run = execFileAsync(
      shared.kubectl,
      [
        '--kubeconfig',
        shared.kubeconfigPath,
        'create',
        '--dry-run=server',
        '--validate=strict',
        '-o',
        'name',
        '-f',
        '-',
      ],
      {},
    );
    run.child.stdin!.end(list);
    const { stdout } = await run;
    expect(stdout.trim().split('\n')).toEqual([
      'namespace/istio-system',
      'serviceaccount/istiod',
      'clusterrolebinding.rbac.authorization.k8s.io/chaoskit-istiod',
      'secret/chaoskit-istiod-tls',
      'configmap/istio',
      'deployment.apps/istiod',
      'service/istiod',
      'service/istiod-xds',
      'validatingwebhookconfiguration.admissionregistration.k8s.io/chaoskit-istiod-validator',
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
