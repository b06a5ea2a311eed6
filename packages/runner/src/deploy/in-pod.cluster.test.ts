// chaoskit inside a pod, on a real node of a local cluster of its own with the runner image (`chaoskit
// image build`, built once for the file) imported: `chaoskit deploy`'s Job runs an experiment with
// the pod's service account token (RUNNER_IN_POD) and the Role deploy made, and nothing more, its
// journal kept in the cluster (chaoskit journals, report --from-cluster) and Events on its Job; a
// CronJob every minute runs it twice; a pod deleted as kubectl deletes it gets SIGTERM as PID 1
// and plays its rollbacks before it exits; a pod killed outright (SIGKILL) leaves its record,
// which the next run of the same deployment undoes before it starts — never another
// deployment's — or the reaper (`deploy --reaper`) once it expires. Its pods go to the real node
// with no placement given (D166); a run whose image no node holds is warned of by deploy and said
// by journals, its pod waiting on the pull (D165). One cluster and one image
// for all of it: each costs minutes of CI. Where this machine cannot run real nodes, the tests
// are skipped with the reason.

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type LocalCluster, REAL_NODE_LABEL } from '@chaoskit/cluster';
import { createNamespace, deploy, until } from '@chaoskit/cluster/testing';
import {
  AppsV1Api,
  BatchV1Api,
  CoreV1Api,
  EventsV1Api,
  type KubeConfig,
  Log,
  type V1ContainerStateTerminated,
  type V1CronJob,
  type V1Job,
  type V1Pod,
  Watch,
} from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it, type TestContext } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { activity, countWebPods } from '../testing/test-experiments.js';
import { clusterWithImage } from './test-real-node.js';

let local: LocalCluster | undefined;
let kc: KubeConfig;
let image: string;
let dir: string;

let everyMinute: Promise<void> | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-in-pod-'));
  let built: string;
  ({ local, kc, image, built } = await clusterWithImage());
  if (built) console.log(`in-pod: ${built}`);
  // A CronJob's runs come on the minute: deployed now, its first two run while the other tests
  // do, rather than minutes of waiting at the end. Its test awaits this, and fails with its error.
  if (local.realNodes.length > 0) {
    everyMinute = deployEveryMinute();
    everyMinute.catch(() => undefined);
  }
}, 1_800_000);

afterAll(async () => {
  await local?.stop();
  await rm(dir, { recursive: true, force: true });
});

const needsRealNode = (ctx: TestContext) => {
  if (!local || local.realNodes.length === 0)
    ctx.skip(`needs a real node: ${local?.realNodesUnavailable ?? 'none started'}`);
};

const chaoskit = (args: string[]) => runCli([...args, '--kubeconfig', local!.kubeconfigPath], { cwd: dir });

/** An experiment that scales `target` to 1 and holds it there, its rollback scaling it back to 2. */
async function holdFile(name: string, ns: string, target: string): Promise<string> {
  const scale = (replicas: number) =>
    activity('action', `scale-to-${replicas}`, 'chaoscluster.deployment.actions', 'scale_deployment', {
      ns,
      name: target,
      replicas,
    });
  const file = join(dir, `${name}.yaml`);
  await writeFile(
    file,
    dump({
      title: `${target} holds on one pod`,
      description: 'stopped mid-method',
      method: [{ ...scale(1), pauses: { after: 900 } }],
      rollbacks: [scale(2)],
    }),
  );
  return file;
}

