// The local cluster's control plane, one component at a time: etcd, kube-apiserver, the
// controller manager and scheduler, and kwok. Each start returns once its component is serving
// (or, for the controllers and kwok, once it listens on its own port), so that a port taken
// between its pick and the bind fails the start with the component's log tail, which names the
// bind.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import type { Binaries } from '../host/binaries.js';
import { httpOk, listensOn, loopbackEnv, type ProcessGroup, waitFor } from '../host/processes.js';
import type { StartOptions } from '../types.js';
import { kwokConfig } from './kwok-config.js';
import type { Pki } from './pki.js';
import { KWOK_POD_CIDR, REAL_NODE_LABEL, SERVICE_CIDR } from './realnodes/plan.js';

export const CONTEXT = 'chaoskit-local';

export interface ControlPlanePorts {
  etcd: number;
  etcdPeer: number;
  api: number;
  controllerManager: number;
  scheduler: number;
  kwok: number;
}

/** Where the control plane keeps its files, all in the cluster's scratch directory. */
export interface ControlPlaneFiles {
  dir: string;
  certDir: string;
  caFile: string;
  auditLogPath: string;
  auditPolicy: string;
  podLogFile: string;
  previousPodLogFile: string;
  execDir: string;
}

export function controlPlaneFiles(dir: string): ControlPlaneFiles {
  const certDir = join(dir, 'pki');
  return {
    dir,
    certDir,
    caFile: join(certDir, 'apiserver.crt'),
    auditLogPath: join(dir, 'audit.log'),
    auditPolicy: join(dir, 'audit-policy.yaml'),
    podLogFile: join(dir, 'logs', 'pod.log'),
    previousPodLogFile: join(dir, 'logs', 'pod-previous.log'),
    execDir: join(dir, 'exec'),
  };
}

export async function startEtcd(group: ProcessGroup, bin: Binaries, dir: string, ports: ControlPlanePorts) {
  const { etcd: port, etcdPeer: peerPort } = ports;
  group.start(
    'etcd',
    bin.etcd,
    [
      '--name=chaoskit',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${port}`,
      `--advertise-client-urls=http://127.0.0.1:${port}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=chaoskit=http://127.0.0.1:${peerPort}`,
      '--initial-cluster-state=new',
      // Disposable data: fsync only slows tests down.
      '--unsafe-no-fsync=true',
      '--log-level=warn',
    ],
    loopbackEnv,
  );
  await waitFor('etcd', 'etcd', group, () => httpOk(`http://127.0.0.1:${port}/health`), 30_000);
}

/** Starts kube-apiserver; resolves to a wait for its readiness (also used after a restart). */
export async function startApiserver(
  group: ProcessGroup,
  bin: Binaries,
  input: { files: ControlPlaneFiles; pki: Pki; ports: ControlPlanePorts; options: StartOptions },
): Promise<() => Promise<void>> {
  const { files, pki, ports, options } = input;
  group.start(
    'kube-apiserver',
    bin.kubeApiserver,
    [
      `--etcd-servers=http://127.0.0.1:${ports.etcd}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${ports.api}`,
      // A loopback advertise address is not a valid Endpoints IP.
      '--endpoint-reconciler-type=none',
      `--cert-dir=${files.certDir}`,
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
      `--audit-policy-file=${files.auditPolicy}`,
      `--audit-log-path=${files.auditLogPath}`,
      '--audit-log-format=json',
      '--audit-log-mode=blocking',
      // Never rotated (0 means lumberjack's 100 MB): readers of the log expect one whole file.
      '--audit-log-maxsize=1048576',
      ...(options.apiserverArgs ?? []),
    ],
    loopbackEnv,
  );
  const server = `https://127.0.0.1:${ports.api}`;
  const ready = () =>
    waitFor(
      'kube-apiserver',
      'kube-apiserver',
      group,
      async () =>
        existsSync(files.caFile) &&
        (await httpOk(`${server}/readyz`, { ca: await readFile(files.caFile), token: pki.adminToken })),
      90_000,
    );
  await ready();
  return ready;
}

/** A kubeconfig for the cluster's one context, as `user`. */
export function kubeconfigFor(server: string, caFile: string, user: Record<string, string>): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: CONTEXT, cluster: { server, 'certificate-authority': caFile } }],
    users: [{ name: CONTEXT, user }],
    contexts: [{ name: CONTEXT, context: { cluster: CONTEXT, user: CONTEXT, namespace: 'default' } }],
    'current-context': CONTEXT,
  });
}

/**
 * The controller manager, the scheduler and kwok, with the components' kubeconfig. Nothing
 * else waits for their ports (for the scheduler, for anything of it), so each start waits until
 * the component itself listens on its port: one whose port was taken fails here, with its log
 * tail, and the cluster is started again on other ports.
 */
export async function startControllers(
  group: ProcessGroup,
  bin: Binaries,
  input: { files: ControlPlaneFiles; pki: Pki; ports: ControlPlanePorts; componentsKubeconfig: string },
): Promise<void> {
  const { files, pki, ports, componentsKubeconfig } = input;
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
      `--secure-port=${ports.controllerManager}`,
      `--service-account-private-key-file=${pki.serviceAccountKeyFile}`,
      `--root-ca-file=${files.caFile}`,
      '--node-monitor-period=5s',
    ],
    loopbackEnv,
  );
  group.start(
    'kube-scheduler',
    bin.kubeScheduler,
    [...componentAuth, `--secure-port=${ports.scheduler}`],
    loopbackEnv,
  );

  const kwokConfigPath = join(files.dir, 'kwok.yaml');
  await writeFile(kwokConfigPath, kwokConfig(files));
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
      `--node-port=${ports.kwok}`,
      `--server-address=127.0.0.1:${ports.kwok}`,
      // Non-zero: kwok 0.7 otherwise picks the heartbeat without leases and nodes go NotReady.
      '--node-lease-duration-seconds=40',
      `--cidr=${KWOK_POD_CIDR}`,
    ],
    loopbackEnv,
  );
  const bound: Array<[string, number]> = [
    ['kube-controller-manager', ports.controllerManager],
    ['kube-scheduler', ports.scheduler],
    ['kwok', ports.kwok],
  ];
  for (const [component, port] of bound)
    await waitFor(
      `${component} listening on port ${port}`,
      component,
      group,
      async () => listensOn(group.pidOf(component), port),
      60_000,
    );
}
