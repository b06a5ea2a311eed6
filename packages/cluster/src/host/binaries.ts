import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir, type ProgressSink, withCacheLock } from './cache.js';
import { type GoWrapper, goDir, runGo } from './go.js';

// Versions of what the local provider runs. Each is built from the Go module proxy through
// the wrapper modules under packages/cluster/go (committed with their go.sum).
export const KUBERNETES_VERSION = 'v1.33.13';
export const ETCD_VERSION = 'v3.5.24';
export const KWOK_VERSION = 'v0.7.0';
/** kube-router: the NetworkPolicy enforcer of the real nodes (its firewall only). */
export const KUBE_ROUTER_VERSION = 'v2.1.0';
/** istiod (pilot-discovery): istio.io/istio is published only as pseudo-versions. */
export const ISTIO_VERSION = 'v0.0.0-20260827124520-eed52ebb66ad';
/** Prometheus 3.16.0: github.com/prometheus/prometheus numbers its Go module v0.3xx.y for 3.xx.y. */
export const PROMETHEUS_VERSION = 'v0.316.0';
/** Jaeger v2 (cmd/jaeger), from the github.com/jaegertracing/jaeger module at this version. */
export const JAEGER_VERSION = 'v1.76.0';
/** go-containerregistry's in-memory registry (cmd/registry): what tests push images to. */
export const REGISTRY_VERSION = 'v0.22.1';

export interface Binaries {
  etcd: string;
  kwok: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kubectl: string;
  kubelet: string;
  kubeProxy: string;
}

interface Target {
  component: GoWrapper;
  dir: string;
  packages: string[];
  /** The binaries `go build` leaves in `dir`, one per package. */
  outputs: string[];
  ldflags: string;
  /** Go build tags, comma-separated. */
  tags?: string;
}

// kubelet and kube-proxy share almost every package with the control plane: one `go build`
// of all six costs little more than the four.
const K8S_COMMANDS = [
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'kubectl',
  'kubelet',
  'kube-proxy',
];

function targets(): Target[] {
  const stamp = ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']
    .flatMap((p) => [
      `-X ${p}.gitVersion=${KUBERNETES_VERSION}`,
      `-X ${p}.gitMajor=1`,
      `-X ${p}.gitMinor=33`,
      `-X ${p}.gitTreeState=clean`,
    ])
    .join(' ');
  const bin = join(cacheDir(), 'bin');
  return [
    {
      component: 'etcd',
      dir: join(bin, `etcd-${ETCD_VERSION}`),
      packages: ['go.etcd.io/etcd/server/v3'],
      outputs: ['etcd'],
      ldflags: `-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=${ETCD_VERSION}`,
    },
    {
      component: 'kwok',
      dir: join(bin, `kwok-${KWOK_VERSION}`),
      packages: ['sigs.k8s.io/kwok/cmd/kwok'],
      outputs: ['kwok'],
      ldflags: '-s -w',
    },
    {
      component: 'kubernetes',
      dir: join(bin, `kubernetes-${KUBERNETES_VERSION}`),
      packages: K8S_COMMANDS.map((c) => `k8s.io/kubernetes/cmd/${c}`),
      outputs: K8S_COMMANDS,
      ldflags: `-s -w ${stamp}`,
    },
  ];
}

function binaryNames(t: Target): string[] {
  return t.outputs.map((name) => join(t.dir, name));
}

export function binaryPaths(): Binaries {
  const [etcd, kwok, k8s] = targets() as [Target, Target, Target];
  return {
    etcd: join(etcd.dir, 'etcd'),
    kwok: join(kwok.dir, 'kwok'),
    kubeApiserver: join(k8s.dir, 'kube-apiserver'),
    kubeControllerManager: join(k8s.dir, 'kube-controller-manager'),
    kubeScheduler: join(k8s.dir, 'kube-scheduler'),
    kubectl: join(k8s.dir, 'kubectl'),
    kubelet: join(k8s.dir, 'kubelet'),
    kubeProxy: join(k8s.dir, 'kube-proxy'),
  };
}

export function missingBinaries(): string[] {
  return targets()
    .flatMap(binaryNames)
    .filter((p) => !existsSync(p));
}

// Built only on demand: istiod for `mesh: 'istiod'`, the probe for meshTraffic().
function istiodTarget(): Target {
  return {
    component: 'istiod',
    dir: join(cacheDir(), 'bin', `istiod-${ISTIO_VERSION}`),
    packages: ['istio.io/istio/pilot/cmd/pilot-discovery'],
    outputs: ['pilot-discovery'],
    ldflags: [
      '-s -w',
      `-X istio.io/istio/pkg/version.buildVersion=${ISTIO_VERSION}`,
      `-X istio.io/istio/pkg/version.buildGitRevision=${ISTIO_VERSION.slice(-12)}`,
      '-X istio.io/istio/pkg/version.buildStatus=Clean',
    ].join(' '),
  };
}

