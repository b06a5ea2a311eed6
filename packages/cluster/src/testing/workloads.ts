import { AppsV1Api, type KubeConfig, type V1PodSpec } from '@kubernetes/client-node';
import { until } from './until.js';

export interface DeployOptions {
  /** The labels of the Deployment, its selector and its pods; default `app: <name>`. */
  labels?: Record<string, string>;
  /** Added to (or replacing fields of) the pod spec. */
  podSpec?: Partial<V1PodSpec>;
  /** How long its replicas may take to be available; default 30 s. */
  timeoutMs?: number;
}

/**
 * Creates a Deployment `name` of `replicas` pods (one container `app`, an image never pulled:
 * kwok runs it; no grace period) and returns once all of them are available.
 */
export async function deploy(
  kc: KubeConfig,
  namespace: string,
  name: string,
  replicas: number,
  { labels = { app: name }, podSpec = {}, timeoutMs = 30_000 }: DeployOptions = {},
): Promise<void> {
  const apps = kc.makeApiClient(AppsV1Api);
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name, labels },
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            terminationGracePeriodSeconds: 0,
            containers: [{ name: 'app', image: 'example.invalid/app:1' }],
            ...podSpec,
          },
        },
      },
    },
  });
  await until(
    `${replicas} available replicas of deployment ${name}`,
    async () =>
      ((await apps.readNamespacedDeployment({ name, namespace })).status?.availableReplicas ?? 0) ===
      replicas,
    timeoutMs,
  );
}
