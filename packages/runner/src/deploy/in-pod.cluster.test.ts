// chaoskit inside a pod: the runner image (`npm run image`) imported into a real node of a local
// cluster of its own, and `chaoskit deploy`'s Job running an experiment there with the pod's
// service account token (RUNNER_IN_POD) and the Role deploy generated, and nothing more; its
// journal kept in the cluster (chaoskit journals, report --from-cluster) and Events on its Job.
// Where this machine cannot run real nodes, the test is skipped with the reason.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalCluster, REAL_NODE_LABEL } from '@chaoskit/cluster';
import { createNamespace, deploy, until } from '@chaoskit/cluster/testing';
import { BatchV1Api, CoreV1Api, EventsV1Api, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../test-cli.js';
import { activity } from '../test-experiments.js';
import { clusterWithImage } from './test-real-node.js';

let local: LocalCluster | undefined;
let kc: KubeConfig;
let image: string;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-in-pod-'));
  let built: string;
  ({ local, kc, image, built } = await clusterWithImage());
  if (built) console.log(`in-pod: ${built}`);
}, 1_800_000);

afterAll(async () => {
  await local?.stop();
  await rm(dir, { recursive: true, force: true });
});

it('a deployed Job runs an experiment in a pod with in-cluster credentials and the Role deploy made', async (ctx) => {
  if (!local || local.realNodes.length === 0)
    return ctx.skip(`needs a real node: ${local?.realNodesUnavailable ?? 'none started'}`);
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
        probes: [
          {
            ...activity('probe', 'web-pods', 'chaoscluster.pod.probes', 'count_pods', {
              label_selector: 'app=web',
            }),
            tolerance: 2,
          },
        ],
      },
      method: [],
    }),
  );
  const out = await runCli(
    [
      'deploy',
      file,
      '-n',
      'chaos',
      '--kubeconfig',
      local.kubeconfigPath,
      '--image',
      image,
      '--node-selector',
      `${REAL_NODE_LABEL}=true`,
      '--tolerate',
      REAL_NODE_LABEL,
    ],
    { cwd: dir },
  );
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);

  const batch = kc.makeApiClient(BatchV1Api);
  const job = await until(
    'the Job to end',
    async () => {
      const j: V1Job = await batch.readNamespacedJob({ name: 'chaoskit-count-web', namespace: 'chaos' });
      return j.status?.succeeded || j.status?.failed ? j : undefined;
    },
    { timeoutMs: 600_000, intervalMs: 1000 },
  );
  const core = kc.makeApiClient(CoreV1Api);
  const [pod] = (
    await core.listNamespacedPod({ namespace: 'chaos', labelSelector: 'job-name=chaoskit-count-web' })
  ).items;
  const log = await core.readNamespacedPodLog({ name: pod!.metadata!.name!, namespace: 'chaos' });
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
  expect(log).toContain(`its journal is kept in ConfigMap chaoskit-journal-${kept.runId}, namespace chaos`);
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
      .filter((e) => e.reportingController === 'chaoskit.io/runner' && e.regarding?.uid === job.metadata?.uid)
      .map((e) => e.reason)
      .sort(),
  ).toEqual(['Completed', 'Started']);
}, 900_000);
