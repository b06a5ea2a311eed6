import type { TestProject } from 'vitest/node';
import { start } from './start.js';
import type { LocalCluster } from './types.js';

export interface SharedClusterInfo {
  kubeconfig: string;
  kubeconfigPath: string;
  context: string;
  server: string;
  dir: string;
  credentials: LocalCluster['credentials'];
  users: LocalCluster['users'];
  auditLogPath: string;
  etcdUrl: string;
  nodes: string[];
  podLogFile: string;
  previousPodLogFile: string;
  kubectl: string;
  kubernetesVersion: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    cluster: SharedClusterInfo;
  }
}

// One local cluster for every cluster test file of a run.
export default async function setup(project: TestProject) {
  const started = Date.now();
  const cluster = await start({ provider: 'local', nodes: 3, nodeLabels: { 'chaoskit.io/shared': 'true' } });
  process.stderr.write(
    `chaoskit: shared local cluster ready in ${Date.now() - started} ms at ${cluster.server}\n`,
  );
  const {
    stop,
    [Symbol.asyncDispose]: _dispose,
    pids: _pids,
    componentLogs: _logs,
    restartApiserver: _restart,
    importImage: _import,
    provider: _p,
    ...info
  } = cluster;
  project.provide('cluster', info);
  return async () => {
    await stop();
  };
}
