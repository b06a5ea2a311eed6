import { execText } from '@chaoskit/cluster';
import type { V1Container, V1Pod, V1Toleration } from '@kubernetes/client-node';
import { type CaseContext, ScenarioSkipped } from '../case-context.js';
import { ANSWERED, Traffic } from './traffic.js';

// The fixture of the scenarios on running containers: a web Deployment of busybox httpd pods
// behind a Service, and a client pod that sends requests through the Service's ClusterIP all
// along, recording who answered each. Everything lives in the scenario's namespace.

/** Where pods really run: what a scenario on running containers needs of the cluster. */
export interface RunningPods {
  /** Nodes whose pods really run (the drain scenario needs two). */
  nodes: string[];
  /** An image with a busybox at /bin: sh, httpd, nc, sleep. */
  image: string;
  /** What puts a pod on those nodes and nowhere else (local: the real nodes' label and taint). */
  nodeSelector?: Record<string, string>;
  tolerations?: V1Toleration[];
}

// Each pod names itself in /www/index.html; /www/ready exists while it wants to be Ready (the
// readiness probe GETs it); a tick a second goes to its log. It also answers on port 53 (TCP),
// where a DNS server would: what allow_dns_access lets through.
const SERVER = [
  'mkdir -p /www && echo "$HOSTNAME" > /www/index.html && touch /www/ready',
  '(i=0; while [ $i -lt 3600 ]; do i=$((i+1)); echo "tick $i"; sleep 1; done) &',
  'httpd -p 53 -h /www',
  'exec httpd -f -p 8080 -h /www',
].join('\n');

/**
 * A shell command sending one HTTP GET with nc (2 s at most) that prints the body's last line
 * when the answer is a 200 and nothing otherwise. nc, not wget: a static glibc busybox's wget
 * crashes resolving even a numeric address without the NSS libraries of a full system.
 */
export function httpGet(host: string, port: number | string): string {
  return `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | nc -w 2 ${host} ${port} 2>/dev/null | { read -r status; case "$status" in 'HTTP/1.'?' 200 '*) tail -n 1 ;; esac; }`;
}

// Ten requests a second at most, for 15 minutes at most: a forgotten client stops by itself.
const CLIENT = [
  'end=$(( $(date +%s) + 900 ))',
  'while [ "$(date +%s)" -lt "$end" ]; do',
  `  body=$(${httpGet('"$TARGET"', 80)})`,
  '  echo "${body:--}" >> /tmp/served',
  '  sleep 0.1',
  'done',
].join('\n');

/** Where pods really run; skips the scenario, with the reason, where they do not. */
export function runningPods(t: CaseContext): RunningPods {
  if (t.cluster.running) return t.cluster.running;
  throw new ScenarioSkipped(
    `needs pods that really run: ${t.cluster.noRunning ?? 'no node runs containers here'}`,
  );
}

export function placement(run: RunningPods, nodes?: string[]): Partial<V1Pod['spec']> {
  return {
    ...(run.nodeSelector ? { nodeSelector: run.nodeSelector } : {}),
    ...(run.tolerations ? { tolerations: run.tolerations } : {}),
    ...(nodes
      ? {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: nodes }] },
                ],
              },
            },
          },
        }
      : {}),
  };
}

function container(
  run: RunningPods,
  name: string,
  script: string,
  extra: Partial<V1Container> = {},
): V1Container {
  return { name, image: run.image, imagePullPolicy: 'IfNotPresent', command: ['sh', '-c', script], ...extra };
}

export interface WebApp {
  /** The Service's ClusterIP. */
  clusterIp: string;
  traffic: Traffic;
}

/**
 * `web`: `replicas` httpd pods (app=web, readiness probe on /ready) behind the Service `web`,
 * and the client pod `client`; resolves once every replica is Ready and the client has been
 * answered. `nodes` keeps the web pods on those nodes, `clientNode` the client on that one.
 */
