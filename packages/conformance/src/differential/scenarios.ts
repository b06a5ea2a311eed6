import { pollUntil } from '@chaoskit/core';
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  NetworkingV1Api,
} from '@kubernetes/client-node';

/** What the two runs are compared on, besides the journals: the objects left in the namespace. */
export interface Snapshot {
  pods: string[];
  deployments: Record<string, number | undefined>;
  networkpolicies: Record<string, unknown>;
  virtualservices: Record<string, unknown>;
}

export interface DiffScenario {
  name: string;
  /** The objects both runs start from, created in each run's own namespace. */
  setup: (kc: KubeConfig, ns: string) => Promise<void>;
  /** A Chaos Toolkit experiment, with the original's module names, acting on `ns`. */
  experiment: (ns: string) => Record<string, unknown>;
}

const python = (
  type: 'action' | 'probe',
  name: string,
  module: string,
  func: string,
  args: Record<string, unknown>,
) => ({
  type,
  name,
  provider: { type: 'python', module, func, arguments: args },
});

const until = (check: () => Promise<boolean>, what: string): Promise<unknown> =>
  pollUntil(check, { what, timeoutMs: 30_000 });

async function barePods(
  kc: KubeConfig,
  ns: string,
  names: string[],
  labels: Record<string, string>,
): Promise<void> {
  const core = kc.makeApiClient(CoreV1Api);
  for (const name of names) {
    await core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name, labels },
        spec: { containers: [{ name: 'main', image: 'example.invalid/main:1' }] },
      },
    });
  }
  await until(async () => {
    const pods = await core.listNamespacedPod({ namespace: ns });
    return pods.items.filter((p) => p.status?.phase === 'Running').length === names.length;
  }, 'running pods');
}

const VIRTUAL_SERVICE = {
  apiVersion: 'networking.istio.io/v1alpha3',
  kind: 'VirtualService',
  metadata: { name: 'web' },
  spec: {
    hosts: ['web'],
    http: [
      { name: 'v1', route: [{ destination: { host: 'web', subset: 'v1' } }] },
      {
        name: 'v2',
        route: [{ destination: { host: 'web', subset: 'v2' } }],
        fault: {
          abort: { httpStatus: 500, percentage: { value: 10 } },
          delay: { fixedDelay: '2s', percentage: { value: 10 } },
        },
      },
    ],
  },
};

async function createVirtualService(kc: KubeConfig, ns: string): Promise<void> {
  await kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
    group: 'networking.istio.io',
    version: 'v1alpha3',
    namespace: ns,
    plural: 'virtualservices',
    body: VIRTUAL_SERVICE,
  });
}

