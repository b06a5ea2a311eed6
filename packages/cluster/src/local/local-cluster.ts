import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, type V1Node } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { ensureBinaries, ensureBuilds, ensureIstiod, KUBERNETES_VERSION } from '../host/binaries.js';
import { freePorts } from '../host/ports.js';
import { httpOk, loopbackEnv, ProcessGroup, waitFor } from '../host/processes.js';
import { applyCrds, type MeshCrds, meshCrds, meshOption } from '../istio/crds.js';
import type { IstiodInfo, LocalCluster, NodeSpec, StartOptions } from '../types.js';
import { startIstiod } from './istiod.js';
import { AUDIT_POLICY, criLogLine, kwokConfig } from './kwok-config.js';
import { ADMIN_CERT_USER, ADMIN_USER, COMPONENTS_USER, issuePki, UNPRIVILEGED_USER } from './pki.js';
import { preflight } from './preflight.js';
import { prepareRealNodes, type RealNodeKit, type RealNodes, startRealNodes } from './realnodes/index.js';
import { KWOK_POD_CIDR, MAX_REAL_NODES, REAL_NODE_LABEL, SERVICE_CIDR } from './realnodes/plan.js';

const CONTEXT = 'chaoskit-local';

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
  for (let attempt = 1; ; attempt++) {
    const dir = await mkdtemp(join(tmpdir(), 'chaoskit-cluster-'));
    const group = new ProcessGroup(dir);
    const real: { nodes?: RealNodes } = {};
    try {
      return await boot(dir, group, bin, options, crds, istiodBinary, kit, real);
    } catch (err) {
      await real.nodes?.stop();
      await group.stop(1000);
      await rm(dir, { recursive: true, force: true });
      // A port picked free and taken before its component bound it (another cluster starting
      // beside this one): started again, on other ports.
      if (attempt < 3 && /address already in use/.test((err as Error).message)) {
        progress(`chaoskit: a port of the local cluster was taken before it bound it; starting again`);
        continue;
      }
      // A component's failure carries that component's log tail, and only that one.
      throw new Error(`local cluster failed to start: ${(err as Error).message}`, { cause: err });
    }
  }
}

