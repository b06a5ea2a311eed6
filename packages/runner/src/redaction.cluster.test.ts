// Redaction shows what the user must fix and hides the rest, evenly (D90): the identity a
// Forbidden names is readable whole, although the kubeconfig names its user after it; the
// kubeconfig's context `sa`, however short, is masked wherever it is named, and nowhere inside
// another word; the server and the kubeconfig's path appear nowhere.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apisOf, deploy, fileNamespace, kubeconfigYaml, sharedCluster } from '@chaoskit/cluster/testing';
import type { V1Role } from '@kubernetes/client-node';
import { dump, loadAll } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { runCli } from './testing/test-cli.js';
import { activity } from './testing/test-experiments.js';
import { printedIdentity } from './testing/test-identities.js';

const cluster = sharedCluster();
const { rbac } = apisOf(cluster.kc);
let dir: string;
const ns = fileNamespace(cluster.kc, 'redaction');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-redaction-'));
  await deploy(cluster.kc, ns.name, 'web', 2);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('a Forbidden keeps the identity whole; the context `sa` is masked where named, never inside words', async () => {
  // The identity may list pods and keep the run's record, and delete only a pod that is not
  // there: the preflight leaves a grant by name to the server (D124), whose Forbidden it is.
  const printed = await runCli(['rbac', 'chaoscluster.pod.actions.terminate_pods', '--name', 'runner'], {
    cwd: dir,
  });
  const [, ledger, halt] = loadAll(printed.stdout) as V1Role[];
  const lister: V1Role = {
    metadata: { name: 'lister' },
    rules: [
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete'], resourceNames: ['not-a-web-pod'] },
    ],
  };
  for (const role of [ledger!, lister]) await rbac.createNamespacedRole({ namespace: ns.name, body: role });
  const { token, identity } = await printedIdentity(cluster, ns.name, 'runner', dump(halt), [
    { role: 'runner-ledger', kind: 'Role' },
    { role: 'lister', kind: 'Role' },
  ]);
  // As kubeconfigs are often written: the user named after the service account; a short context.
  const kubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    kubeconfigYaml(
      { server: cluster.credentials.server, caFile: cluster.credentials.caFile, name: 'shop-cluster' },
      { runner: { token } },
      { sa: 'runner' },
      'sa',
    ),
  );
  const file = join(dir, 'experiment.yaml');
  await writeFile(
    file,
    dump({
      title: 'usage of the sa context in the sandbox',
      description: 'the runner kills a pod',
      method: [
        activity('action', 'kill-one', 'chaoscluster.pod.actions', 'terminate_pods', {
          ns: ns.name,
          label_selector: 'app=web',
          qty: 1,
        }),
      ],
    }),
  );
  const journalPath = join(dir, 'journal.json');
  const logPath = join(dir, 'run.log');
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: kubeconfig };
  delete env.CLUSTERCONFIG;
  const out = await runCli(
    ['run', file, '--journal-path', journalPath, '--ledger-namespace', ns.name, '--log-file', logPath],
    { env, cwd: dir },
  );
  expect(out.code, out.stderr).toBe(EXIT.failed);
  const journal = JSON.parse(await readFile(journalPath, 'utf8'));
  const exception: string = journal.run[0].exception[0];
  process.stdout.write(`redaction: ${exception}\n`);
  expect(exception).toContain(`User "${identity}" cannot delete resource "pods"`);
  expect(journal.experiment.title).toBe('usage of the *** context in the sandbox');
  expect(journal.experiment.description).toBe('the *** kills a pod');
  const log = await readFile(logPath, 'utf8');
  for (const text of [out.stderr, log])
    expect(text).toContain('Running experiment: usage of the *** context in the sandbox');
  const everything = [out.stdout, out.stderr, log, JSON.stringify(journal)].join('\n');
  for (const shown of [
    cluster.credentials.server,
    new URL(cluster.credentials.server).host,
    kubeconfig,
    'shop-cluster',
  ])
    expect(everything).not.toContain(shown);
  // `runner` (the kubeconfig's user) is read only inside the identity.
  expect(everything.replaceAll(identity, '').match(/\brunner\b/g)).toBeNull();
});