/** A hash of a directory's files, recursively: our own programs' cache names. */
function treeHash(dir: string, hash = createHash('sha256')): ReturnType<typeof createHash> {
  const entries = readdirSync(dir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    hash.update(entry.name);
    if (entry.isDirectory()) treeHash(path, hash);
    else hash.update(readFileSync(path));
  }
  return hash;
}

/** Our own program: its cache directory is named after a hash of its sources. */
function ownTarget(component: 'meshprobe' | 'images' | 'benchref', programs: string[]): Target {
  const hash = treeHash(join(goDir, component)).digest('hex').slice(0, 12);
  return {
    component,
    dir: join(cacheDir(), 'bin', `${component}-${hash}`),
    packages: programs.map((p) => `chaoskit.local/${component}${p === component ? '' : `/${p}`}`),
    outputs: programs,
    ldflags: '-s -w',
  };
}

/**
 * Prometheus without its cloud service discoveries (`remove_all_sd` keeps static, file and
 * HTTP ones, all that a local scrape needs): a third of the build, and none of the cloud SDKs
 * are downloaded. The web UI's assets are not embedded either; the HTTP API is all there.
 */
function prometheusTarget(): Target {
  const [, minor, patch] = /^v0\.3(\d\d)\.(\d+)$/.exec(PROMETHEUS_VERSION) ?? [];
  return {
    component: 'prometheus',
    dir: join(cacheDir(), 'bin', `prometheus-${PROMETHEUS_VERSION}`),
    packages: ['github.com/prometheus/prometheus/cmd/prometheus'],
    outputs: ['prometheus'],
    ldflags: `-s -w -X github.com/prometheus/common/version.Version=3.${Number(minor)}.${patch}`,
    tags: 'remove_all_sd',
  };
}

function jaegerTarget(): Target {
  return {
    component: 'jaeger',
    dir: join(cacheDir(), 'bin', `jaeger-${JAEGER_VERSION}`),
    packages: ['github.com/jaegertracing/jaeger/cmd/jaeger'],
    outputs: ['jaeger'],
    ldflags: '-s -w',
  };
}

function registryTarget(): Target {
  return {
    component: 'registry',
    dir: join(cacheDir(), 'bin', `registry-${REGISTRY_VERSION}`),
    packages: ['github.com/google/go-containerregistry/cmd/registry'],
    outputs: ['registry'],
    ldflags: '-s -w',
  };
}

const meshProbeTarget = () => ownTarget('meshprobe', ['meshprobe']);

function kubeRouterTarget(): Target {
  return {
    component: 'kube-router',
    dir: join(cacheDir(), 'bin', `kube-router-${KUBE_ROUTER_VERSION}`),
    packages: ['github.com/cloudnativelabs/kube-router/v2/cmd/kube-router'],
    outputs: ['kube-router'],
    ldflags: `-s -w -X github.com/cloudnativelabs/kube-router/v2/pkg/version.Version=${KUBE_ROUTER_VERSION}`,
  };
}

const built = (t: Target) => binaryNames(t).every((p) => existsSync(p));

/** The binaries of a target, built into the cache (holding its lock) first if missing. */
async function ensureAll(t: Target, progress: ProgressSink): Promise<string[]> {
  if (!built(t)) {
    await withCacheLock(async () => {
      if (!built(t)) await build(t, progress);
    }, progress);
  }
  return binaryNames(t);
}

async function ensureOne(t: Target, progress: ProgressSink): Promise<string> {
  return (await ensureAll(t, progress))[0]!;
}

/** The path of pilot-discovery, built into the cache first if missing. */
export function ensureIstiod(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(istiodTarget(), progress);
}

/** Whether pilot-discovery still has to be built. */
export function istiodMissing(): boolean {
  return !existsSync(binaryNames(istiodTarget())[0]!);
}

/** The path of chaoskit's meshprobe, built into the cache first if missing. */
export function ensureMeshProbe(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(meshProbeTarget(), progress);
}

/**
 * The path of the bench's reference client (client-go, no client-side rate limit), built into
 * the cache first if missing: only the bench needs it.
 */
export function ensureBenchReference(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(ownTarget('benchref', ['benchref']), progress);
}

/** The path of prometheus, built into the cache first if missing (only tests and demos need it). */
export function ensurePrometheus(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(prometheusTarget(), progress);
}

/** The path of jaeger (v2, an OpenTelemetry Collector with Jaeger's storage and query), built first if missing. */
export function ensureJaeger(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(jaegerTarget(), progress);
}

