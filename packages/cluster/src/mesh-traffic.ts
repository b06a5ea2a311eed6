import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { ensureMeshProbe } from './host/binaries.js';
import type { ProgressSink } from './host/cache.js';
import { freePort, freePorts, startWhilePortsTaken } from './host/ports.js';
import { loopbackEnv, ProcessGroup } from './host/processes.js';
import { until } from './host/until.js';
import { xdsBootstrap } from './istio/istiod.js';
import { adsRequest, LISTENER_TYPE } from './istio/xds.js';
import type { IstiodInfo } from './types.js';

// Real traffic through a real mesh: plain gRPC servers on 127.0.0.1 stand behind mesh hosts
// (ServiceEntries with one endpoint per subset, DestinationRules naming the subsets), and a
// proxyless gRPC client (grpc-go, in chaoskit's meshprobe program) gets its listeners, routes,
// clusters and endpoints from istiod over xDS. VirtualService faults act in that client, as
// they would in any proxyless gRPC service of an Istio mesh.
//
// grpc-go rather than Node's @grpc/grpc-js-xds: grpc-js-xds 1.14.1 drops an xDS update that
// adds a fault to a route which had none (it compares resources by the old object's keys only),
// so a fault written while the client runs would never take effect.

export interface MeshTrafficHost {
  /** The mesh host name clients dial (the ServiceEntry's host), e.g. `reviews.mesh.local`. */
  name: string;
  /** The service port (default 7070). */
  port?: number;
  /** Subsets; each gets its own backend, labelled `version: <subset>` (default `['v1']`). */
  subsets?: string[];
}

export interface MeshTrafficRoute {
  /** One of the hosts' names. */
  host: string;
  /**
   * gRPC request metadata sent with every RPC of this route, so a VirtualService can match
   * the route by header (names must be lower case and must not start with `grpc-`).
   */
  headers?: Record<string, string>;
}

export interface MeshTrafficOptions {
  /** A cluster started with `mesh: 'istiod'` (or anything with a kubeconfig and an istiod). */
  cluster: { kubeconfig: string; istiod?: Pick<IstiodInfo, 'xdsBootstrap'> };
  /** Where the ServiceEntries and DestinationRules go; a fresh namespace (deleted by stop()) when omitted. */
  namespace?: string;
  hosts: MeshTrafficHost[];
  /** Named request streams; each send() reports per route. */
  routes: Record<string, MeshTrafficRoute>;
  progress?: ProgressSink;
}

export interface RouteStats {
  requests: number;
  /** Count per gRPC status code name (`OK`, `Unavailable`, `PermissionDenied`, …, as grpc-go names them). */
  codes: Record<string, number>;
  /** Requests that did not end OK. */
  failures: number;
  /** Count per backend identity (`<host>/<subset>`) that answered. */
  servedBy: Record<string, number>;
  /** Error messages and their counts (the first few distinct ones). */
  messages: Record<string, number>;
  /** Client-side latency of each RPC, nearest-rank percentiles, in milliseconds (min: the fastest RPC). */
  latencyMs: { min: number; p50: number; p90: number; p99: number; max: number };
}

export interface SendOptions {
  /** RPCs per route. */
  requests: number;
  /** RPCs in flight per route (default 10). */
  concurrency?: number;
  /** Which routes (default: all); routes run side by side. */
  routes?: string[];
  /** Deadline of each RPC (default 10 s). */
  timeoutMs?: number;
}

export interface WaitOptions {
  /** RPCs per polling batch (default 20). */
  batch?: number;
  concurrency?: number;
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
}

export interface MeshTrafficBackend {
  host: string;
  subset: string;
  /** `<host>/<subset>`, what RouteStats.servedBy counts. */
  identity: string;
  /** 127.0.0.1:<port> the backend listens on. */
  address: string;
}

export interface MeshTraffic extends AsyncDisposable {
  readonly namespace: string;
  /** The xds:/// target of each host. */
  readonly targets: Record<string, string>;
  readonly backends: MeshTrafficBackend[];
  /** Process ids of the backends and the client (gone after stop()). */
  readonly pids: number[];
  send(options: SendOptions): Promise<Record<string, RouteStats>>;
  /**
   * Sends small batches on one route until `done` holds for a batch (config propagation:
   * a change reaches the client within a few hundred milliseconds), or throws after the
   * timeout with the last batch's numbers.
   */
  waitFor(
    route: string,
    done: (stats: RouteStats) => boolean,
    options?: WaitOptions,
  ): Promise<{ stats: RouteStats; batches: number; elapsedMs: number }>;
  stop(): Promise<void>;
}

