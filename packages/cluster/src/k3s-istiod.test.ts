import type { V1ConfigMap, V1Deployment, V1Secret, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ISTIO_API_VERSION } from './istio/crds.js';
import { validatingWebhook } from './istio/istiod.js';
import { DEFAULT_ISTIOD_IMAGE, ISTIOD_XDS_NODE_PORT, istiodManifests } from './k3s-istiod.js';

// What the k3s provider would apply for istiod. It cannot run on a machine without a container
// engine, so these tests check the manifests themselves: that they hang together (selectors,
// ports, files) and say what the local provider's istiod says. k3s-istiod.cluster.test.ts has
// a real apiserver check them.

const tls = { caPem: 'CA PEM', certPem: 'CERT PEM', keyPem: 'KEY PEM' };
const objects = istiodManifests('registry.example/pilot:1', tls);

function find<T>(kind: string, name?: string): T {
  const found = objects.find((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (!found) throw new Error(`no ${kind} ${name ?? ''}`);
  return found as unknown as T;
}

const deployment = find<V1Deployment>('Deployment');
const pod = deployment.spec!.template.spec!;
const container = pod.containers[0]!;
const flag = (name: string) =>
  container.args!.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

describe('istiod on k3s: the manifests', () => {
  it('creates the namespace first, then what the Deployment uses, then the Services', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'Namespace/istio-system',
      'ServiceAccount/istiod',
      'ClusterRoleBinding/chaoskit-istiod',
      'Secret/chaoskit-istiod-tls',
      'ConfigMap/istio',
      'Deployment/istiod',
      'Service/istiod',
      'Service/istiod-xds',
    ]);
    for (const o of objects.filter((o) => !['Namespace', 'ClusterRoleBinding'].includes(o.kind!)))
      expect(o.metadata?.namespace, `${o.kind}/${o.metadata?.name}`).toBe('istio-system');
  });

  it("runs Istio's pilot image of the release whose CRDs are applied, by default", () => {
    expect(ISTIO_API_VERSION).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(DEFAULT_ISTIOD_IMAGE).toBe(`docker.io/istio/pilot:${ISTIO_API_VERSION.slice(1)}`);
    expect(container.image).toBe('registry.example/pilot:1');
    expect(container.args![0]).toBe('discovery');
  });

  it('gives istiod the certificate, CA and mesh config through files it mounts', () => {
    const mounts = Object.fromEntries(container.volumeMounts!.map((m) => [m.name, m.mountPath]));
    const volumes = Object.fromEntries(pod.volumes!.map((v) => [v.name, v]));
    const secret = find<V1Secret>('Secret');
    const config = find<V1ConfigMap>('ConfigMap');
    expect(volumes.tls?.secret?.secretName).toBe(secret.metadata?.name);
    expect(volumes.config?.configMap?.name).toBe(config.metadata?.name);
    for (const [name, key] of [
      ['tlsCertFile', 'tls.crt'],
      ['tlsKeyFile', 'tls.key'],
      ['caCertFile', 'ca.crt'],
    ] as const) {
      expect(flag(name)).toBe(`${mounts.tls}/${key}`);
    }
    expect(secret.stringData).toEqual({ 'ca.crt': 'CA PEM', 'tls.crt': 'CERT PEM', 'tls.key': 'KEY PEM' });
    expect(flag('meshConfig')).toBe(`${mounts.config}/mesh`);
    expect(flag('networksConfig')).toBe(`${mounts.config}/meshNetworks`);
    // The local provider's minimal mesh config, word for word.
    expect(config.data?.mesh).toBe(
      'defaultConfig: {}\nrootNamespace: istio-system\ntrustDomain: cluster.local\n',
    );
    // The plaintext xDS port only, as on the local provider.
    expect(flag('secureGRPCAddr')).toBe('');
  });

  it('leaves the webhook configuration to chaoskit and makes no injection webhook', () => {
    const env = Object.fromEntries(container.env!.map((e) => [e.name, e.value]));
    expect(env.VALIDATION_WEBHOOK_CONFIG_NAME).toBe('');
    expect(env.INJECTION_WEBHOOK_CONFIG_NAME).toBe('');
    expect(env.CLUSTER_ID).toBe('Kubernetes');
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/ready', port: 8080 });
  });

  it("has Services that select istiod's pods and reach ports it listens on; xDS on the published node port", () => {
    const podLabels = deployment.spec!.template.metadata!.labels!;
    for (const [k, v] of Object.entries(deployment.spec!.selector.matchLabels!)) expect(podLabels[k]).toBe(v);
    const containerPorts = new Map(container.ports!.map((p) => [p.containerPort, p.name]));
    for (const name of ['istiod', 'istiod-xds']) {
      const service = find<V1Service>('Service', name);
      for (const [k, v] of Object.entries(service.spec!.selector!)) expect(podLabels[k]).toBe(v);
      for (const port of service.spec!.ports!)
        expect(containerPorts.has(port.targetPort as number), port.name).toBe(true);
    }
    expect(find<V1Service>('Service', 'istiod-xds').spec).toMatchObject({
      type: 'NodePort',
      ports: [{ targetPort: 15010, nodePort: ISTIOD_XDS_NODE_PORT }],
    });
    expect(containerPorts.get(15010)).toBe('grpc-xds');
  });

  it("registers the webhook on istiod's Service, port 443 to its https-webhooks port, trusting the CA", () => {
    const target = { service: { namespace: 'istio-system', name: 'istiod', path: '/validate', port: 443 } };
    const webhook = validatingWebhook(target, Buffer.from(tls.caPem)).webhooks[0]!;
    expect(webhook.clientConfig).toEqual({ ...target, caBundle: Buffer.from('CA PEM').toString('base64') });
    const port = find<V1Service>('Service', 'istiod').spec!.ports!.find((p) => p.port === 443);
    expect(port?.targetPort).toBe(container.ports!.find((p) => p.name === 'https-webhooks')?.containerPort);
    expect(webhook.failurePolicy).toBe('Fail');
  });
});
