import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ISTIO_VERSION } from '../host/binaries.js';
import { freePorts } from '../host/ports.js';
import { httpOk, type ProcessGroup } from '../host/processes.js';
import { until } from '../host/until.js';
import { ISTIO_API_VERSION } from '../istio/crds.js';
import {
  CLUSTER_ID,
  DOMAIN,
  ISTIO_NAMESPACE,
  issueServingCert,
  registerWebhook,
  servesXds,
  VALIDATING_WEBHOOK_NAME,
  webhookRefuses,
  xdsBootstrap,
} from '../istio/istiod.js';
import type { IstiodInfo } from '../types.js';

interface StartIstiodInput {
  dir: string;
  group: ProcessGroup;
  kc: KubeConfig;
  /** A kubeconfig file with cluster-admin rights for istiod. */
  kubeconfigPath: string;
  binary: string;
  env: NodeJS.ProcessEnv;
  /** The mesh CRDs, already applied. */
  crdsPath: string;
}

/**
 * Creates istio-system (Istio's CRDs are applied already), starts pilot-discovery with every listener on a
 * free 127.0.0.1 port, waits until it answers a real xDS request, and registers its
 * validating webhook with the apiserver (checked by a refused dry run).
 */
export async function startIstiod(input: StartIstiodInput): Promise<IstiodInfo> {
  const { group, kc } = input;
  const began = Date.now();
  const dir = join(input.dir, 'istiod');
  await mkdir(dir);
  const crdsPath = input.crdsPath;
  const [tls] = await Promise.all([issueServingCert(dir), createNamespace(kc)]);
  const meshConfigPath = join(dir, 'mesh.yaml');
  const networksConfigPath = join(dir, 'mesh-networks.yaml');
  await writeFile(
    meshConfigPath,
    `defaultConfig: {}\nrootNamespace: ${ISTIO_NAMESPACE}\ntrustDomain: ${DOMAIN}\n`,
  );
  await writeFile(networksConfigPath, 'networks: {}\n');

  const [grpcPort, httpPort, monitoringPort, httpsPort] = (await freePorts(4)) as [
    number,
    number,
    number,
    number,
  ];
  const xdsAddress = `127.0.0.1:${grpcPort}`;
  const httpAddress = `127.0.0.1:${httpPort}`;
  const webhookAddress = `127.0.0.1:${httpsPort}`;
  group.start(
    'istiod',
    input.binary,
    [
      'discovery',
      `--kubeconfig=${input.kubeconfigPath}`,
      `--grpcAddr=${xdsAddress}`,
      `--httpAddr=${httpAddress}`,
      `--monitoringAddr=127.0.0.1:${monitoringPort}`,
      `--httpsAddr=${webhookAddress}`,
      // The mTLS xDS port (default :15012) is off: proxyless clients here use the plaintext one.
      '--secureGRPCAddr=',
      `--meshConfig=${meshConfigPath}`,
      `--networksConfig=${networksConfigPath}`,
      `--domain=${DOMAIN}`,
      `--clusterID=${CLUSTER_ID}`,
      `--tlsCertFile=${tls.certFile}`,
      `--tlsKeyFile=${tls.keyFile}`,
      `--caCertFile=${tls.caFile}`,
      '--shutdownDuration=1s',
      '--profile=false',
    ],
    {
      ...input.env,
      POD_NAMESPACE: ISTIO_NAMESPACE,
      POD_NAME: 'istiod-chaoskit',
      REVISION: 'default',
      // istiod would otherwise look for (and patch) webhook configurations of its own chart.
      INJECTION_WEBHOOK_CONFIG_NAME: '',
      VALIDATION_WEBHOOK_CONFIG_NAME: '',
    },
  );

  const alive = () => group.assertRunning();
  await until('istiod /ready', () => httpOk(`http://${httpAddress}/ready`), { timeoutMs: 90_000, alive });
  await until('an xDS answer from istiod', () => servesXds(xdsAddress), { timeoutMs: 60_000, alive });
  const caPem = await readFile(tls.caFile);
  await registerWebhook(kc, { url: `https://${webhookAddress}/validate` }, caPem);
  await until('istiod validating webhook to refuse an invalid VirtualService', () => webhookRefuses(kc), {
    timeoutMs: 30_000,
    alive,
  });

  return {
    version: ISTIO_VERSION,
    apiVersion: ISTIO_API_VERSION,
    namespace: ISTIO_NAMESPACE,
    xdsAddress,
    httpAddress,
    webhookUrl: `https://${webhookAddress}/validate`,
    webhookCaFile: tls.caFile,
    webhookConfigurationName: VALIDATING_WEBHOOK_NAME,
    meshConfigPath,
    crdsPath,
    logFile: group.logFiles.istiod!,
    readyMs: Date.now() - began,
    xdsBootstrap: (options) => xdsBootstrap(xdsAddress, options),
  };
}
async function createNamespace(kc: KubeConfig): Promise<void> {
  try {
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: ISTIO_NAMESPACE } } });
  } catch (err) {
    if ((err as { code?: number }).code !== 409) throw err;
  }
}
