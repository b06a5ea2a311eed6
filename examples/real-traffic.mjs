// Real requests to web on the demo's real nodes: a Service in front of the web pods (chaoskit's
// web app: HTTP on 8080, gRPC on 9090) and a client pod (`webapp load`) that sends an HTTP
// request and a gRPC call through the Service's ClusterIP every 100 ms, logging a line of counts
// each second. The demo reads those lines around each experiment.
import { CoreV1Api } from '@kubernetes/client-node';

const REAL = 'chaoskit.io/real-node';
export const realPlacement = {
  nodeSelector: { [REAL]: 'true' },
  tolerations: [{ key: REAL, operator: 'Exists', effect: 'NoSchedule' }],
};

/** The sample app's pod spec on real nodes: the web app image, its ports and readiness. */
export function onRealNodes(deployment, images) {
  const spec = deployment.spec.template.spec;
  return {
    ...deployment,
    spec: {
      ...deployment.spec,
      template: {
        ...deployment.spec.template,
        spec: {
          ...spec,
          ...realPlacement,
          enableServiceLinks: false,
          containers: [
            {
              name: 'web',
              image: images.webapp,
              imagePullPolicy: 'IfNotPresent',
              args: ['serve'],
              ports: [{ containerPort: 8080 }, { containerPort: 9090 }],
              readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 1 },
            },
          ],
        },
      },
    },
  };
}

/** Starts the Service and the client; `window(from, to)` sums what the client saw in between. */
export async function realTraffic(kc, namespace, images, clientNode) {
  const core = kc.makeApiClient(CoreV1Api);
  const service = await core.createNamespacedService({
    namespace,
    body: {
      // Not `web`: the mesh experiment's host web.<namespace>.svc.cluster.local is a
      // ServiceEntry of its own, which a Service of that name would take over in istiod.
      metadata: { name: 'web-http' },
      spec: {
        selector: { app: 'web' },
        ports: [
          { name: 'http', port: 80, targetPort: 8080 },
          { name: 'grpc', port: 9090, targetPort: 9090 },
        ],
      },
    },
  });
  const ip = service.spec.clusterIP;
  await core.createNamespacedPod({
    namespace,
    body: {
      metadata: { name: 'web-client' },
      spec: {
        ...realPlacement,
        // Away from the node the demo drains: a pod without a controller would stop the drain.
        nodeName: clientNode,
        enableServiceLinks: false,
        terminationGracePeriodSeconds: 0,
        containers: [
          {
            name: 'client',
            image: images.webapp,
            imagePullPolicy: 'IfNotPresent',
            args: ['load', '-url', `http://${ip}/`, '-grpc', `${ip}:9090`, '-every', '100ms', '-for', '15m'],
          },
        ],
      },
    },
  });
  const lines = async () => {
    const text = await core.readNamespacedPodLog({ name: 'web-client', namespace }).catch(() => '');
    return String(text)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
  };
  for (let i = 0; i < 600 && !(await lines()).some((l) => l.ok > 0); i++)
    await new Promise((r) => setTimeout(r, 200));
  return {
    ip,
    async window(from, to) {
      const sum = { requests: 0, failed: 0, grpcOk: 0, grpcFailed: 0, servedBy: {} };
      for (const l of await lines()) {
        const at = Date.parse(l.at);
        if (at <= from || at > to) continue;
        sum.requests += l.ok + l.failed;
        sum.failed += l.failed;
        sum.grpcOk += l.grpcOk ?? 0;
        sum.grpcFailed += l.grpcFailed ?? 0;
        for (const [pod, n] of Object.entries(l.servedBy ?? {}))
          sum.servedBy[pod] = (sum.servedBy[pod] ?? 0) + n;
      }
      return sum;
    },
  };
}

export function describeWindow(w) {
  const by = Object.entries(w.servedBy)
    .map(([pod, n]) => `${pod} ${n}`)
    .join(', ');
  return `HTTP ${w.requests} (${w.failed} failed), gRPC ${w.grpcOk + w.grpcFailed} (${w.grpcFailed} failed)${by ? `; served by ${by}` : ''}`;
}
