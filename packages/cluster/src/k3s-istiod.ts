// istiod in a k3s cluster, from Istio's pilot image, with what the local provider's istiod
// promises: a minimal mesh config, its validating webhook registered with a CA of our own,
// and ready only once it answers a real xDS request from this machine and its webhook refuses
// what only istiod refuses.

import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { AppsV1Api, CoreV1Api, type KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { until } from './host/until.js';
import { ISTIO_API_VERSION } from './istio/crds.js';
import {
  ISTIO_NAMESPACE,
  issueServingCert,
  registerWebhook,
  servesXds,
  webhookRefuses,
  xdsBootstrap,
} from './istio/istiod.js';
import type { IstiodEndpoint } from './types.js';

/**
 * The node port of istiod's plaintext xDS: the k3s container publishes it on the host, where
 * proxyless gRPC clients (meshTraffic) run.
 */
export const ISTIOD_XDS_NODE_PORT = 31010;

/** Istio's pilot image of the release whose CRDs are applied (istio.io/api ISTIO_API_VERSION). */
export const DEFAULT_ISTIOD_IMAGE = `docker.io/istio/pilot:${ISTIO_API_VERSION.slice(1)}`;

const TLS_DIR = '/var/run/chaoskit/tls';
const CONFIG_DIR = '/etc/istio/config';
const DOMAIN = 'cluster.local';

export interface IstiodTls {
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** A manifest: a Kubernetes object with whatever fields its kind has. */
export type Manifest = KubernetesObject & Record<string, unknown>;

/** Every object the k3s provider applies for istiod, in order. */
export function istiodManifests(image: string, tls: IstiodTls): Manifest[] {
  const namespace = ISTIO_NAMESPACE;
  const labels = { app: 'istiod', istio: 'pilot' };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'istiod', namespace } },
    {
      // A disposable cluster: istiod reads every kind of object and writes some of its own;
      // Istio's chart spells that out as a long ClusterRole, cluster-admin says it here.
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'chaoskit-istiod' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'istiod', namespace }],
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'chaoskit-istiod-tls', namespace },
      type: 'Opaque',
      stringData: { 'ca.crt': tls.caPem, 'tls.crt': tls.certPem, 'tls.key': tls.keyPem },
    },
    {
      // The same minimal mesh config as the local provider's.
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'istio', namespace },
      data: {
        mesh: `defaultConfig: {}\nrootNamespace: ${namespace}\ntrustDomain: ${DOMAIN}\n`,
        meshNetworks: 'networks: {}\n',
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'istiod', namespace, labels },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels: { ...labels, 'sidecar.istio.io/inject': 'false' } },
          spec: {
            serviceAccountName: 'istiod',
            containers: [
              {
                name: 'discovery',
                image,
                args: [
                  'discovery',
                  '--monitoringAddr=:15014',
                  `--domain=${DOMAIN}`,
                  `--meshConfig=${CONFIG_DIR}/mesh`,
                  `--networksConfig=${CONFIG_DIR}/meshNetworks`,
                  // The webhook serves our CA's certificate (its SANs name the Service), as on
                  // the local provider; the mTLS xDS port is off, clients use the plaintext one.
                  `--tlsCertFile=${TLS_DIR}/tls.crt`,
                  `--tlsKeyFile=${TLS_DIR}/tls.key`,
                  `--caCertFile=${TLS_DIR}/ca.crt`,
                  '--secureGRPCAddr=',
                ],
                ports: [
                  { name: 'http-debug', containerPort: 8080 },
                  { name: 'grpc-xds', containerPort: 15010 },
                  { name: 'https-webhooks', containerPort: 15017 },
                  { name: 'http-monitoring', containerPort: 15014 },
                ],
                readinessProbe: {
                  httpGet: { path: '/ready', port: 8080 },
                  initialDelaySeconds: 1,
                  periodSeconds: 3,
                },
                env: [
                  { name: 'REVISION', value: 'default' },
                  { name: 'CLUSTER_ID', value: 'Kubernetes' },
                  { name: 'PILOT_CERT_PROVIDER', value: 'istiod' },
                  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                  { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                  // No injection webhook, and no chart-made validation webhook to patch.
                  { name: 'INJECTION_WEBHOOK_CONFIG_NAME', value: '' },
                  { name: 'VALIDATION_WEBHOOK_CONFIG_NAME', value: '' },
                ],
                volumeMounts: [
                  { name: 'tls', mountPath: TLS_DIR, readOnly: true },
                  { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
                ],
              },
            ],
            volumes: [
              { name: 'tls', secret: { secretName: 'chaoskit-istiod-tls' } },
              { name: 'config', configMap: { name: 'istio' } },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'istiod', namespace, labels },
      spec: {
        selector: labels,
        ports: [
          { name: 'grpc-xds', port: 15010, targetPort: 15010 },
          { name: 'https-webhook', port: 443, targetPort: 15017 },
          { name: 'http-monitoring', port: 15014, targetPort: 15014 },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'istiod-xds', namespace, labels },
      spec: {
        type: 'NodePort',
        selector: labels,
        ports: [{ name: 'grpc-xds', port: 15010, targetPort: 15010, nodePort: ISTIOD_XDS_NODE_PORT }],
      },
    },
  ];
}

export interface InstallIstiodInput {
  kc: KubeConfig;
  image: string;
  /** Where istiod's node port is published on this machine, host:port. */
  xdsAddress: string;
  /** A scratch directory for the certificates. */
  dir: string;
  progress: (line: string) => void;
}

/** Applies istiodManifests and waits until istiod serves xDS and its webhook refuses. */
export async function installIstiod(input: InstallIstiodInput): Promise<IstiodEndpoint> {
  const { kc, image, xdsAddress } = input;
  const began = Date.now();
  const dir = join(input.dir, 'istiod');
  await mkdir(dir, { recursive: true });
  const files = await issueServingCert(dir);
  const [caPem, certPem, keyPem] = await Promise.all([
    readFile(files.caFile, 'utf8'),
    readFile(files.certFile, 'utf8'),
    readFile(files.keyFile, 'utf8'),
  ]);
  const objects = KubernetesObjectApi.makeApiClient(kc);
  for (const object of istiodManifests(image, { caPem, certPem, keyPem })) await objects.create(object);

  input.progress(`chaoskit: starting istiod (${image}) in k3s`);
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  try {
    // The first start pulls the image.
    await until(
      'the istiod Deployment to be available',
      async () =>
        ((await apps.readNamespacedDeployment({ name: 'istiod', namespace: ISTIO_NAMESPACE })).status
          ?.availableReplicas ?? 0) > 0,
      300_000,
    );
  } catch (err) {
    const pods = await core
      .listNamespacedPod({ namespace: ISTIO_NAMESPACE, labelSelector: 'app=istiod' })
      .catch(() => undefined);
    const waiting = (pods?.items ?? [])
      .flatMap((p) => p.status?.containerStatuses ?? [])
      .map((c) => c.state?.waiting)
      .filter((w) => w?.reason)
      .map((w) => `${w!.reason}: ${w!.message ?? ''}`.trim());
    throw new Error(`${(err as Error).message}${waiting.length ? ` (${waiting.join('; ')})` : ''}`, {
      cause: err,
    });
  }
  await until('an xDS answer from istiod on its node port', () => servesXds(xdsAddress), 60_000);
  await registerWebhook(
    kc,
    { service: { namespace: ISTIO_NAMESPACE, name: 'istiod', path: '/validate', port: 443 } },
    Buffer.from(caPem),
  );
  await until(
    'istiod validating webhook to refuse an invalid VirtualService',
    () => webhookRefuses(kc),
    60_000,
  );
  return {
    version: image,
    apiVersion: ISTIO_API_VERSION,
    namespace: ISTIO_NAMESPACE,
    xdsAddress,
    readyMs: Date.now() - began,
    xdsBootstrap: (options) => xdsBootstrap(xdsAddress, options),
  };
}
