// Chaos Toolkit's own report tool reads chaoskit's journals (D95): a real run on the shared
// cluster, its journal kept in the cluster (--journal-to-cluster, D116) and fetched from there
// with `chaoskit journals <run id>`, rendered by the real `chaos report` (chaostoolkit-reporting
// 0.18.0 from PyPI, with the pandoc its wheel ships), and the report says what the run did.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploy, sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { CoreV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chaoskitRun, exec, runnerCli } from './differential.js';
import { ensurePythonReporting } from './python-env.js';

const cluster = sharedCluster();
let dir: string;
let chaos: string;
let ns: Awaited<ReturnType<typeof testNamespace>>;

const inDir = (cmd: string, args: string[]) => exec(cmd, args, {}, dir);

beforeAll(async () => {
  chaos = await ensurePythonReporting((line) => console.log(line));
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-chaos-report-'));
  ns = await testNamespace(cluster.kc, 'chaos-report');
  await deploy(cluster.kc, ns.name, 'web', 3);
}, 1_200_000);
afterAll(async () => {
  await ns?.remove();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('`chaos report` renders the journal of a chaoskit run, fetched from the cluster: its title, activities and status', async () => {
  const pods = { label_selector: 'app=web', ns: ns.name };
  const experiment = {
    title: 'The web deployment survives losing a pod',
    description: 'One web pod is terminated; the deployment keeps serving.',
    'steady-state-hypothesis': {
      title: 'web has its pods',
      probes: [
        {
          type: 'probe',
          name: 'web-pods-running',
          // 2 or 3 while the deployment replaces the pod: the steady state holds either way.
          tolerance: { type: 'range', range: [2, 3] },
          provider: {
            type: 'python',
            module: 'chaosk8s.pod.probes',
            func: 'count_pods',
            arguments: { ...pods, phase: 'Running' },
          },
        },
      ],
    },
    method: [
      {
        type: 'action',
        name: 'terminate-one-web-pod',
        provider: {
          type: 'python',
          module: 'chaosk8s.pod.actions',
          func: 'terminate_pods',
          arguments: { ...pods, qty: 1, grace_period: 0 },
        },
      },
    ],
  };
  const file = join(dir, 'experiment.yaml');
  const journal = join(dir, 'journal.json');
  await writeFile(file, dump(experiment));
  const run = await chaoskitRun(
    cluster,
    journal,
    ['--journal-to-cluster', '--ledger-namespace', ns.name, file],
    dir,
  );
  expect(run.code, run.output).toBe(0);
  // The run really happened: the pod it terminated is gone from the cluster.
  const written = JSON.parse(await readFile(journal, 'utf8'));
  expect(written.status).toBe('completed');
  expect(written['chaoslib-version']).toBe('1.45.0');
  const [terminated] = (written.run[0].output as { pods: string[] }).pods;
  expect(terminated).toMatch(/^web-/);
  const remaining = await cluster.kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace: ns.name });
  expect(remaining.items.map((p) => p.metadata?.name)).not.toContain(terminated);

  // The journal the cluster kept, as a user fetches it: the file's, byte for byte.
  const fetched = await inDir(process.execPath, [
    runnerCli(),
    'journals',
    // The run keeps no record (--no-ledger), so its journal has no run id: the latest is it.
    'latest',
    '-n',
    ns.name,
    '--kubeconfig',
    cluster.kubeconfigPath,
    '--context',
    cluster.context,
  ]);
  expect(fetched.code, fetched.output).toBe(0);
  expect(fetched.output).toBe(await readFile(journal, 'utf8'));
  const fromCluster = join(dir, 'from-cluster.json');
  await writeFile(fromCluster, fetched.output);

  const report = join(dir, 'report.md');
  const rendered = await inDir(chaos, [
    '--no-version-check',
    '--no-log-file',
    'report',
    '--export-format=markdown',
    fromCluster,
    report,
  ]);
  expect(rendered.code, rendered.output).toBe(0);
  const text = await readFile(report, 'utf8');
  console.log(text);
  expect(text).toContain('## The web deployment survives losing a pod');
  expect(text).toContain('One web pod is terminated; the deployment keeps serving.');
  expect(text).toMatch(/\*\*Status\*\* +completed/);
  expect(text).toContain('#### Action - terminate-one-web-pod');
  // The hypothesis, before and after: its probe, verified.
  expect(text).toMatch(/"\*\*web has its\s+pods\*\*"/);
  for (const when of ['Before Run', 'After Run'])
    expect(text).toMatch(
      new RegExp(
        `##### ${when}\\s+The steady state was verified\\s+-+\\s+Probe +Tolerance +Verified\\s+-[- ]+\\s+web-pods-running .* True`,
      ),
    );
  expect(text).toContain('chaosk8s.pod.actions');
  expect(text).toContain('terminate_pods');
}, 900_000);