async function boot(
  dir: string,
  group: ProcessGroup,
  bin: Awaited<ReturnType<typeof ensureBinaries>>,
  options: StartOptions,
  crds: MeshCrds | undefined,
  istiodBinary: string | undefined,
  kit: RealNodeKit | undefined,
  real: { nodes?: RealNodes },
): Promise<LocalCluster> {
  const [etcdPort, etcdPeerPort, apiPort, kcmPort, schedPort, kwokPort] = (await freePorts(6)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const realKit = kit && !('unavailable' in kit) ? kit : undefined;
  const pki = await issuePki(
    dir,
    Array.from({ length: realKit ? (options.realNodes ?? 0) : 0 }, (_, i) => `real-node-${i}`),
  );
  const server = `https://127.0.0.1:${apiPort}`;
  const certDir = join(dir, 'pki');
  const caFile = join(certDir, 'apiserver.crt');
  const auditLogPath = join(dir, 'audit.log');
  const auditPolicy = join(dir, 'audit-policy.yaml');
  const podLogFile = join(dir, 'logs', 'pod.log');
  const previousPodLogFile = join(dir, 'logs', 'pod-previous.log');
  const execDir = join(dir, 'exec');
  await Promise.all([mkdir(certDir), mkdir(join(dir, 'logs')), mkdir(execDir)]);
  await writeFile(auditPolicy, AUDIT_POLICY);
  await writeFile(podLogFile, criLogLine('chaoskit fake pod started'));
  await writeFile(previousPodLogFile, criLogLine('chaoskit fake pod previous run'));

  group.start(
    'etcd',
    bin.etcd,
    [
      '--name=chaoskit',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster=chaoskit=http://127.0.0.1:${etcdPeerPort}`,
      '--initial-cluster-state=new',
      // Disposable data: fsync only slows tests down.
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ],
    loopbackEnv,
  );
  await waitFor('etcd', 'etcd', group, () => httpOk(`http://127.0.0.1:${etcdPort}/health`), 30_000);

  group.start(
    'kube-apiserver',
    bin.kubeApiserver,
    [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      // A loopback advertise address is not a valid Endpoints IP.
      '--endpoint-reconciler-type=none',
      `--cert-dir=${certDir}`,
      `--service-cluster-ip-range=${SERVICE_CIDR}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${pki.serviceAccountPubFile}`,
      `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
      `--token-auth-file=${pki.tokenFile}`,
      `--client-ca-file=${pki.clientCaFile}`,
      `--authorization-mode=${options.rbac === false ? 'AlwaysAllow' : 'Node,RBAC'}`,
      '--allow-privileged=true',
      // Logs and exec go to kwok at the node's address, which kwok sets to 127.0.0.1, or to a
      // real node's kubelet, which trusts the client CA's certificates only.
      '--kubelet-preferred-address-types=InternalIP,Hostname',
      `--kubelet-client-certificate=${pki.clientCertFile}`,
      `--kubelet-client-key=${pki.clientKeyFile}`,
      '--enable-priority-and-fairness=false',
      '--profiling=false',
      `--audit-policy-file=${auditPolicy}`,
      `--audit-log-path=${auditLogPath}`,
      '--audit-log-format=json',
      '--audit-log-mode=blocking',
      // Never rotated (0 means lumberjack's 100 MB): readers of the log expect one whole file.
      '--audit-log-maxsize=1048576',
      ...(options.apiserverArgs ?? []),
    ],
    loopbackEnv,
  );
  const apiserverReady = () =>
    waitFor(
      'kube-apiserver',
      'kube-apiserver',
      group,
      async () =>
        existsSync(caFile) &&
        (await httpOk(`${server}/readyz`, { ca: await readFile(caFile), token: pki.adminToken })),
      90_000,
    );
  await apiserverReady();

  const kubeconfigFor = (user: Record<string, string>) =>
    dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: CONTEXT, cluster: { server, 'certificate-authority': caFile } }],
      users: [{ name: CONTEXT, user }],
      contexts: [{ name: CONTEXT, context: { cluster: CONTEXT, user: CONTEXT, namespace: 'default' } }],
      'current-context': CONTEXT,
    });
  const kubeconfig = kubeconfigFor({ token: pki.adminToken });
  const kubeconfigPath = join(dir, 'kubeconfig');
  const componentsKubeconfig = join(dir, 'components.kubeconfig');
  await writeFile(kubeconfigPath, kubeconfig, { mode: 0o600 });
  await writeFile(componentsKubeconfig, kubeconfigFor({ token: pki.componentsToken }), { mode: 0o600 });
  const componentAuth = [
    `--kubeconfig=${componentsKubeconfig}`,
    `--authentication-kubeconfig=${componentsKubeconfig}`,
    `--authorization-kubeconfig=${componentsKubeconfig}`,
    '--bind-address=127.0.0.1',
    '--leader-elect=false',
  ];

  group.start(
    'kube-controller-manager',
    bin.kubeControllerManager,
    [
      ...componentAuth,
      `--secure-port=${kcmPort}`,
      `--service-account-private-key-file=${pki.serviceAccountKeyFile}`,
      `--root-ca-file=${caFile}`,
      '--node-monitor-period=5s',
    ],
    loopbackEnv,
  );
  group.start(
    'kube-scheduler',
    bin.kubeScheduler,
    [...componentAuth, `--secure-port=${schedPort}`],
    loopbackEnv,
  );

  const kwokConfigPath = join(dir, 'kwok.yaml');
  await writeFile(kwokConfigPath, kwokConfig({ podLogFile, previousPodLogFile, execDir }));
  group.start(
    'kwok',
    bin.kwok,
    [
      `--kubeconfig=${componentsKubeconfig}`,
      `--config=${kwokConfigPath}`,
      // Every node but the real ones, whose kubelets run them.
      `--manage-nodes-with-label-selector=!${REAL_NODE_LABEL}`,
      '--node-ip=127.0.0.1',
      '--node-name=localhost',
      `--node-port=${kwokPort}`,
      `--server-address=127.0.0.1:${kwokPort}`,
      // Non-zero: kwok 0.7 otherwise picks the heartbeat without leases and nodes go NotReady.
      '--node-lease-duration-seconds=40',
      `--cidr=${KWOK_POD_CIDR}`,
    ],
    loopbackEnv,
  );

  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);

  const nodeSpecs = nodeList(options);
  for (const spec of nodeSpecs) {
    await core.createNode({ body: nodeBody(spec, options.nodeLabels) });
  }
  const nodes = nodeSpecs.map((s) => s.name);
  await waitFor(
    'kwok nodes Ready',
    'kwok',
    group,
    async () => {
      const list = await core.listNode();
      const ready = list.items.filter(
        (n) => isReady(n) && !n.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/not-ready'),
      );
      return ready.length >= nodes.length;
    },
    60_000,
  );
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
      caFile,
      apiPort,
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

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await real.nodes?.stop();
    await group.stop();
    await rm(dir, { recursive: true, force: true });
  };
  return {
    provider: 'local',
    kubeconfig,
    kubeconfigPath,
    context: CONTEXT,
    server,
    dir,
    credentials: {
      server,
      caFile,
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
    auditLogPath,
    etcdUrl: `http://127.0.0.1:${etcdPort}`,
    nodes,
    kubernetesVersion: KUBERNETES_VERSION,
    podLogFile,
    previousPodLogFile,
    kubectl: bin.kubectl,
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
      await apiserverReady();
    },
    ...(istiod ? { istiod } : {}),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

function nodeList(options: StartOptions): Array<Required<Pick<NodeSpec, 'name'>> & NodeSpec> {
  const given = options.nodes ?? 2;
  const specs: NodeSpec[] = typeof given === 'number' ? Array.from({ length: given }, () => ({})) : given;
  return specs.map((s, i) => ({ ...s, name: s.name ?? `kwok-node-${i}` }));
}

function nodeBody(spec: NodeSpec & { name: string }, common: Record<string, string> = {}): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: {
        'kubernetes.io/hostname': spec.name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        type: 'kwok',
        ...common,
        ...spec.labels,
      },
      annotations: { 'kwok.x-k8s.io/node': 'fake' },
    },
  };
}

function isReady(node: V1Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
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
