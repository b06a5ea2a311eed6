import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import {
  type Binaries,
  ensureBinaries,
  ensureBuilds,
  ensureIstiod,
  KUBERNETES_VERSION,
} from '../host/binaries.js';
import { freePorts, startWhilePortsTaken } from '../host/ports.js';
import { loopbackEnv, ProcessGroup, waitFor } from '../host/processes.js';
import { applyCrds, type MeshCrds, meshCrds, meshOption } from '../istio/crds.js';
import type { IstiodInfo, LocalCluster, StartOptions } from '../types.js';
import {
  CONTEXT,
  type ControlPlaneFiles,
  type ControlPlanePorts,
  controlPlaneFiles,
  kubeconfigFor,
  startApiserver,
  startControllers,
  startEtcd,
} from './control-plane.js';
import { startIstiod } from './istiod.js';
import { AUDIT_POLICY, criLogLine } from './kwok-config.js';
import { createKwokNodes } from './kwok-nodes.js';
import {
  ADMIN_CERT_USER,
  ADMIN_USER,
  COMPONENTS_USER,
  issuePki,
  type Pki,
  UNPRIVILEGED_USER,
} from './pki.js';
import { preflight } from './preflight.js';
import { prepareRealNodes, type RealNodeKit, type RealNodes, startRealNodes } from './realnodes/index.js';
import { MAX_REAL_NODES } from './realnodes/plan.js';

/** What every attempt at a start shares: built, downloaded and checked once. */
interface Prepared {
  bin: Binaries;
  crds: MeshCrds | undefined;
  istiodBinary: string | undefined;
  kit: RealNodeKit | undefined;
}

export async function startLocal(options: StartOptions = {}): Promise<LocalCluster> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const realNodes = options.realNodes ?? 0;
  if (!Number.isInteger(realNodes) || realNodes < 0 || realNodes > MAX_REAL_NODES)
    throw new RangeError(`realNodes must be a whole number from 0 to ${MAX_REAL_NODES}, not ${realNodes}`);
  // Everything that can be missing is found before any component starts.
  const mesh = meshOption(options.mesh, true);
  await preflight(mesh, progress);
  const crds = mesh ? await meshCrds(mesh, progress) : undefined;
  // Built before anything starts, at once: a cold build takes minutes.
  const [failed] = await ensureBuilds(
    ['control-plane', ...(mesh?.istiod ? (['istiod'] as const) : [])],
    progress,
  );
  if (failed) throw failed.error;
  const bin = await ensureBinaries(progress);
  const istiodBinary = mesh?.istiod ? await ensureIstiod(progress) : undefined;
  const kit = options.realNodes ? await prepareRealNodes(progress) : undefined;
  if (kit && 'unavailable' in kit)
    progress(`chaoskit: real nodes cannot run here, the cluster is kwok-only: ${kit.unavailable}`);
  const prepared: Prepared = { bin, crds, istiodBinary, kit };
  const attempt = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chaoskit-cluster-'));
    const group = new ProcessGroup(dir);
    const real: { nodes?: RealNodes } = {};
    try {
      return await boot(dir, group, prepared, options, real);
    } catch (err) {
      await real.nodes?.stop();
      await group.stop(1000);
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  };
  // A port picked free and taken before its component bound it (another cluster starting
  // beside this one): started again, on other ports.
  return startWhilePortsTaken(attempt, () =>
    progress(`chaoskit: a port of the local cluster was taken before it bound it; starting again`),
  ).catch((err: Error) => {
    // A component's failure carries that component's log tail, and only that one.
    throw new Error(`local cluster failed to start: ${err.message}`, { cause: err });
  });
}

