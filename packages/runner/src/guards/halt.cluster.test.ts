// The halt lever (D128), as users pull it: `chaoskit halt` interrupts three runs under way — two
// plain runs and a fleet run (`--contexts`) — each plays its rollback (its deployment is back),
// `chaoskit run` refuses while halted (exit 3, with the reason and who halted), and `chaoskit
// resume` lets runs start again. The lever is this test's own: its ledger namespace, so no other
// test's run sees it. How long from the halt to each rollback's end is printed, not asserted.

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploy, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { AppsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetJournalPath } from '../commands/fleet.js';
import type { Journal } from '../run/index.js';
import { runCli } from '../testing/test-cli.js';
import { python } from '../testing/test-experiments.js';
import { startRun } from '../testing/test-runs.js';

const cluster = sharedCluster();
const apps = cluster.kc.makeApiClient(AppsV1Api);
const env = { ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath };
let ns: Awaited<ReturnType<typeof testNamespace>>;
let dir: string;

const chaoskit = (args: string[]) => runCli(args, { env, cwd: dir });
/** The fleet run reads contexts from a kubeconfig: the shared cluster's, by its context's name. */
const fleetEnv = { ...process.env, KUBECONFIG: cluster.kubeconfigPath };
const fleetArgs = () => ['--contexts', cluster.kc.getCurrentContext()];
const readJournal = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Journal;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-halt-'));
  ns = await testNamespace(cluster.kc, 'halt');
  for (const name of ['a', 'b', 'c']) await deploy(cluster.kc, ns.name, name, 2);
});

afterAll(async () => {
  await chaoskit(['resume', '-n', ns.name]).catch(() => undefined);
  await ns?.remove();
  await rm(dir, { recursive: true, force: true });
});

const replicas = async (name: string) =>
  (await apps.readNamespacedDeployment({ name, namespace: ns.name })).spec?.replicas;

/** Scales `name` to 0 for 5 minutes, then back (its rollback, played when interrupted too). */
function experiment(name: string, pause = 300) {
  const scale = (n: number) =>
    python('chaoscluster.deployment.actions', 'scale_deployment', { name, replicas: n, ns: ns.name });
  return {
    title: `${name} without replicas`,
    description: 'scaled down, then back',
    method: [{ type: 'action', name: 'scale-down', provider: scale(0), pauses: { after: pause } }],
    rollbacks: [{ type: 'action', name: 'scale-up', provider: scale(2) }],
  };
}

const ledger = () => ['--ledger-namespace', ns.name];

describe('chaoskit halt', () => {
  it('interrupts every run under way (each rolls back), refuses new runs while halted, and resume lifts it', async () => {
    const runs = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        name === 'c'
          ? startRun(dir, name, experiment(name), { env: fleetEnv, args: [...fleetArgs(), ...ledger()] })
          : startRun(dir, name, experiment(name), { env, args: ledger() }),
      ),
    );
    await Promise.all(runs.slice(0, 2).map((run) => run.methodDone(1)));
    // The fleet's journal of its first context, written as the run goes.
    const fleetJournal = fleetJournalPath(runs[2]!.journalPath, 'context-1');
    await until('the fleet run scaled c down', async () =>
      existsSync(fleetJournal)
        ? (await readJournal(fleetJournal).catch(() => undefined))?.run?.[0]?.status === 'succeeded'
        : false,
    );
    for (const name of ['a', 'b', 'c']) expect(await replicas(name)).toBe(0);

    const haltedAt = Date.now();
    const halted = await chaoskit(['halt', '--reason', 'incident 42: checkout is down', '-n', ns.name]);
    expect(halted.code, halted.stderr).toBe(0);
    expect(halted.stdout).toContain('incident 42: checkout is down');

    const ended = await Promise.all(runs.map((run) => run.exited));
    const took: string[] = [];
    for (const [i, name] of ['a', 'b', 'c'].entries()) {
      // Interrupted by no signal: exit 4 (D89), its rollback played.
      expect(ended[i]!.code, ended[i]!.stderr).toBe(4);
      expect(ended[i]!.stderr).toContain('incident 42: checkout is down');
      expect(await replicas(name)).toBe(2);
      const journal = await readJournal(name === 'c' ? fleetJournal : runs[i]!.journalPath);
      expect(journal.status).toBe('interrupted');
      expect(journal.interrupted_by).toMatchObject({ by: 'halt', name: 'chaoskit-halt' });
      expect(journal.interrupted_by?.reason).toContain('incident 42: checkout is down');
      expect(journal.rollbacks.map((r) => r.status)).toEqual(['succeeded']);
      took.push(
        `${name}${name === 'c' ? ' (fleet)' : ''} ${(Date.parse(journal.rollbacks[0]!.end) - haltedAt) / 1000} s`,
      );
    }
    console.log(`halt → rolled back: ${took.join(', ')}`);

    const refused = await startRun(dir, 'refused', experiment('a', 0), { env, args: ledger() });
    const outcome = await refused.exited;
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toMatch(
      /the run does not start: chaoskit is halted in namespace '[^']+' by \S+ at \S+: incident 42: checkout is down/,
    );
    expect(await replicas('a')).toBe(2);

    const resumed = await chaoskit(['resume', '-n', ns.name]);
    expect(resumed.stdout).toContain('runs may start again');
    const again = await startRun(dir, 'again', experiment('a', 0), { env, args: ledger() });
    const done = await again.exited;
    expect(done.code, done.stderr).toBe(0);
    await until('a scaled back', async () => (await replicas('a')) === 2);
  }, 300_000);
});