export const IDENTITY_HEADER = 'x-served-by';
const DEFAULT_PORT = 7070;

/** Starts backends, mesh objects and a proxyless xDS client; `stop()` removes all of it. */
export function meshTraffic(options: MeshTrafficOptions): Promise<MeshTraffic> {
  // A start whose port another process took before meshprobe bound it starts again, on other
  // ports (each attempt cleans up after itself).
  return startWhilePortsTaken(() => startMeshTraffic(options));
}

async function startMeshTraffic(options: MeshTrafficOptions): Promise<MeshTraffic> {
  const istiod = options.cluster.istiod;
  if (!istiod) throw new Error("meshTraffic needs istiod: start the local cluster with mesh: 'istiod'");
  for (const [name, route] of Object.entries(options.routes)) {
    if (!options.hosts.some((h) => h.name === route.host))
      throw new Error(`route ${name}: host ${route.host} is not one of the hosts`);
  }
  const binary = await ensureMeshProbe(options.progress);
  const kc = new KubeConfig();
  kc.loadFromString(options.cluster.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const objects = kc.makeApiClient(CustomObjectsApi);

  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-meshprobe-'));
  const group = new ProcessGroup(dir);
  const ownNamespace = options.namespace === undefined;
  const namespace = options.namespace ?? `chaoskit-mesh-${randomBytes(4).toString('hex')}`;
  const created: Array<{ plural: string; name: string }> = [];

  const cleanup = async () => {
    await group.stop(2000);
    if (ownNamespace) {
      await core.deleteNamespace({ name: namespace }).catch(() => undefined);
    } else {
      for (const o of created.reverse()) {
        await objects
          .deleteNamespacedCustomObject({
            group: 'networking.istio.io',
            version: 'v1',
            namespace,
            plural: o.plural,
            name: o.name,
          })
          .catch(() => undefined);
      }
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    if (ownNamespace) await core.createNamespace({ body: { metadata: { name: namespace } } });
    const hosts = options.hosts.map((h) => ({
      name: h.name,
      port: h.port ?? DEFAULT_PORT,
      subsets: h.subsets ?? ['v1'],
    }));
    const ports = await freePorts(hosts.reduce((n, h) => n + h.subsets.length, 0));
    const backends: MeshTrafficBackend[] = hosts.flatMap((h) =>
      h.subsets.map((subset) => ({
        host: h.name,
        subset,
        identity: `${h.name}/${subset}`,
        address: `127.0.0.1:${ports.shift()}`,
      })),
    );

    group.start(
      'meshprobe-serve',
      binary,
      ['serve', ...backends.flatMap((b) => ['--backend', `${b.identity}=${b.address}`])],
      loopbackEnv,
    );
    await until(
      'meshprobe backends',
      () => Promise.all(backends.map((b) => tcpOpen(b.address))).then((r) => r.every(Boolean)),
      { timeoutMs: 30_000, intervalMs: 50, alive: () => group.assertRunning() },
    );

    await declareHosts(objects, namespace, hosts, backends, created);

    const controlAddress = `127.0.0.1:${await freePort()}`;
    const bootstrap = istiod.xdsBootstrap({ namespace, name: 'meshprobe' });
    group.start('meshprobe-client', binary, ['client', '--control', controlAddress], {
      ...loopbackEnv,
      GRPC_XDS_BOOTSTRAP_CONFIG: JSON.stringify(bootstrap),
    });
    await until('meshprobe client', async () => (await fetch(`http://${controlAddress}/healthz`)).ok, {
      timeoutMs: 30_000,
      intervalMs: 50,
      alive: () => group.assertRunning(),
    });

    const targets = Object.fromEntries(hosts.map((h) => [h.name, `xds:///${h.name}:${h.port}`]));
    const { send, waitFor } = probeClient(group, controlAddress, options.routes, targets);

    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      await cleanup();
    };
    return {
      namespace,
      targets,
      backends,
      pids: group.pids,
      send,
      waitFor,
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (err) {
    // The processes' own failures carry their log tails (ProcessGroup.assertRunning).
    await cleanup();
    throw new Error(`meshTraffic failed to start: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Whether a proxyless client can get its configuration from the istiod at `xdsAddress` (its
 * plaintext xDS port, host:port, e.g. `kubectl port-forward -n istio-system svc/istiod
 * 15010`): undefined when istiod answers a real ADS request for a listener, else why not. The
 * reason does not repeat the address.
 */
export async function xdsUnreachable(xdsAddress: string, timeoutMs = 5000): Promise<string | undefined> {
  const node = xdsBootstrap(xdsAddress, { namespace: 'default', name: 'chaoskit-check' }).node;
  try {
    const answer = await adsRequest(
      xdsAddress,
      node,
      LISTENER_TYPE,
      ['kubernetes.default.svc.cluster.local:443'],
      timeoutMs,
    );
    if (answer.typeUrl !== LISTENER_TYPE)
      return `the xDS server answered with ${answer.typeUrl || 'no type'}`;
    return undefined;
  } catch (err) {
    const message = (err as Error).message.split(xdsAddress).join('<the address>');
    return `the xDS server did not answer a request for a listener (${message})`;
  }
}

/** A ServiceEntry (the backends, as endpoints labelled by subset) and a DestinationRule per host. */
async function declareHosts(
  objects: CustomObjectsApi,
  namespace: string,
  hosts: Array<{ name: string; port: number; subsets: string[] }>,
  backends: MeshTrafficBackend[],
  created: Array<{ plural: string; name: string }>,
): Promise<void> {
  for (const h of hosts) {
    const name = objectName(h.name);
    const mine = backends.filter((b) => b.host === h.name);
    await create(objects, namespace, 'serviceentries', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'ServiceEntry',
      metadata: { name },
      spec: {
        hosts: [h.name],
        location: 'MESH_INTERNAL',
        resolution: 'STATIC',
        ports: [{ number: h.port, name: 'grpc', protocol: 'GRPC' }],
        endpoints: mine.map((b) => ({
          address: '127.0.0.1',
          ports: { grpc: Number(b.address.split(':')[1]) },
          labels: { version: b.subset },
        })),
      },
    });
    created.push({ plural: 'serviceentries', name });
    await create(objects, namespace, 'destinationrules', {
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name },
      spec: { host: h.name, subsets: h.subsets.map((s) => ({ name: s, labels: { version: s } })) },
    });
    created.push({ plural: 'destinationrules', name });
  }
}

/** Sends through the meshprobe client at `controlAddress`: batches, and batches until a condition holds. */
function probeClient(
  group: ProcessGroup,
  controlAddress: string,
  routesByName: MeshTrafficOptions['routes'],
  targets: Record<string, string>,
): Pick<MeshTraffic, 'send' | 'waitFor'> {
  const send = async (opts: SendOptions): Promise<Record<string, RouteStats>> => {
    const names = opts.routes ?? Object.keys(routesByName);
    const routes = names.map((name) => {
      const r = routesByName[name];
      if (!r) throw new Error(`unknown route ${name}`);
      return { name, target: targets[r.host], metadata: r.headers ?? {} };
    });
    group.assertRunning();
    const res = await fetch(`http://${controlAddress}/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        routes,
        requests: opts.requests,
        concurrency: opts.concurrency ?? 10,
        timeoutMs: opts.timeoutMs ?? 10_000,
      }),
    });
    if (!res.ok) throw new Error(`meshprobe: ${res.status} ${(await res.text()).trim()}`);
    const body = (await res.json()) as { routes: Record<string, Omit<RouteStats, 'failures'>> };
    return Object.fromEntries(
      Object.entries(body.routes).map(([name, s]) => [
        name,
        { ...s, failures: s.requests - (s.codes.OK ?? 0) },
      ]),
    );
  };

  const waitFor: MeshTraffic['waitFor'] = async (route, done, wait = {}) => {
    const began = Date.now();
    const timeoutMs = wait.timeoutMs ?? 15_000;
    let batches = 0;
    for (;;) {
      const stats = (
        await send({ requests: wait.batch ?? 20, concurrency: wait.concurrency, routes: [route] })
      )[route]!;
      batches++;
      if (done(stats)) return { stats, batches, elapsedMs: Date.now() - began };
      if (Date.now() - began > timeoutMs)
        throw new Error(
          `route ${route}: condition not met within ${timeoutMs} ms (${batches} batches); last batch: ${JSON.stringify(stats)}`,
        );
      await delay(25);
    }
  };
  return { send, waitFor };
}

function objectName(host: string): string {
  return host
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 63);
}

async function create(api: CustomObjectsApi, namespace: string, plural: string, body: object): Promise<void> {
  await api.createNamespacedCustomObject({
    group: 'networking.istio.io',
    version: 'v1',
    namespace,
    plural,
    body,
  });
}

function tcpOpen(address: string): Promise<boolean> {
  const [host, port] = address.split(':') as [string, string];
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