async function boot(
  dir: string,
  group: ProcessGroup,
  { bin, crds, istiodBinary, kit }: Prepared,
  options: StartOptions,
  real: { nodes?: RealNodes },
): Promise<LocalCluster> {
  const [etcd, etcdPeer, api, controllerManager, scheduler, kwok] = (await freePorts(6)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ports: ControlPlanePorts = { etcd, etcdPeer, api, controllerManager, scheduler, kwok };
  const realKit = kit && !('unavailable' in kit) ? kit : undefined;
  const pki = await issuePki(
    dir,
    Array.from({ length: realKit ? (options.realNodes ?? 0) : 0 }, (_, i) => `real-node-${i}`),
  );
  const files = controlPlaneFiles(dir);
  await Promise.all([mkdir(files.certDir), mkdir(join(dir, 'logs')), mkdir(files.execDir)]);
  await writeFile(files.auditPolicy, AUDIT_POLICY);
  await writeFile(files.podLogFile, criLogLine('chaoskit fake pod started'));
  await writeFile(files.previousPodLogFile, criLogLine('chaoskit fake pod previous run'));

  await startEtcd(group, bin, dir, ports);
  const apiserverReady = await startApiserver(group, bin, { files, pki, ports, options });

  const server = `https://127.0.0.1:${api}`;
  const kubeconfig = kubeconfigFor(server, files.caFile, { token: pki.adminToken });
  const kubeconfigPath = join(dir, 'kubeconfig');
  const componentsKubeconfig = join(dir, 'components.kubeconfig');
  await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
  await writeFile(componentsKubeconfig, kubeconfigFor(server, files.caFile, { token: pki.componentsToken }), {
    mode: 0o600,
  });
  await startControllers(group, bin, { files, pki, ports, componentsKubeconfig });

  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const nodes = await createKwokNodes(core, group, options);
  // Pods are refused until the namespace's default service account exists.
  await waitFor(
    'default service account',
    'kube-controller-manager',
    group,
    async () =>
      (await core.listNamespacedServiceAccount({ namespace: 'default' })).items.some(
        (sa) => sa.metadata?.name === 'default',
      ),
    60_000,
  );

  if (realKit) {
    real.nodes = await startRealNodes({
      dir,
      count: options.realNodes ?? 0,
      kit: realKit,
      bin,
      pki,
      caFile: files.caFile,
      apiPort: api,
      kc,
      env: loopbackEnv,
    });
  }
  const mesh = crds ? { source: crds.source, crds: await applyCrds(kc, crds.path) } : undefined;
  const istiod: IstiodInfo | undefined =
    crds && istiodBinary
      ? await startIstiod({
          dir,
          group,
          kc,
          kubeconfigPath: componentsKubeconfig,
          binary: istiodBinary,
          env: loopbackEnv,
          crdsPath: crds.path,
        })
      : undefined;
  return handle({
    group,
    bin,
    files,
    pki,
    server,
    kubeconfig,
    kubeconfigPath,
    etcdUrl: `http://127.0.0.1:${etcd}`,
    nodes,
    real,
    kit,
    mesh,
    istiod,
    apiserverReady,
  });
}

interface Running {
  group: ProcessGroup;
  bin: Binaries;
  files: ControlPlaneFiles;
  pki: Pki;
  server: string;
  kubeconfig: string;
  kubeconfigPath: string;
  etcdUrl: string;
  nodes: string[];
  real: { nodes?: RealNodes };
  kit: RealNodeKit | undefined;
  mesh: LocalCluster['mesh'];
  istiod: IstiodInfo | undefined;
  apiserverReady: () => Promise<void>;
}

/** The started cluster as its callers hold it; stop() ends every process and removes the directory. */
function handle(r: Running): LocalCluster {
  const { group, files, pki, server, real, kit, mesh, istiod } = r;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await real.nodes?.stop();
    await group.stop();
    await rm(files.dir, { recursive: true, force: true });
  };
  return {
    provider: 'local',
    kubeconfig: r.kubeconfig,
    kubeconfigPath: r.kubeconfigPath,
    context: CONTEXT,
    server,
    dir: files.dir,
    credentials: {
      server,
      caFile: files.caFile,
      token: pki.adminToken,
      clientCertFile: pki.clientCertFile,
      clientKeyFile: pki.clientKeyFile,
      unprivilegedToken: pki.unprivilegedToken,
    },
    users: {
      token: ADMIN_USER,
      clientCert: ADMIN_CERT_USER,
      unprivileged: UNPRIVILEGED_USER,
      components: COMPONENTS_USER,
    },
    auditLogPath: files.auditLogPath,
    etcdUrl: r.etcdUrl,
    nodes: r.nodes,
    kubernetesVersion: KUBERNETES_VERSION,
    podLogFile: files.podLogFile,
    previousPodLogFile: files.previousPodLogFile,
    kubectl: r.bin.kubectl,
    realNodes: real.nodes?.names ?? [],
    ...(real.nodes ? { images: real.nodes.images } : {}),
    ...(kit && 'unavailable' in kit ? { realNodesUnavailable: kit.unavailable } : {}),
    importImage: async (archive: string) => {
      if (!real.nodes)
        throw new Error(
          `importImage: this cluster has no real node to hold ${archive} (start it with realNodes)`,
        );
      await real.nodes.importImage(archive);
    },
    ...(mesh ? { mesh } : {}),
    pids: group.pids,
    componentLogs: group.logFiles,
    restartApiserver: async (downMs = 0) => {
      await group.restart('kube-apiserver', downMs);
      await r.apiserverReady();
    },
    ...(istiod ? { istiod } : {}),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** Appends lines to the log every kwok pod serves (kubectl logs / read_pod_logs). */
export async function writePodLog(
  cluster: Pick<LocalCluster, 'podLogFile'>,
  lines: Array<{ text: string; stream?: 'stdout' | 'stderr'; at?: Date }>,
): Promise<void> {
  await writeFile(cluster.podLogFile, lines.map((l) => criLogLine(l.text, l.stream, l.at)).join(''), {
    flag: 'a',
  });
}