export async function webApp(
  t: CaseContext,
  replicas: number,
  options: { nodes?: string[]; clientNode?: string } = {},
): Promise<WebApp> {
  const run = runningPods(t);
  await t.apps.createNamespacedDeployment({
    namespace: t.ns,
    body: {
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web', name: 'web' } },
          spec: {
            ...placement(run, options.nodes),
            terminationGracePeriodSeconds: 2,
            enableServiceLinks: false,
            containers: [
              container(run, 'web', SERVER, {
                ports: [{ containerPort: 8080 }],
                readinessProbe: {
                  httpGet: { path: '/ready', port: 8080 },
                  periodSeconds: 1,
                  failureThreshold: 1,
                },
              }),
            ],
          },
        },
      },
    },
  });
  const service = await t.core.createNamespacedService({
    namespace: t.ns,
    body: {
      metadata: { name: 'web' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
    },
  });
  const clusterIp = service.spec!.clusterIP!;
  await t.core.createNamespacedPod({
    namespace: t.ns,
    body: {
      metadata: { name: 'client', labels: { role: 'client' } },
      spec: {
        ...placement(run),
        ...(options.clientNode ? { nodeName: options.clientNode } : {}),
        terminationGracePeriodSeconds: 0,
        enableServiceLinks: false,
        containers: [container(run, 'client', CLIENT, { env: [{ name: 'TARGET', value: clusterIp }] })],
      },
    },
  });
  await t.until(
    `deployment web: ${replicas} replica(s) Ready`,
    async () => {
      const d = await t.apps.readNamespacedDeployment({ name: 'web', namespace: t.ns });
      return (d.status?.readyReplicas ?? 0) === replicas && (d.status?.updatedReplicas ?? 0) === replicas;
    },
    120_000,
  );
  const traffic = new Traffic(t.kc, t.ns, 'client');
  await traffic.untilLast(3, ANSWERED, 'the client answered through the Service');
  return { clusterIp, traffic };
}

/** A Service `name` on the web pods' `port`. */
export async function service(t: CaseContext, name: string, port: number): Promise<string> {
  const created = await t.core.createNamespacedService({
    namespace: t.ns,
    body: { metadata: { name }, spec: { selector: { app: 'web' }, ports: [{ port, targetPort: port }] } },
  });
  return created.spec!.clusterIP!;
}

/** A pod that only waits, labelled `labels`, to send requests from with exec (`fetch`). */
export async function idlePod(t: CaseContext, name: string, labels: Record<string, string>): Promise<void> {
  const run = runningPods(t);
  await t.core.createNamespacedPod({
    namespace: t.ns,
    body: {
      metadata: { name, labels },
      spec: {
        ...placement(run),
        terminationGracePeriodSeconds: 0,
        containers: [container(run, 'main', 'exec sleep 900')],
      },
    },
  });
  await t.until(
    `${name} Running`,
    async () => (await t.core.readNamespacedPod({ name, namespace: t.ns })).status?.phase === 'Running',
    60_000,
  );
}

/** One request from a pod's container (2 s at most): the body's last line, or undefined when it failed. */
export async function fetch(
  t: CaseContext,
  pod: string,
  container: string,
  host: string,
  port: number,
): Promise<string | undefined> {
  const { stdout } = await execText(t.kc, { namespace: t.ns, pod, container }, [
    'sh',
    '-c',
    httpGet(host, port),
  ]);
  return stdout.trim() || undefined;
}

/** The web pods, Terminating ones left out: name, node, Ready, the container's ID. */
export async function webPods(t: CaseContext) {
  const pods = await t.core.listNamespacedPod({ namespace: t.ns, labelSelector: 'app=web' });
  return pods.items
    .filter((p) => !p.metadata?.deletionTimestamp)
    .map((p) => ({
      name: p.metadata!.name!,
      node: p.spec?.nodeName ?? '',
      ready: p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
      containerId: p.status?.containerStatuses?.[0]?.containerID ?? '',
      restarts: p.status?.containerStatuses?.[0]?.restartCount ?? 0,
      phase: p.status?.phase ?? '',
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
