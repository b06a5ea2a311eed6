// Everything a run needs is checked before its first change (D91): where it writes its journal
// and its log (six ways of not being writable, each refused before a single request of the
// run's identity reaches the apiserver, an existing journal left as it was), then the cluster:
// the context, the kubeconfig, the credentials, and the rights of the run's record (asked with
// SelfSubjectAccessReviews: the audit log shows nothing else of the identity).

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog } from '@chaoskit/cluster';
import {
  apisOf,
  deploy,
  fileNamespace,
  kubeconfigYaml,
  serviceAccountToken,
  sharedCluster,
  testNamespace,
  tokenEnv,
} from '@chaoskit/cluster/testing';
import type { V1Role } from '@kubernetes/client-node';
import { loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../run/exit-codes.js';
import { chaoskitCommand, exec, runCli } from '../testing/test-cli.js';
import { countWebPods, killOneWebPod, writeExperiment } from '../testing/test-experiments.js';
import { printedIdentity } from '../testing/test-identities.js';

const cluster = sharedCluster();
const { core, rbac } = apisOf(cluster.kc);
const OLD_JOURNAL = '{"an":"earlier journal"}';
let dir: string;
let file: string;
const ns = fileNamespace(cluster.kc, 'preflight');
/** The run's identity: it may run the experiment and keep its record. */
let runner: { token: string; identity: string };
/** An identity that may run the experiment, and not keep its record. */
let recordless: { token: string; identity: string };

const envOf = (token: string) => tokenEnv(cluster.credentials, token);

const podUids = async () =>
  (await core.listNamespacedPod({ namespace: ns.name, labelSelector: 'app=web' })).items
    .map((p) => p.metadata!.uid!)
    .sort();

/** The identity's requests since `since`, as `verb resource`. */
const requestsOf = async (identity: string, since: Date) =>
  (await readAuditLog(cluster.auditLogPath, { user: identity, since })).map(
    (e) => `${e.verb} ${e.objectRef?.resource ?? e.requestURI}`,
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-preflight-'));
  await deploy(cluster.kc, ns.name, 'web', 3);
  file = await writeExperiment(join(dir, 'experiment.yaml'), {
    title: 'one web pod goes',
    description: 'what the run needs is checked first',
    'steady-state-hypothesis': {
      title: 'web runs',
      probes: [countWebPods([1, 10], ns.name)],
    },
    method: [killOneWebPod(ns.name)],
  });
  const printed = await runCli(['rbac', file, '--name', 'runner'], { cwd: dir });
  expect(printed.code, printed.stderr).toBe(0);
  const [role] = loadAll(printed.stdout) as V1Role[];
  runner = await printedIdentity(cluster, ns.name, 'runner', printed.stdout);
  // The same rights, and not those of the record.
  await rbac.createNamespacedRole({
    namespace: ns.name,
    body: { ...role!, metadata: { name: 'recordless' } },
  });
  recordless = await serviceAccountToken(cluster.kc, ns.name, 'recordless', [
    { role: 'recordless', kind: 'Role' },
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * `chaoskit run` as the runner identity, in a mount namespace of its own where `setup` (sh)
 * prepared the place of its files first; prints what the journal holds after the run.
 */
function isolatedRun(setup: string, journal: string, extra: string[] = []) {
  const script = `set -e; ${setup}; set +e; "$@"; code=$?; printf 'journal after: %s\\n' "$(cat '${journal}' 2>/dev/null || echo none)"; exit $code`;
  return exec(
    'unshare',
    [
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      script,
      'sh',
      ...chaoskitCommand,
      'run',
      file,
      '--journal-path',
      journal,
      '--ledger-namespace',
      ns.name,
      ...extra,
    ],
    { env: envOf(runner.token), cwd: dir },
  );
}

describe('a journal or log file that cannot be written refuses the run before any request', () => {
  const cases: Array<
    [string, (m: string) => { setup: string; journal: string; log?: string }, RegExp, boolean]
  > = [
    ['a directory', (m) => ({ setup: `mkdir -p ${m}`, journal: m }), /: it is a directory$/, false],
    [
      'a read-only mount',
      (m) => ({
        setup: `mkdir -p ${m}; mount -t tmpfs -o size=1m tmpfs ${m}; echo '${OLD_JOURNAL}' > ${m}/journal.json; mount -o remount,ro ${m}`,
        journal: `${m}/journal.json`,
      }),
      /: the file system is read-only \(EROFS\)$/,
      true,
    ],
    [
      'a full file system',
      (m) => ({
        setup: `mkdir -p ${m}; mount -t tmpfs -o size=64k tmpfs ${m}; echo '${OLD_JOURNAL}' > ${m}/journal.json; dd if=/dev/zero of=${m}/fill bs=4k 2>/dev/null || true`,
        journal: `${m}/journal.json`,
      }),
      /: the file system is full \(ENOSPC\)$/,
      true,
    ],
    ['/proc', () => ({ setup: 'true', journal: '/proc/chaoskit-journal.json' }), /\(ENOENT\)$/, false],
    [
      'a missing folder',
      (m) => ({ setup: 'true', journal: `${m}/missing/journal.json` }),
      /: the folder \S+\/missing does not exist$/,
      false,
    ],
    [
      'a file that cannot be written (immutable)',
      (m) => ({
        setup: `mkdir -p ${m}; mount -t tmpfs -o size=1m tmpfs ${m}; echo '${OLD_JOURNAL}' > ${m}/journal.json; chattr +i ${m}/journal.json`,
        journal: `${m}/journal.json`,
      }),
      /: not permitted \(an immutable file, or a file system that refuses it\) \(EPERM\)$/,
      true,
    ],
  ];

  it.each(cases)('%s', async (name, place, reason, existed) => {
    const mount = join(dir, name.replace(/\W+/g, '-'));
    const { setup, journal } = place(mount);
    const before = await podUids();
    const since = new Date();
    const out = await isolatedRun(setup, journal);
    process.stdout.write(`preflight: journal in ${name}: exit ${out.code}: ${out.stderr.trim()}\n`);
    expect(out.code, out.stderr).toBe(EXIT.refused);
    const [line, ...more] = out.stderr.trim().split('\n');
    expect(more).toEqual([]);
    expect(line).toMatch(
      new RegExp(`^chaoskit: --journal-path ${journal.replaceAll('/', '\\/')} cannot be written`),
    );
    expect(line).toMatch(reason);
    // An earlier journal there is as it was.
    expect(out.stdout).toBe(`journal after: ${existed ? OLD_JOURNAL : 'none'}\n`);
    expect(await requestsOf(runner.identity, since)).toEqual([]);
    expect(await podUids()).toEqual(before);
  });

  it('a log file on a full file system', async () => {
    const mount = join(dir, 'full-log');
    const since = new Date();
    const out = await isolatedRun(
      `mkdir -p ${mount}; mount -t tmpfs -o size=64k tmpfs ${mount}; dd if=/dev/zero of=${mount}/fill bs=4k 2>/dev/null || true`,
      join(dir, 'log.journal.json'),
      ['--log-file', `${mount}/run.log`],
    );
    expect(out.code, out.stderr).toBe(EXIT.refused);
    expect(out.stderr).toBe(
      `chaoskit: --log-file ${mount}/run.log cannot be written: the file system is full (ENOSPC)\n`,
    );
    expect(await requestsOf(runner.identity, since)).toEqual([]);
  });
});

describe('the cluster, the credentials and the rights of the record are checked before the run', () => {
  it('a record the identity may not write: refused, naming the identity, the rights and the fixes', async () => {
    const journal = join(dir, 'recordless.json');
    const before = await podUids();
    const since = new Date();
    const out = await runCli(['run', file, '--journal-path', journal, '--ledger-namespace', ns.name], {
      env: envOf(recordless.token),
      cwd: dir,
    });
    expect(out.code, out.stderr).toBe(EXIT.refused);
    // Its record's ConfigMap is named: it may change that one.
    const record = /delete configmaps '(chaoskit-run-[^']+)'/.exec(out.stderr)?.[1];
    expect(out.stderr).toContain(
      `chaoskit: User "${recordless.identity}" may not create configmaps, get configmaps, list configmaps, delete configmaps '${record}', patch configmaps '${record}', get secrets 'chaoskit-ledger-key' in namespace '${ns.name}', which the run's record of its changes needs (chaoskit status and revert read it): bind there the -ledger Role that chaoskit rbac prints for the experiment, choose another namespace (--ledger-namespace), or run without a record (--no-ledger)`,
    );
    await expect(readFile(journal)).rejects.toThrow(/ENOENT/);
    // Who it is, then what it may do (the activities' 3 rights, the record's 6), then whether it
    // holds what it lacks for some objects by name (one rules review of the namespace): nothing
    // else was asked, nothing changed.
    const requests = await requestsOf(recordless.identity, since);
    expect(requests[0]).toBe('create selfsubjectreviews');
    expect(requests.slice(1, 10).every((r) => r === 'create selfsubjectaccessreviews')).toBe(true);
    expect(requests.slice(10)).toEqual(['create selfsubjectrulesreviews']);
    expect(await podUids()).toEqual(before);
    // Without a record, the same identity runs it.
    const without = await runCli(['run', file, '--journal-path', journal, '--no-ledger'], {
      env: envOf(recordless.token),
      cwd: dir,
    });
    expect(without.code, without.stderr).toBe(EXIT.ok);
  });

  it('no key to seal the record with, and no right to make one: refused before the run, saying who makes it', async () => {
    // A ledger namespace where the runner holds the -ledger Role, and nobody ran chaoskit yet.
    const fresh = await testNamespace(cluster.kc, 'preflight-keyless');
    try {
      const printed = await runCli(['rbac', file, '--name', 'keyless'], { cwd: dir });
      const ledger = (loadAll(printed.stdout) as V1Role[]).find(
        (r) => r.metadata?.name === 'keyless-ledger',
      )!;
      await rbac.createNamespacedRole({ namespace: fresh.name, body: ledger });
      await rbac.createNamespacedRoleBinding({
        namespace: fresh.name,
        body: {
          metadata: { name: 'runner' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'keyless-ledger' },
          subjects: [{ kind: 'ServiceAccount', name: 'runner', namespace: ns.name }],
        },
      });
      const before = await podUids();
      const since = new Date();
      const out = await runCli(
        ['run', file, '--journal-path', join(dir, 'keyless.json'), '--ledger-namespace', fresh.name],
        {
          env: envOf(runner.token),
          cwd: dir,
        },
      );
      expect(out.code, out.stderr).toBe(EXIT.refused);
      expect(out.stderr).toContain(
        `there is no ledger key (Secret chaoskit-ledger-key) in namespace '${fresh.name}' yet, and this identity may not create it: someone who may create Secrets there makes it by running chaoskit once, or with kubectl create secret generic chaoskit-ledger-key -n ${fresh.name}`,
      );
      expect(await podUids()).toEqual(before);
      expect((await requestsOf(runner.identity, since)).filter((r) => !r.startsWith('create self'))).toEqual([
        'get secrets',
      ]);
    } finally {
      await fresh.remove();
    }
  });

  it('credentials the cluster does not accept: refused before the run, no journal', async () => {
    const journal = join(dir, 'revoked.json');
    const out = await runCli(['run', file, '--journal-path', journal], {
      env: envOf('not-a-token-1234'),
      cwd: dir,
    });
    expect(out.code, out.stderr).toBe(EXIT.refused);
    expect(out.stderr).toMatch(
      /^chaoskit: the cluster of activities '(web-pods|kill)', '(web-pods|kill)' \(CLUSTER_HOST from the environment \(API key\)\) does not accept the credentials \(401 Unauthorized/,
    );
    await expect(readFile(journal)).rejects.toThrow(/ENOENT/);
  });

  it("a --context that is not in the kubeconfig is shown back, the kubeconfig's own contexts are not", async () => {
    const kubeconfig = join(dir, 'kube', 'config');
    await mkdir(join(dir, 'kube'));
    await writeFile(
      kubeconfig,
      kubeconfigYaml(
        { server: cluster.credentials.server, caFile: cluster.credentials.caFile, name: 'prod-eu-1' },
        { 'runner-user': { token: runner.token } },
        { 'prod-eu-1': 'runner-user', 'staging-eu-1': 'runner-user' },
        'prod-eu-1',
      ),
    );
    const journal = join(dir, 'context.json');
    const since = new Date();
    const env: NodeJS.ProcessEnv = { ...envOf(runner.token), KUBECONFIG: kubeconfig };
    delete env.CLUSTER_HOST;
    const typed = await runCli(['run', file, '--journal-path', journal, '--context', 'nope'], {
      env,
      cwd: dir,
    });
    expect(typed.code, typed.stderr).toBe(EXIT.refused);
    expect(typed.stderr).toBe(
      "chaoskit: context 'nope' is not in the kubeconfig (KUBECONFIG), which has 2 contexts (kubectl config get-contexts lists them)\n",
    );
    const flagged = await runCli(
      ['run', file, '--journal-path', journal, '--context', 'nope', '--kubeconfig', kubeconfig],
      { env, cwd: dir },
    );
    expect(flagged.stderr).toBe(
      `chaoskit: context 'nope' is not in the kubeconfig (--kubeconfig ${kubeconfig}), which has 2 contexts (kubectl config get-contexts lists them)\n`,
    );
    // From the environment, the line that ends the command shows it too, and which variable
    // named it — Chaos Toolkit's name as the user wrote it (D90); the kubeconfig's own contexts
    // are not listed.
    for (const variable of ['CLUSTER_CONTEXT', 'KUBERNETES_CONTEXT']) {
      const fromEnv = await runCli(['run', file, '--journal-path', journal], {
        env: { ...env, [variable]: 'nope' },
        cwd: dir,
      });
      expect(fromEnv.code, fromEnv.stderr).toBe(EXIT.refused);
      expect(fromEnv.stderr).toBe(
        `chaoskit: activity '${fromEnv.stderr.includes("'kill'") ? 'kill' : 'web-pods'}' cannot reach a cluster: the context 'nope' that ${variable} names is not in the kubeconfig ${kubeconfig} (KUBECONFIG), which has 2 contexts (kubectl config get-contexts lists them)\n`,
      );
    }
    const missing = await runCli(
      ['run', file, '--journal-path', journal, '--kubeconfig', join(dir, 'nope')],
      {
        env,
        cwd: dir,
      },
    );
    expect(missing.code).toBe(EXIT.refused);
    expect(missing.stderr).toBe(`chaoskit: --kubeconfig ${join(dir, 'nope')} names no file\n`);
    const none = await runCli(['run', file, '--journal-path', journal], {
      env: { ...env, KUBECONFIG: join(dir, 'nope') },
      cwd: dir,
    });
    expect(none.code).toBe(EXIT.refused);
    expect(none.stderr).toMatch(
      /^chaoskit: activity '(web-pods|kill)' cannot reach a cluster: no cluster configured; tried/,
    );
    // The path the user set, shown on the line that tells them what to fix (D90).
    expect(none.stderr).toContain(`a kubeconfig file (KUBECONFIG=${join(dir, 'nope')} does not exist)`);
    await expect(readFile(journal)).rejects.toThrow(/ENOENT/);
    expect(await requestsOf(runner.identity, since)).toEqual([]);
    // The right context runs.
    const right = await runCli(
      ['run', file, '--journal-path', journal, '--context', 'staging-eu-1', '--ledger-namespace', ns.name],
      {
        env,
        cwd: dir,
      },
    );
    expect(right.code, right.stderr).toBe(EXIT.ok);
  });
});
