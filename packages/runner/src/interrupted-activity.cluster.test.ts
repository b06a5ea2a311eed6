// Ctrl-C while an activity is under way stops that activity at once (D104), not at its end, and
// the journal records what it had done: here an exec_in_pods whose command would run for ten
// minutes, through the built `chaoskit` command.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploy, processesWith, sharedCluster, testNamespace, until } from '@chaoskit/cluster/testing';
import { CoreV1Api } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from './testing/test-cli.js';

const cluster = sharedCluster();
const core = cluster.kc.makeApiClient(CoreV1Api);
let dir: string;
let ns: Awaited<ReturnType<typeof testNamespace>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-interrupted-'));
  ns = await testNamespace(cluster.kc, 'interrupted');
});
afterAll(async () => {
  await ns.remove();
  await rm(dir, { recursive: true, force: true });
});

describe('a run interrupted while exec_in_pods runs its command', () => {
  it('stops at once (the command still running), and the journal says where the command was cut off', async () => {
    await deploy(cluster.kc, ns.name, 'web', 1);
    const [pod] = (await core.listNamespacedPod({ namespace: ns.name })).items.map((p) => p.metadata!.name!);
    const marker = `chaoskit-interrupted-${process.pid}-${Date.now()}`;
    const file = join(dir, 'experiment.yaml');
    const journalPath = join(dir, 'journal.json');
    await writeFile(
      file,
      dump({
        title: 'a long command, interrupted',
        description: 'exec_in_pods of a command that runs for ten minutes',
        method: [
          {
            type: 'action',
            name: 'long command',
            provider: {
              type: 'python',
              module: 'chaoscluster.pod.actions',
              func: 'exec_in_pods',
              arguments: {
                ns: ns.name,
                label_selector: 'app=web',
                cmd: ['sh', '-c', `sleep 600 # ${marker}`],
                request_timeout: 900,
              },
            },
          },
        ],
      }),
    );
    const child: ChildProcess = spawnCli(['run', file, '--journal-path', journalPath], {
      env: { ...process.env, KUBECONFIG: '/nonexistent', CLUSTERCONFIG: cluster.kubeconfigPath },
      cwd: dir,
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await until('the command running in the pod', async () => processesWith(marker).length === 1, 60_000);
      child.kill('SIGINT');
      expect(await exited, stderr).toBe(130);
      // The run did not wait for the command to end.
      expect(processesWith(marker)).toHaveLength(1);
      const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
        status: string;
        run: Array<{ status: string; exception?: string[] }>;
      };
      expect(journal.status).toBe('interrupted');
      expect(journal.run[0]?.status).toBe('failed');
      const [exception] = journal.run[0]?.exception ?? [];
      expect(exception).toMatch(/^Interrupted: chaoscluster\.pod\.actions\.exec_in_pods was aborted/);
      expect(exception).toContain('interrupted by SIGINT');
      expect(exception).toContain(`cut off in 1: ${pod}`);
    } finally {
      child.kill('SIGKILL');
      for (const pid of processesWith(marker)) process.kill(pid);
    }
  }, 180_000);
});