async function deployed(file: string, ns: string, ...more: string[]): Promise<void> {
  const out = await chaoskit(['deploy', file, '-n', ns, '--image', image, ...more]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
}

/** The Job `name` once it has ended, its pod and that pod's log. */
async function jobEnded(ns: string, name: string): Promise<{ job: V1Job; pod: V1Pod; log: string }> {
  const batch = kc.makeApiClient(BatchV1Api);
  const job = await until(
    `the Job ${name} to end`,
    async () => {
      const j: V1Job = await batch.readNamespacedJob({ name, namespace: ns });
      return j.status?.succeeded || j.status?.failed ? j : undefined;
    },
    { timeoutMs: 600_000, intervalMs: 1000 },
  );
  const core = kc.makeApiClient(CoreV1Api);
  const [pod] = (await core.listNamespacedPod({ namespace: ns, labelSelector: `job-name=${name}` })).items;
  const log = await core.readNamespacedPodLog({ name: pod!.metadata!.name!, namespace: ns });
  return { job, pod: pod!, log };
}

const replicas = async (ns: string, name: string) =>
  (await kc.makeApiClient(AppsV1Api).readNamespacedDeployment({ name, namespace: ns })).spec?.replicas;

/** The Job's pod once its run has made its change (`target` is down to one replica). */
async function midMethod(ns: string, job: string, target: string): Promise<V1Pod> {
  const core = kc.makeApiClient(CoreV1Api);
  return until(
    `${job}'s pod to scale ${target} to 1`,
    async () => {
      const [pod] = (await core.listNamespacedPod({ namespace: ns, labelSelector: `job-name=${job}` })).items;
      return pod?.status?.phase === 'Running' && (await replicas(ns, target)) === 1 ? pod : undefined;
    },
    { timeoutMs: 600_000, intervalMs: 500 },
  );
}

/**
 * The node's process of the pod's container, seen from this machine (the node's containers run
 * here): its pid here, and its pid in the container's own pid namespace (NSpid's last field).
 */
async function containerProcess(pod: V1Pod): Promise<{ pid: number; inContainer: number }> {
  const uid = pod.metadata!.uid!;
  const marks = [uid, uid.replaceAll('-', '_')];
  return until(
    `the process of pod ${pod.metadata?.name}`,
    async () => {
      for (const entry of await readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const read = (file: string) => readFile(`/proc/${entry}/${file}`, 'utf8').catch(() => '');
        if (!(await read('cmdline')).includes('/chaoskit/experiment/')) continue;
        const cgroup = await read('cgroup');
        if (!marks.some((m) => cgroup.includes(m))) continue;
        const nspid = /^NSpid:\s+(.+)$/m
          .exec(await read('status'))?.[1]
          ?.trim()
          .split(/\s+/);
        if (nspid) return { pid: Number(entry), inContainer: Number(nspid.at(-1)) };
      }
      return undefined;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
}

/** The pod's log as it is written, until its container ends (the stream closes). */
function followLog(ns: string, name: string): Promise<string> {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    stream.on('end', () => resolve(text));
    new Log(kc).log(ns, name, 'chaoskit', stream, { follow: true }).catch(reject);
  });
}

/** How the pod's container ended, from a watch of the pod, once the pod is gone. */
function endOfPod(ns: string, name: string): Promise<V1ContainerStateTerminated | undefined> {
  let last: V1ContainerStateTerminated | undefined;
  return new Promise((resolve, reject) => {
    void new Watch(kc)
      .watch(
        `/api/v1/namespaces/${ns}/pods`,
        { fieldSelector: `metadata.name=${name}` },
        (type: string, pod: V1Pod) => {
          last = pod.status?.containerStatuses?.[0]?.state?.terminated ?? last;
          if (type === 'DELETED') resolve(last);
        },
        (err) => (err ? reject(err) : resolve(last)),
      )
      .catch(reject);
  });
}

interface Listed {
  runId: string;
  left: number;
  objects: Array<{ ref: { name: string }; state: string }>;
}
async function recorded(ns: string): Promise<Listed[]> {
  const out = await chaoskit(['status', '--ledger-namespace', ns, '--json']);
  expect(out.code, out.stderr).toBe(0);
  const { runs, not_verified } = JSON.parse(out.stdout);
  expect(not_verified).toEqual([]);
  return runs;
}

it('a deployed Job runs an experiment in a pod with in-cluster credentials and the Role deploy made', async (ctx) => {
  needsRealNode(ctx);
  if (!local) return;
  await createNamespace(kc, 'chaos');
  // Pods kwok runs (on the kwok node): what the experiment counts.
  await deploy(kc, 'chaos', 'web', 2);
  const file = join(dir, 'count-web.yaml');
  await writeFile(
    file,
    dump({
      title: 'web has two pods',
      description: 'in a pod',
      'steady-state-hypothesis': {
        title: 'two web pods',
        probes: [countWebPods(2)],
      },
      method: [],
    }),
  );
  // No placement given: its pod goes to the real node by itself, never to the kwok node (D166);
  // the node holds the image imported, so deploy has nothing to warn of (D165).
  const out = await chaoskit(['deploy', file, '-n', 'chaos', '--image', image]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);

  const { job, pod, log } = await jobEnded('chaos', 'chaoskit-count-web');
  console.log(`in-pod: the Job's pod on ${pod?.spec?.nodeName}:\n${log}`);
  expect(job.status?.succeeded, log).toBe(1);
  expect(pod?.spec?.nodeName).toBe(local.realNodes[0]);
  expect(log).toMatch(/Steady state hypothesis is met/);
  expect(log).toMatch(/Experiment ended with status: completed/);

  // The pod kept its journal in the cluster: listed, and rendered by the report of files.
  const cli = (args: string[]) =>
    runCli([...args, '-n', 'chaos', '--kubeconfig', local!.kubeconfigPath], { cwd: dir });
  const listed = await cli(['journals', '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  const [kept] = JSON.parse(listed.stdout);
  expect(kept).toMatchObject({ experiment: 'count-web', title: 'web has two pods', status: 'completed' });
  // In the deployment's own journal, the one its runner may write (D158).
  expect(log).toContain(
    `Run ${kept.runId}: its journal is kept in ConfigMap chaoskit-journal-count-web-0, namespace chaos`,
  );
  const report = await cli(['report', '--from-cluster', 'latest', '--markdown', join(dir, 'in-pod.md')]);
  expect(report.code, report.stderr).toBe(0);
  expect(await readFile(join(dir, 'in-pod.md'), 'utf8')).toContain('web has two pods');
  // And said on its Job how the run went.
  const events = await kc.makeApiClient(EventsV1Api).listNamespacedEvent({
    namespace: 'chaos',
    fieldSelector: `regarding.name=${job.metadata?.name}`,
  });
  expect(
    events.items
      .filter((e) => e.reportingController === 'chaoskit' && e.regarding?.uid === job.metadata?.uid)
      .map((e) => e.reason)
      .sort(),
  ).toEqual(['Completed', 'Started']);
}, 900_000);

it('a pod deleted as kubectl deletes it gets SIGTERM as PID 1, plays its rollbacks and leaves no record', async (ctx) => {
  needsRealNode(ctx);
  await createNamespace(kc, 'graceful');
  await deploy(kc, 'graceful', 'web', 2);
  await deployed(await holdFile('hold-web', 'graceful', 'web'), 'graceful');
  const pod = await midMethod('graceful', 'chaoskit-hold-web', 'web');
  const name = pod.metadata!.name!;
  // Node is the container's PID 1: no signal reaches it that it has no handler for.
  const proc = await containerProcess(pod);
  expect(proc.inContainer).toBe(1);
  expect(await recorded('graceful')).toMatchObject([{ left: 1 }]);

  const log = followLog('graceful', name);
  const ended = endOfPod('graceful', name);
  // As `kubectl delete pod` does: the pod's own grace period.
  await kc.makeApiClient(CoreV1Api).deleteNamespacedPod({ name, namespace: 'graceful' });
  const [text, terminated] = await Promise.all([log, ended]);
  console.log(`in-pod: ${name} after its deletion:\n${text}`);
  expect(text).toMatch(/SIGTERM: stopping the current activity/);
  expect(text).toMatch(/Interrupted: playing the rollbacks before stopping/);
  expect(text).toMatch(/Rollback: scale-to-2/);
  expect(text).not.toMatch(/left in place/i);
  // 143: interrupted by SIGTERM, nothing left in place (5 would say a change is).
  expect(terminated?.exitCode, text).toBe(143);
  expect(await replicas('graceful', 'web')).toBe(2);
  expect(await recorded('graceful')).toEqual([]);
  // Its journal, kept in the cluster, says so.
  const kept = JSON.parse((await chaoskit(['journals', 'latest', '-n', 'graceful'])).stdout);
  expect(kept.status).toBe('interrupted');
  expect(kept.rollbacks.map((r: { status: string }) => r.status)).toEqual(['succeeded']);
}, 900_000);

/** Kills the pod's container outright, as the OOM killer or a lost node would: SIGKILL. */
async function killOutright(ns: string, pod: V1Pod): Promise<void> {
  process.kill((await containerProcess(pod)).pid, 'SIGKILL');
  const core = kc.makeApiClient(CoreV1Api);
  await until(
    `pod ${pod.metadata?.name} to end`,
    async () =>
      (await core.readNamespacedPod({ name: pod.metadata!.name!, namespace: ns })).status?.phase === 'Failed',
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

it("a pod killed outright leaves its record; the deployment's next run undoes it before it starts, and no other deployment's", async (ctx) => {
  needsRealNode(ctx);
  await createNamespace(kc, 'left');
  await deploy(kc, 'left', 'web-a', 2);
  await deploy(kc, 'left', 'web-b', 2);
  const a = await holdFile('hold-a', 'left', 'web-a');
  await deployed(a, 'left');
  // hold-b's runs expire at once: the reaper's test below takes them.
  await deployed(await holdFile('hold-b', 'left', 'web-b'), 'left', '--ledger-ttl', '1s');
  await killOutright('left', await midMethod('left', 'chaoskit-hold-a', 'web-a'));
  await killOutright('left', await midMethod('left', 'chaoskit-hold-b', 'web-b'));
  // No rollback played: both changes are in place, and their records say so.
  expect(await replicas('left', 'web-a')).toBe(1);
  expect(await replicas('left', 'web-b')).toBe(1);
  const before = await recorded('left');
  expect(before).toHaveLength(2);
  expect(before.every((r) => r.left === 1)).toBe(true);
  const killedA = before.find((r) => r.objects[0]?.ref.name === 'web-a')!.runId;
  const killedB = before.find((r) => r.objects[0]?.ref.name === 'web-b')!.runId;

  // undeploy refuses while the runner's record is in place: its changes are undone as the
  // runner it would remove (D158).
  const refused = await chaoskit(['undeploy', 'hold-a', '-n', 'left']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('has its record in place (ConfigMap chaoskit-record-hold-a');
  // The Job deleted and deployed again: its run undoes hold-a's leftovers, then starts its own.
  await kc
    .makeApiClient(BatchV1Api)
    .deleteNamespacedJob({ name: 'chaoskit-hold-a', namespace: 'left', propagationPolicy: 'Background' });
  await until('the Job is gone', () =>
    kc
      .makeApiClient(BatchV1Api)
      .readNamespacedJob({ name: 'chaoskit-hold-a', namespace: 'left' })
      .then(() => false)
      .catch(() => true),
  );
  await deployed(a, 'left');
  const next = await midMethod('left', 'chaoskit-hold-a', 'web-a');
  const core = kc.makeApiClient(CoreV1Api);
  const log = await until(
    "the next run's own record",
    async () => {
      const text = await core.readNamespacedPodLog({ name: next.metadata!.name!, namespace: 'left' });
      return /Run \S+: its changes are recorded/.test(text) ? text : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
  console.log(`in-pod: the next run of hold-a:\n${log}`);
  expect(log).toMatch(new RegExp(`leftovers of run ${killedA}: restored deployment 'web-a'`));
  expect(log).toMatch(
    new RegExp(`leftovers of run ${killedA} \\(deployment hold-a, pod \\S+ gone\\): 1 undone`),
  );
  expect(log).not.toContain(killedB);
  // Its own change made: its record, alongside hold-b's.
  const during = await until(
    "the next run's change",
    async () => {
      const runs = await recorded('left');
      return runs.some((r) => r.runId !== killedB && r.left === 1) ? runs : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
  expect(during.map((r) => r.runId)).not.toContain(killedA);
  expect(during.find((r) => r.runId === killedB)?.left).toBe(1);
  expect(await replicas('left', 'web-b')).toBe(1);

  // The next run stopped as a pod is: its own rollbacks; only hold-b's record is left.
  const ended = endOfPod('left', next.metadata!.name!);
  await core.deleteNamespacedPod({ name: next.metadata!.name!, namespace: 'left' });
  expect((await ended)?.exitCode).toBe(143);
  expect(await replicas('left', 'web-a')).toBe(2);
  expect((await recorded('left')).map((r) => r.runId)).toEqual([killedB]);
}, 1_200_000);

it('the reaper, deployed with deploy --reaper, undoes what an expired run left, with the rights it was given', async (ctx) => {
  needsRealNode(ctx);
  // hold-b's run, killed above, expired a second after it started.
  const [left] = await recorded('left');
  expect(left?.objects[0]?.ref.name).toBe('web-b');
  const out = await chaoskit([
    'deploy',
    '--reaper',
    '-n',
    'left',
    '--schedule',
    '0 0 1 1 *',
    '--image',
    image,
  ]);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);

  // A record planted by someone who may create ConfigMaps: named, left alone, and no failure.
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({
    namespace: 'left',
    body: {
      metadata: { name: 'chaoskit-run-planted', labels: { 'chaoskit.io/ledger': 'true' } },
      data: { run: '{"v":3}' },
    },
  });
  // Now, rather than on its schedule: a Job from the CronJob's template (kubectl create job --from).
  const batch = kc.makeApiClient(BatchV1Api);
  const cron: V1CronJob = await batch.readNamespacedCronJob({ name: 'chaoskit-reaper', namespace: 'left' });
  await batch.createNamespacedJob({
    namespace: 'left',
    body: {
      metadata: { name: 'reaper-now', labels: cron.spec?.jobTemplate.metadata?.labels ?? {} },
      spec: cron.spec!.jobTemplate.spec!,
    },
  });
  const { job, log } = await jobEnded('left', 'reaper-now');
  console.log(`in-pod: the reaper:\n${log}`);
  expect(job.status?.succeeded, log).toBe(1);
  expect(log).toMatch(
    new RegExp(`${left!.runId}: 1 undone, 0 already as they were, 0 refused, 0 failed; record removed`),
  );
  expect(await replicas('left', 'web-b')).toBe(2);
  await core.deleteNamespacedConfigMap({ name: 'chaoskit-run-planted', namespace: 'left' });
  expect(await recorded('left')).toEqual([]);
  // What it left alone, said where people look: a Warning on its Job.
  const events = await core.listNamespacedEvent({
    namespace: 'left',
    fieldSelector: 'involvedObject.name=reaper-now,reason=NotActedOn',
  });
  expect(events.items.map((e) => [e.type, e.message])).toEqual([
    ['Warning', expect.stringContaining('ConfigMap left/chaoskit-run-planted')],
  ]);
}, 900_000);

it('a run whose image no node holds: deploy warns, its pod waits on the pull, and journals says so', async (ctx) => {
  needsRealNode(ctx);
  await createNamespace(kc, 'unpulled');
  const file = join(dir, 'unpulled.yaml');
  await writeFile(
    file,
    dump({
      title: 'never pulled',
      description: 'an image no node holds',
      method: [countWebPods(0, 'unpulled')],
    }),
  );
  const missing = 'chaoskit.local/runner:never-built';
  const out = await chaoskit(['deploy', file, '-n', 'unpulled', '--image', missing]);
  expect(out.code, out.stderr).toBe(0);
  expect(out.stderr).toBe(
    `chaoskit: no node that can run the pod holds the image ${missing}, and no registry serves a .local name: its pod would wait on a pull that cannot succeed; import it (chaoskit-cluster import <archive> on the local cluster, ctr -n k8s.io images import on a node of yours), or push it (chaoskit image build --push <registry>/<name>) and give --image\n`,
  );
  const core = kc.makeApiClient(CoreV1Api);
  const pod = await until(
    'the pod to fail its pull',
    async () => {
      const [p] = (
        await core.listNamespacedPod({ namespace: 'unpulled', labelSelector: 'job-name=chaoskit-unpulled' })
      ).items;
      const reason = p?.status?.containerStatuses?.[0]?.state?.waiting?.reason;
      return reason === 'ErrImagePull' || reason === 'ImagePullBackOff' ? p : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 1000 },
  );
  expect(pod.spec?.nodeName).toBe(local!.realNodes[0]);
  const listed = await chaoskit(['journals', '-n', 'unpulled']);
  expect(listed.stderr).toMatch(
    new RegExp(
      `unpulled \\(Job chaoskit-unpulled\\) has no journal: its pod ${pod.metadata!.name} is Pending on ${local!.realNodes[0]}: (ErrImagePull|ImagePullBackOff): .*${missing.replaceAll('.', '\\.')}`,
    ),
  );
}, 300_000);

/** Two web pods on the real node, and an experiment terminating one of them deployed every minute. */
async function deployEveryMinute(): Promise<void> {
  const ns = 'scheduled';
  await createNamespace(kc, ns);
  await deploy(kc, ns, 'web', 2, {
    podSpec: {
      nodeSelector: { [REAL_NODE_LABEL]: 'true' },
      tolerations: [{ key: REAL_NODE_LABEL, operator: 'Exists' }],
      containers: [
        {
          name: 'web',
          image: local!.images!.toolbox,
          imagePullPolicy: 'IfNotPresent',
          command: ['sh', '-c', 'sleep 3600'],
        },
      ],
    },
    timeoutMs: 300_000,
  });
  const file = join(dir, 'every-minute.yaml');
  await writeFile(
    file,
    dump({
      title: 'a web pod goes every minute',
      description: 'on a schedule',
      method: [
        activity('action', 'kill-one', 'chaoscluster.pod.actions', 'terminate_pods', {
          ns,
          label_selector: 'app=web',
          qty: 1,
          grace_period: 0,
        }),
      ],
    }),
  );
  await deployed(file, ns, '--schedule', '* * * * *');
}

it('a CronJob every minute: two runs in a row each terminate a real pod, each journal listed and rendered', async (ctx) => {
  needsRealNode(ctx);
  if (!local) return;
  const ns = 'scheduled';
  const real = local.realNodes[0]!;
  await everyMinute;
  const batch = kc.makeApiClient(BatchV1Api);
  // The CronJob controller starts a Job at each minute: two of them, one after the other.
  const jobs = await until(
    'two scheduled Jobs to succeed',
    async () => {
      const done = (await batch.listNamespacedJob({ namespace: ns })).items.filter(
        (j) => j.status?.succeeded,
      );
      return done.length >= 2 ? done : undefined;
    },
    { timeoutMs: 420_000, intervalMs: 2000 },
  );
  expect(new Set(jobs.map((j) => j.metadata?.ownerReferences?.[0]?.kind))).toEqual(new Set(['CronJob']));

  const listed = await chaoskit(['journals', '-n', ns, '--json']);
  expect(listed.code, listed.stderr).toBe(0);
  const runs = (
    JSON.parse(listed.stdout) as Array<{ runId: string; experiment: string; status: string }>
  ).filter((r) => r.status === 'completed');
  expect(runs.length).toBeGreaterThanOrEqual(2);
  const core = kc.makeApiClient(CoreV1Api);
  const killed = new Set<string>();
  for (const run of runs.slice(0, 2)) {
    expect(run.experiment).toBe('every-minute');
    const journal = JSON.parse((await chaoskit(['journals', run.runId, '-n', ns])).stdout);
    const [pod] = journal.run[0].output.pods as string[];
    killed.add(pod!);
    const md = join(dir, `${run.runId}.md`);
    const report = await chaoskit(['report', '--from-cluster', run.runId, '-n', ns, '--markdown', md]);
    expect(report.code, report.stderr).toBe(0);
    expect(await readFile(md, 'utf8')).toContain('a web pod goes every minute');
  }
  // Two runs, two pods gone; the Deployment's replacements run on the real node.
  expect(killed.size).toBe(2);
  await until(
    'two web pods running on the real node, none of those killed',
    async () => {
      const pods = (await core.listNamespacedPod({ namespace: ns, labelSelector: 'app=web' })).items.filter(
        (p) => !p.metadata?.deletionTimestamp,
      );
      return pods.length === 2 &&
        pods.every(
          (p) => p.status?.phase === 'Running' && p.spec?.nodeName === real && !killed.has(p.metadata!.name!),
        )
        ? true
        : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 1000 },
  );
  expect((await chaoskit(['undeploy', 'every-minute', '-n', ns])).code).toBe(0);
}, 900_000);
