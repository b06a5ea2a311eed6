// `chaoskit rbac` prints what an experiment needs, and no more is needed: an identity bound to
// exactly that runs the experiment, its record of changes included.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMutation, readAuditLog } from '@chaoskit/cluster';
import { deploy, fileNamespace, sharedCluster } from '@chaoskit/cluster/testing';
import { LEDGER_LABEL } from '@chaoskit/core/runner';
import { CoreV1Api, RbacAuthorizationV1Api, type V1Role } from '@kubernetes/client-node';
import { dump, loadAll } from 'js-yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { activity } from '../testing/test-experiments.js';
import { printedIdentity } from '../testing/test-identities.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
const _rbac = cluster.kc.makeApiClient(RbacAuthorizationV1Api);
let dir: string;
const ns = fileNamespace(cluster.kc, 'rbac');

const chaoskit = (args: string[], env: NodeJS.ProcessEnv = process.env) => runCli(args, { env, cwd: dir });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-rbac-'));
  await deploy(cluster.kc, ns.name, 'web', 3);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('an identity bound to exactly what chaoskit rbac prints runs the experiment and keeps its record', async () => {
  const file = join(dir, 'experiment.yaml');
  await writeFile(
    file,
    dump({
      title: 'one web pod goes',
      description: 'rbac',
      method: [
        activity('action', 'kill', 'chaoscluster.pod.actions', 'terminate_pods', {
          ns: ns.name,
          label_selector: 'app=web',
          grace_period: 0,
        }),
      ],
      rollbacks: [
        activity('action', 'back', 'chaoscluster.deployment.actions', 'scale_deployment', {
          ns: ns.name,
          name: 'web',
          replicas: 3,
        }),
      ],
    }),
  );
  const printed = await chaoskit(['rbac', file, '--name', 'experimenter']);
  expect(printed.code, printed.stderr).toBe(0);
  const [role, ledger, halt] = loadAll(printed.stdout) as V1Role[];
  expect(role?.kind).toBe('Role');
  expect(ledger?.metadata?.name).toBe('experimenter-ledger');
  expect(halt?.metadata).toEqual({ name: 'experimenter-halt', namespace: 'kube-system' });
  const { env, identity } = await printedIdentity(cluster, ns.name, 'experimenter', printed.stdout);
  const journal = join(dir, 'journal.json');
  const run = await chaoskit(['run', file, '--ledger-namespace', ns.name, '--journal-path', journal], env);
  expect(run.code, run.stderr).toBe(0);
  const result = JSON.parse(await readFile(journal, 'utf8'));
  expect(result.run[0].output.pods).toHaveLength(1);
  expect(result.rollbacks[0].status, JSON.stringify(result.rollbacks[0].exception)).toBe('succeeded');
  // The record was written by the identity and, with nothing left in place, removed.
  const writes = (await readAuditLog(cluster.auditLogPath, { user: identity }))
    .filter(
      (e) => e.objectRef?.resource === 'configmaps' && isMutation(e) && (e.responseStatus?.code ?? 0) < 300,
    )
    .map((e) => `${e.verb} ${e.objectRef?.name ?? ''}`);
  const record = `chaoskit-run-${result.run_id}`;
  expect(writes).toContain(`delete ${record}`);
  expect(writes.some((w) => w.startsWith('create'))).toBe(true);
  expect(
    (await core.listNamespacedConfigMap({ namespace: ns.name, labelSelector: LEDGER_LABEL })).items,
  ).toEqual([]);
});