/**
 * A container registry (in memory, plain HTTP on the loopback port its `-port` names), built into
 * the cache first if missing: only tests need it, to push images to.
 */
export function ensureRegistry(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(registryTarget(), progress);
}

/** kube-router, built into the cache first if missing (only real nodes need it). */
export function ensureKubeRouter(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(kubeRouterTarget(), progress);
}

/** The programs of the real nodes' images (pause, webapp), built into the cache first if missing. */
export async function ensureImagePrograms(
  progress: ProgressSink = stderrProgress,
): Promise<{ pause: string; webapp: string }> {
  const [pause, webapp] = await ensureAll(ownTarget('images', ['pause', 'webapp']), progress);
  return { pause: pause!, webapp: webapp! };
}

/** What the real nodes still need built: named for preflight's messages. */
export function realNodeBuildsMissing(): string[] {
  return [kubeRouterTarget(), ownTarget('images', ['pause', 'webapp'])]
    .filter((t) => !built(t))
    .flatMap((t) => t.outputs);
}

const stderrProgress: ProgressSink = (line) => process.stderr.write(`${line}\n`);

/** What `chaoskit-cluster build` builds, by name: the control plane and the builds on demand. */
const BUILDS = {
  'control-plane': targets,
  istiod: () => [istiodTarget()],
  meshprobe: () => [meshProbeTarget()],
  'kube-router': () => [kubeRouterTarget()],
  images: () => [ownTarget('images', ['pause', 'webapp'])],
  prometheus: () => [prometheusTarget()],
  jaeger: () => [jaegerTarget()],
} satisfies Record<string, () => Target[]>;
export type Build = keyof typeof BUILDS;

/**
 * Builds what is missing of the named builds all at once, holding the cache's build lock once.
 * Go compiles with every core, but its downloads and each binary's link (one core) leave a
 * core idle that another build fills. Every build runs to its end; the result names those that
 * failed, with why.
 */
export async function ensureBuilds(
  names: readonly Build[],
  progress: ProgressSink = stderrProgress,
): Promise<Array<{ build: Build; error: Error }>> {
  const wanted = names.flatMap((build) => BUILDS[build]().map((target) => ({ build, target })));
  if (wanted.every(({ target }) => built(target))) return [];
  return withCacheLock(async () => {
    const missing = wanted.filter(({ target }) => !built(target));
    const settled = await Promise.allSettled(missing.map(({ target }) => build(target, progress)));
    return settled.flatMap((result, i) =>
      result.status === 'rejected' ? [{ build: missing[i]!.build, error: result.reason as Error }] : [],
    );
  }, progress);
}

/**
 * Builds whatever is missing from the cache (a cold build of the control plane takes about 6
 * minutes on 2 cores; a warm one is a no-op), holding the cache's build lock. Prints a
 * progress line while building.
 */
export async function ensureBinaries(progress: ProgressSink = stderrProgress): Promise<Binaries> {
  const [failed] = await ensureBuilds(['control-plane'], progress);
  if (failed) throw failed.error;
  return binaryPaths();
}

/**
 * Builds the target's missing binaries in one `go build` and moves each into the target's
 * directory: a cache that has the control plane gains kubelet and kube-proxy without the
 * others being replaced under a running cluster.
 */
async function build(t: Target, progress: ProgressSink): Promise<void> {
  const missing = t.outputs.filter((o) => !existsSync(join(t.dir, o)));
  const packages = t.packages.filter((_, i) => missing.includes(t.outputs[i]!));
  const names = missing.join(', ');
  const started = Date.now();
  progress(`chaoskit: building ${t.component} (${names}) from the Go module proxy into ${t.dir}`);
  // Build into a scratch directory and rename: a concurrent or interrupted build never
  // leaves a half-written binary where start() looks for it.
  const scratch = `${t.dir}.tmp-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  const timer = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    progress(
      `chaoskit: still building ${t.component} … ${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`,
    );
  }, 30_000);
  try {
    await runGo(
      [
        'build',
        '-trimpath',
        ...(t.tags ? ['-tags', t.tags] : []),
        '-ldflags',
        t.ldflags,
        '-o',
        `${scratch}/`,
        ...packages,
      ],
      t.component,
    );
    // etcd's main package is its module root (`…/server/v3`), so `go build` names it `server`.
    if (t.component === 'etcd') await rename(join(scratch, 'server'), join(scratch, 'etcd'));
    await mkdir(t.dir, { recursive: true });
    for (const name of missing) await rename(join(scratch, name), join(t.dir, name));
  } finally {
    clearInterval(timer);
    await rm(scratch, { recursive: true, force: true });
  }
  progress(`chaoskit: built ${t.component} in ${Math.round((Date.now() - started) / 1000)}s`);
}
