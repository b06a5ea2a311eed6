import { dump } from 'js-yaml';

// kwok plays the kubelet for every node. With no Node stage here kwok keeps its built-in
// node stages (Ready nodes, lease heartbeats). Once any Pod stage is given, kwok drops all its
// default Pod stages, so this file supplies the three a pod's life needs.

const podReadyStatus = `{{ $now := Now }}
conditions:
- {type: PodScheduled, status: "True", lastTransitionTime: {{ $now | Quote }}}
- {type: Initialized, status: "True", lastTransitionTime: {{ $now | Quote }}}
- {type: ContainersReady, status: "True", lastTransitionTime: {{ $now | Quote }}}
- {type: Ready, status: "True", lastTransitionTime: {{ $now | Quote }}}
containerStatuses:
{{ range .spec.containers }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  ready: true
  started: true
  restartCount: 0
  state: {running: {startedAt: {{ $now | Quote }}}}
{{ end }}
hostIP: {{ NodeIPWith .spec.nodeName | Quote }}
podIP: {{ PodIPWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) | Quote }}
phase: Running
startTime: {{ $now | Quote }}
`;

const jobCompleteStatus = `{{ $now := Now }}
containerStatuses:
{{ range .spec.containers }}
- name: {{ .name | Quote }}
  image: {{ .image | Quote }}
  ready: false
  started: false
  restartCount: 0
  state: {terminated: {exitCode: 0, reason: Completed, startedAt: {{ $now | Quote }}, finishedAt: {{ $now | Quote }}}}
{{ end }}
phase: Succeeded
`;

function stage(name: string, spec: Record<string, unknown>) {
  return {
    apiVersion: 'kwok.x-k8s.io/v1alpha1',
    kind: 'Stage',
    metadata: { name },
    spec: { resourceRef: { apiGroup: 'v1', kind: 'Pod' }, ...spec },
  };
}

export interface KwokPaths {
  podLogFile: string;
  previousPodLogFile: string;
  execDir: string;
}

export function kwokConfig(paths: KwokPaths): string {
  const docs = [
    stage('chaoskit-pod-ready', {
      selector: {
        matchExpressions: [
          { key: '.metadata.deletionTimestamp', operator: 'DoesNotExist' },
          { key: '.status.podIP', operator: 'DoesNotExist' },
        ],
      },
      next: { statusTemplate: podReadyStatus },
    }),
    stage('chaoskit-pod-complete', {
      selector: {
        matchExpressions: [
          { key: '.metadata.deletionTimestamp', operator: 'DoesNotExist' },
          { key: '.status.phase', operator: 'In', values: ['Running'] },
          { key: '.metadata.ownerReferences.[].kind', operator: 'In', values: ['Job'] },
        ],
      },
      next: { statusTemplate: jobCompleteStatus },
    }),
    // A deleted pod stays Terminating until its deletionTimestamp (now + grace period), as a
    // kubelet would keep it: terminate_pods' grace_period and drain waits are then real.
    stage('chaoskit-pod-delete', {
      selector: { matchExpressions: [{ key: '.metadata.deletionTimestamp', operator: 'Exists' }] },
      delay: { durationMilliseconds: 0, durationFrom: { expressionFrom: '.metadata.deletionTimestamp' } },
      next: { finalizers: { empty: true }, delete: true },
    }),
    {
      apiVersion: 'kwok.x-k8s.io/v1alpha1',
      kind: 'ClusterLogs',
      metadata: { name: 'chaoskit-logs' },
      spec: {
        logs: [{ logsFile: paths.podLogFile, previousLogsFile: paths.previousPodLogFile, follow: false }],
      },
    },
    {
      apiVersion: 'kwok.x-k8s.io/v1alpha1',
      kind: 'ClusterExec',
      metadata: { name: 'chaoskit-exec' },
      // kwok runs the requested command as its own child process in this directory: a fake
      // pod has no container to enter.
      spec: {
        execs: [{ local: { workDir: paths.execDir, envs: [{ name: 'CHAOSKIT_FAKE_POD', value: '1' }] } }],
      },
    },
  ];
  return docs.map((d) => dump(d, { lineWidth: -1 })).join('---\n');
}

/** One line of the CRI log format kwok serves: `<RFC3339Nano> <stream> F <text>`. */
export function criLogLine(text: string, stream: 'stdout' | 'stderr' = 'stdout', at = new Date()): string {
  return `${at.toISOString()} ${stream} F ${text}\n`;
}

export const AUDIT_POLICY = dump({
  apiVersion: 'audit.k8s.io/v1',
  kind: 'Policy',
  omitStages: ['RequestReceived'],
  rules: [{ level: 'Metadata' }],
});