export const scenarios: DiffScenario[] = [
  {
    name: 'pods: terminate, count, phases',
    setup: (kc, ns) => barePods(kc, ns, ['web-a', 'web-b', 'web-c', 'web-d'], { app: 'web' }),
    experiment: (ns) => {
      const web = { label_selector: 'app=web', ns };
      return {
        title: 'pods',
        description: 'terminate two pods, then read them',
        method: [
          python('probe', 'count-before', 'chaosk8s.pod.probes', 'count_pods', web),
          python('probe', 'all-running', 'chaosk8s.pod.probes', 'pods_in_phase', web),
          python('probe', 'none-pending', 'chaosk8s.pod.probes', 'pods_not_in_phase', {
            ...web,
            phase: 'Pending',
          }),
          python('action', 'terminate-two', 'chaosk8s.pod.actions', 'terminate_pods', {
            ...web,
            qty: 2,
            grace_period: 0,
          }),
        ],
      };
    },
  },
  {
    name: 'pods: delete_pods by the name label',
    setup: (kc, ns) => barePods(kc, ns, ['api-1', 'api-2'], { name: 'api' }),
    experiment: (ns) => ({
      title: 'delete pods',
      description: 'delete the pods labelled name=api',
      method: [python('action', 'delete', 'chaosk8s.pod.actions', 'delete_pods', { name: 'api', ns })],
    }),
  },
  {
    name: 'pods: exec_in_pods with a container name',
    setup: (kc, ns) => barePods(kc, ns, ['shell-a'], { app: 'shell' }),
    experiment: (ns) => ({
      title: 'exec',
      description: 'run echo in a pod',
      method: [
        python('action', 'echo', 'chaosk8s.pod.actions', 'exec_in_pods', {
          cmd: 'echo hello',
          label_selector: 'app=shell',
          container_name: 'main',
          ns,
        }),
      ],
    }),
  },
  {
    name: 'deployments: healthy, then scaled',
    setup: async (kc, ns) => {
      const apps = kc.makeApiClient(AppsV1Api);
      await apps.createNamespacedDeployment({
        namespace: ns,
        body: {
          metadata: { name: 'web', labels: { app: 'web' } },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: { containers: [{ name: 'app', image: 'example.invalid/app:1' }] },
            },
          },
        },
      });
      await until(
        async () =>
          (await apps.readNamespacedDeployment({ name: 'web', namespace: ns })).status?.availableReplicas ===
          2,
        'deployment',
      );
    },
    experiment: (ns) => {
      const web = { name: 'web', ns };
      return {
        title: 'deployments',
        description: 'check then scale',
        method: [
          python('probe', 'healthy', 'chaosk8s.deployment.probes', 'deployment_available_and_healthy', web),
          python('probe', 'fully-available', 'chaosk8s.deployment.probes', 'deployment_fully_available', {
            ...web,
            timeout: 10,
          }),
          python('action', 'scale', 'chaosk8s.deployment.actions', 'scale_deployment', {
            ...web,
            replicas: 1,
          }),
        ],
      };
    },
  },
  {
    name: 'networking: deny ingress, allow DNS, a policy from a spec',
    setup: async () => {},
    experiment: (ns) => ({
      title: 'networking',
      description: 'three policies',
      method: [
        python('action', 'deny-ingress', 'chaosk8s.networking.actions', 'deny_all_ingress', {
          label_selectors: { app: 'web' },
          ns,
        }),
        python('action', 'allow-dns', 'chaosk8s.networking.actions', 'allow_dns_access', { ns }),
        python('action', 'custom', 'chaosk8s.networking.actions', 'create_network_policy', {
          ns,
          spec: {
            apiVersion: 'networking.k8s.io/v1',
            kind: 'NetworkPolicy',
            metadata: { name: 'no-egress-db' },
            spec: { podSelector: { matchLabels: { app: 'db' } }, policyTypes: ['Egress'] },
          },
        }),
      ],
    }),
  },
  {
    name: 'mesh: read, add an abort, remove an abort next to a delay',
    setup: createVirtualService,
    experiment: (ns) => {
      const web = { virtual_service_name: 'web', ns };
      return {
        title: 'mesh',
        description: 'faults on web',
        method: [
          python('probe', 'read', 'chaosistio.fault.probes', 'get_virtual_service', web),
          python('action', 'abort-v1', 'chaosistio.fault.actions', 'add_abort_fault', {
            ...web,
            http_status: 503,
            percentage: 50,
            routes: [{ destination: { host: 'web', subset: 'v1' } }],
          }),
          python('action', 'remove-abort-v2', 'chaosistio.fault.actions', 'remove_abort_fault', {
            ...web,
            routes: [{ destination: { host: 'web', subset: 'v2' } }],
          }),
        ],
      };
    },
  },
  {
    name: 'custom objects: get and list',
    setup: createVirtualService,
    experiment: (ns) => {
      const kind = { group: 'networking.istio.io', version: 'v1alpha3', plural: 'virtualservices', ns };
      return {
        title: 'custom objects',
        description: 'read a VirtualService as a custom object',
        method: [
          python('probe', 'get', 'chaosk8s.crd.probes', 'get_custom_object', { ...kind, name: 'web' }),
          python('probe', 'list', 'chaosk8s.crd.probes', 'list_custom_objects', kind),
        ],
      };
    },
  },
];

/**
 * The namespace's objects after a run, in comparable form, once the deployment controller has
 * acted on what the run did (a scale), so that both tools are compared at the same point.
 */
export async function snapshot(kc: KubeConfig, ns: string): Promise<Snapshot> {
  const core = kc.makeApiClient(CoreV1Api);
  await until(async () => {
    const { items } = await kc.makeApiClient(AppsV1Api).listNamespacedDeployment({ namespace: ns });
    return items.every(
      (d) =>
        (d.status?.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
        (d.status?.replicas ?? 0) === (d.spec?.replicas ?? 0),
    );
  }, 'the deployments to be reconciled');
  // A controller's pods have random names: they are compared by their owner's name.
  const pods = (await core.listNamespacedPod({ namespace: ns })).items
    .map((p) => {
      const owner = p.metadata?.ownerReferences?.find((o) => o.controller)?.name;
      return `${owner ? `${owner}-*` : p.metadata?.name}${p.metadata?.deletionTimestamp ? ' (terminating)' : ''}`;
    })
    .sort();
  const deployments = Object.fromEntries(
    (await kc.makeApiClient(AppsV1Api).listNamespacedDeployment({ namespace: ns })).items.map((d) => [
      d.metadata!.name!,
      d.spec?.replicas,
    ]),
  );
  const networkpolicies = Object.fromEntries(
    (await kc.makeApiClient(NetworkingV1Api).listNamespacedNetworkPolicy({ namespace: ns })).items.map(
      (p) => [p.metadata!.name!, JSON.parse(JSON.stringify(p.spec))],
    ),
  );
  const vs = (await kc
    .makeApiClient(CustomObjectsApi)
    .listNamespacedCustomObject({
      group: 'networking.istio.io',
      version: 'v1',
      namespace: ns,
      plural: 'virtualservices',
    })
    .catch(() => ({ items: [] }))) as {
    items: Array<{ metadata: { name: string }; spec: { http?: unknown } }>;
  };
  const virtualservices = Object.fromEntries(vs.items.map((v) => [v.metadata.name, v.spec.http]));
  return { pods, deployments, networkpolicies, virtualservices };
}
