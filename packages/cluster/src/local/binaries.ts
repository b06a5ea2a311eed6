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
/** istiod (pilot-discovery): istio.io/istio is published only as pseudo-versions. */
export const ISTIO_VERSION = 'v0.0.0-20260827124520-eed52ebb66ad';
/** Prometheus 3.16.0: github.com/prometheus/prometheus numbers its Go module v0.3xx.y for 3.xx.y. */
export const PROMETHEUS_VERSION = 'v0.316.0';
/** Jaeger v2 (cmd/jaeger), from the github.com/jaegertracing/jaeger module at this version. */
export const JAEGER_VERSION = 'v1.76.0';

export interface Binaries {
  etcd: string;
  kwok: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kubectl: string;
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

const K8S_COMMANDS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'];

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

/** Our own program: its cache directory is named after a hash of its sources. */
function meshProbeTarget(): Target {
  const src = join(goDir, 'meshprobe');
  const hash = createHash('sha256');
  for (const name of readdirSync(src).sort()) hash.update(name).update(readFileSync(join(src, name)));
  return {
    component: 'meshprobe',
    dir: join(cacheDir(), 'bin', `meshprobe-${hash.digest('hex').slice(0, 12)}`),
    packages: ['chaoskit.local/meshprobe'],
    outputs: ['meshprobe'],
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

/** The binary of a target, built into the cache (holding its lock) first if missing. */
async function ensureOne(t: Target, progress: ProgressSink): Promise<string> {
  const path = binaryNames(t)[0]!;
  if (!existsSync(path)) {
    await withCacheLock(async () => {
      if (!existsSync(path)) await build(t, progress);
    }, progress);
  }
  return path;
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

/** The path of prometheus, built into the cache first if missing (only tests and demos need it). */
export function ensurePrometheus(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(prometheusTarget(), progress);
}

/** The path of jaeger (v2, an OpenTelemetry Collector with Jaeger's storage and query), built first if missing. */
export function ensureJaeger(progress: ProgressSink = stderrProgress): Promise<string> {
  return ensureOne(jaegerTarget(), progress);
}

const stderrProgress: ProgressSink = (line) => process.stderr.write(`${line}\n`);

/**
 * Builds whatever is missing from the cache (a cold build of the control plane takes about 6
 * minutes on 2 cores; a warm one is a no-op), holding the cache's build lock. Prints a
 * progress line while building.
 */
export async function ensureBinaries(progress: ProgressSink = stderrProgress): Promise<Binaries> {
  const built = (t: Target) => binaryNames(t).every((p) => existsSync(p));
  if (!targets().every(built)) {
    await withCacheLock(async () => {
      // Another process may have built some while this one waited for the lock.
      for (const t of targets()) if (!built(t)) await build(t, progress);
    }, progress);
  }
  return binaryPaths();
}

async function build(t: Target, progress: ProgressSink): Promise<void> {
  const names = t.outputs.join(', ');
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
        ...t.packages,
      ],
      t.component,
    );
    // etcd's main package is its module root (`…/server/v3`), so `go build` names it `server`.
    if (t.component === 'etcd') await rename(join(scratch, 'server'), join(scratch, 'etcd'));
    await rm(t.dir, { recursive: true, force: true });
    await rename(scratch, t.dir);
  } finally {
    clearInterval(timer);
    await rm(scratch, { recursive: true, force: true });
  }
  progress(`chaoskit: built ${t.component} in ${Math.round((Date.now() - started) / 1000)}s`);
}
