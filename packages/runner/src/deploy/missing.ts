// Why a deployment has no journal (D166): what `chaoskit journals` says of each deployment of the
// namespace that kept none — no Job ran yet, its pod waits to be placed or on its image, it ran
// where nothing runs, it ended before its run could keep one — from its CronJob, its newest Job,
// that Job's pod and the pod's node. A reader who may not see those is told nothing more.
import { isApiError, Nodes, Pods } from '@chaoskit/core';
import type { Transport } from '@chaoskit/core/runner';
import { EXPERIMENT_LABEL, MANAGED_BY } from '../journals/labels.js';
import { CronJobs, Jobs } from './apply.js';
import { DEPLOYED_IN_LABEL } from './manifests.js';
import { FAKE_NODE_LABEL } from './placement.js';
import { REAPER } from './reaper.js';

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
interface Workload {
  metadata: { name: string; labels?: Record<string, string>; creationTimestamp?: string };
  spec?: { schedule?: string; suspend?: boolean };
  status?: { conditions?: Condition[]; lastScheduleTime?: string };
}
interface ContainerState {
  waiting?: { reason?: string; message?: string };
  terminated?: { exitCode?: number; reason?: string; message?: string };
}
interface PodView {
  metadata: { name: string; creationTimestamp?: string };
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    conditions?: Condition[];
    containerStatuses?: Array<{ state?: ContainerState }>;
  };
}

/** One deployment without a journal, and why. */
export interface MissingJournal {
  deployment: string;
  workload: string;
  why: string;
}

const newest = <T extends { metadata: { creationTimestamp?: string } }>(items: T[]): T | undefined =>
  [...items].sort((a, b) =>
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? ''),
  )[0];

/** What a pod that kept no journal says of itself. */
async function podSays(kube: Transport, namespace: string, pod: PodView): Promise<string> {
  const name = `its pod ${pod.metadata.name}`;
  const node = pod.spec?.nodeName;
  if (node) {
    const labels = (await kube.get<{ metadata: { labels?: Record<string, string> } }>(Nodes, node, null))
      .metadata.labels;
    if (labels?.[FAKE_NODE_LABEL.key] === FAKE_NODE_LABEL.value)
      return `${name} was placed on ${node}, a node kwok fakes (type=kwok): nothing ran there, whatever its status says (${pod.status?.phase}); deploy it again with this chaoskit, whose pods avoid such nodes`;
  }
  const state = pod.status?.containerStatuses?.[0]?.state;
  const phase = pod.status?.phase;
  if (phase === 'Pending') {
    const unplaced = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    if (unplaced) return `${name} is Pending: no node may run it: ${unplaced.message ?? unplaced.reason}`;
    if (state?.waiting?.reason)
      return `${name} is Pending on ${node}: ${state.waiting.reason}${state.waiting.message ? `: ${state.waiting.message}` : ''}`;
    return `${name} is Pending on ${node}`;
  }
  if (phase === 'Running') return `${name} runs on ${node} and has not kept its journal yet`;
  const ended = state?.terminated;
  const how = ended
    ? `exit ${ended.exitCode}${ended.reason ? ` (${ended.reason})` : ''}`
    : (phase ?? 'unknown');
  return `${name} ended on ${node ?? 'no node'} with ${how} before its run kept a journal: kubectl logs ${pod.metadata.name} -n ${namespace} says why`;
}

/** Why the deployment of `workloads` (its CronJob or Job, and its Jobs) kept no journal. */
async function why(
  kube: Transport,
  namespace: string,
  cron: Workload | undefined,
  jobs: Workload[],
): Promise<string> {
  const job = newest(jobs);
  if (!job) {
    if (cron?.spec?.suspend) return 'its CronJob is suspended: no Job runs';
    return `no Job has run yet (schedule '${cron?.spec?.schedule}'${cron?.status?.lastScheduleTime ? `, last at ${cron.status.lastScheduleTime}` : ''})`;
  }
  const pods = await kube.list<PodView>(Pods, {
    namespace,
    labelSelector: `batch.kubernetes.io/job-name=${job.metadata.name}`,
  });
  const pod = newest(pods);
  if (pod) return podSays(kube, namespace, pod);
  const failed = job.status?.conditions?.find((c) => c.type === 'Failed' && c.status === 'True');
  return failed
    ? `its Job ${job.metadata.name} failed with no pod: ${failed.message ?? failed.reason}`
    : `its Job ${job.metadata.name} has no pod yet`;
}

/** The deployments of `namespace` that kept no journal (of those in `kept`), and why. */
export async function missingJournals(
  kube: Transport,
  namespace: string,
  kept: ReadonlySet<string>,
): Promise<MissingJournal[]> {
  const labelSelector = `${MANAGED_BY}=chaoskit,${DEPLOYED_IN_LABEL}=${namespace}`;
  try {
    const [crons, jobs] = await Promise.all(
      [CronJobs, Jobs].map((type) => kube.list<Workload>(type, { namespace, labelSelector })),
    );
    const deployments = new Set(
      [...crons!, ...jobs!].map((w) => w.metadata.labels?.[EXPERIMENT_LABEL] ?? ''),
    );
    const missing: MissingJournal[] = [];
    for (const deployment of [...deployments].sort()) {
      // The reaper keeps no journal: it runs no experiment.
      if (!deployment || deployment === REAPER || kept.has(deployment)) continue;
      const of = (w: Workload) => w.metadata.labels?.[EXPERIMENT_LABEL] === deployment;
      const cron = crons!.find(of);
      missing.push({
        deployment,
        workload: cron ? `CronJob ${cron.metadata.name}` : `Job ${jobs!.find(of)!.metadata.name}`,
        why: await why(kube, namespace, cron, jobs!.filter(of)),
      });
    }
    return missing;
  } catch (err) {
    if (isApiError(err, 'Forbidden')) return [];
    throw err;
  }
}
