// What any istiod this package runs shares, whichever provider runs it: its namespace, its
// serving certificate, a proxyless client's bootstrap, its validating webhook and the checks
// that it serves.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AdmissionregistrationV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { issueCa, issueCert } from '../host/certificates.js';
import type { XdsBootstrap, XdsBootstrapOptions } from '../types.js';
import { adsRequest, LISTENER_TYPE } from './xds.js';

export const ISTIO_NAMESPACE = 'istio-system';
export const VALIDATING_WEBHOOK_NAME = 'chaoskit-istiod-validator';
export const CLUSTER_ID = 'Kubernetes';
export const DOMAIN = 'cluster.local';

/**
 * istiod's serving certificate for its webhook port, from a throwaway CA: istiod's own
 * self-signed DNS certificate names only `istiod.<ns>.svc`-style hosts, which do not resolve
 * here, while the apiserver reaches the webhook at https://127.0.0.1:<port>. So the
 * certificate carries IP:127.0.0.1 (and, for an istiod in a cluster, reached through its
 * Service, istiod.istio-system.svc), and istiod loads it through --tlsCertFile/--tlsKeyFile/
 * --caCertFile. The CA becomes the webhook's caBundle.
 */
export async function issueServingCert(
  dir: string,
): Promise<{ caFile: string; certFile: string; keyFile: string }> {
  await issueCa(dir, 'ca', '/CN=chaoskit-istiod-ca');
  await writeFile(
    join(dir, 'san.ext'),
    [
      'subjectAltName=IP:127.0.0.1,DNS:istiod.istio-system.svc',
      'extendedKeyUsage=serverAuth',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      '',
    ].join('\n'),
  );
  await issueCert(dir, 'tls', '/CN=istiod.istio-system.svc', 'ca', 'san.ext');
  return { caFile: join(dir, 'ca.crt'), certFile: join(dir, 'tls.crt'), keyFile: join(dir, 'tls.key') };
}

/** A proxyless gRPC client's xDS bootstrap for this istiod (what GRPC_XDS_BOOTSTRAP_CONFIG holds). */
export function xdsBootstrap(xdsAddress: string, options: XdsBootstrapOptions): XdsBootstrap {
  const namespace = options.namespace;
  const name = options.name ?? 'chaoskit-client';
  // Istio parses the node id as type~ip~id~domain; the IP is only an identity here (no traffic
  // goes to it) and must not be an address that backends use, or istiod takes the client for
  // one of them.
  const ip = options.ip ?? '127.0.0.2';
  return {
    xds_servers: [
      { server_uri: xdsAddress, channel_creds: [{ type: 'insecure' }], server_features: ['xds_v3'] },
    ],
    node: {
      id: `sidecar~${ip}~${name}.${namespace}~${namespace}.svc.${DOMAIN}`,
      metadata: { NAMESPACE: namespace, GENERATOR: 'grpc', CLUSTER_ID, ...options.metadata },
      // grpc-js-xds refuses a bootstrap without a locality; grpc-go accepts either.
      locality: {},
    },
  };
}
/**
 * Ready means serving: one real ADS request, a listener for the apiserver's own Service (every
 * cluster has it), must come back with that resource.
 */
export async function servesXds(xdsAddress: string): Promise<boolean> {
  const node = xdsBootstrap(xdsAddress, { namespace: ISTIO_NAMESPACE, name: 'chaoskit-readiness' }).node;
  const answer = await adsRequest(xdsAddress, node, LISTENER_TYPE, [`kubernetes.default.svc.${DOMAIN}:443`]);
  return answer.resources > 0;
}

/** Where the apiserver reaches istiod's webhook: a URL (local), or istiod's Service (in a cluster). */
export type WebhookTarget =
  | { url: string }
  | { service: { namespace: string; name: string; path: string; port: number } };

/** The ValidatingWebhookConfiguration that sends every Istio API write to istiod's /validate. */
export function validatingWebhook(target: WebhookTarget, caPem: Buffer) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: VALIDATING_WEBHOOK_NAME },
    webhooks: [
      {
        name: 'validation.istio.io',
        clientConfig: { ...target, caBundle: caPem.toString('base64') },
        rules: [
          {
            operations: ['CREATE', 'UPDATE'],
            apiGroups: [
              'security.istio.io',
              'networking.istio.io',
              'telemetry.istio.io',
              'extensions.istio.io',
            ],
            apiVersions: ['*'],
            resources: ['*'],
          },
        ],
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1', 'v1beta1'],
        timeoutSeconds: 10,
      },
    ],
  };
}

export async function registerWebhook(kc: KubeConfig, target: WebhookTarget, caPem: Buffer): Promise<void> {
  await kc
    .makeApiClient(AdmissionregistrationV1Api)
    .createValidatingWebhookConfiguration({ body: validatingWebhook(target, caPem) });
}

/**
 * A dry-run create of a VirtualService that Istio's CRD schema accepts but istiod refuses
 * (an HTTP abort status out of range): true once the apiserver answers with istiod's refusal.
 */
export async function webhookRefuses(kc: KubeConfig): Promise<boolean> {
  try {
    await kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
      group: 'networking.istio.io',
      version: 'v1',
      namespace: ISTIO_NAMESPACE,
      plural: 'virtualservices',
      dryRun: 'All',
      body: {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'chaoskit-webhook-check' },
        spec: {
          hosts: ['webhook-check.invalid'],
          http: [
            {
              fault: { abort: { httpStatus: 700, percentage: { value: 100 } } },
              route: [{ destination: { host: 'webhook-check.invalid' } }],
            },
          ],
        },
      },
    });
    return false;
  } catch (err) {
    const body = String((err as { body?: unknown }).body ?? '');
    return body.includes('validation.istio.io') && body.includes('not in range');
  }
}
