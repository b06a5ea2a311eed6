import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { until } from '@chaoskit/cluster/testing';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { start } from '../../start.js';
import { realNodeProblems } from './preflight.js';

const execFileAsync = promisify(execFile);
const sh = async (command: string, ...args: string[]) => (await execFileAsync(command, args)).stdout;
const problems = await realNodeProblems();

/** What a slot's cluster may have put on this machine, as the machine shows it. */
async function footprint(slot: number, dir: string) {
  const ns = `chaoskit-${slot}`;
  const pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    netns: (await sh('ip', 'netns', 'list'))
      .split('\n')
      .filter((l) => l === ns || l.startsWith(`${ns} `) || l.startsWith(`${ns}-`)),
    links: (await sh('ip', '-o', 'link')).split('\n').filter((l) => l.includes(` ck${slot}@`)),
    routes: (await sh('ip', 'route'))
      .split('\n')
      .filter((l) => l.includes(`dev ck${slot} `) || l.includes(`metric ${4000 + slot}`)),
    mounts: read('/proc/self/mountinfo')
      .split('\n')
      .filter((l) => l.includes(dir) || l.includes(`/run/netns/${ns}`)),
    cgroups: readdirSync('/sys/fs/cgroup').flatMap((h) => {
      try {
        return readdirSync(`/sys/fs/cgroup/${h}`)
          .filter((d) => d.startsWith(`${ns}-`))
          .map((d) => `${h}/${d}`);
      } catch {
        return [];
      }
    }),
    processes: pids.filter(
      (pid) => read(`/proc/${pid}/cgroup`).includes(`/${ns}-`) || read(`/proc/${pid}/cmdline`).includes(dir),
    ),
    dir: existsSync(dir),
  };
}

/** The host's own iptables rules (no counters, no comments): real nodes never touch them. */
const hostRules = async () =>
  (await sh('iptables-save')).split('\n').filter((l) => l && !l.startsWith('#') && !l.startsWith(':'));

it('runs a container on each real node; stop() leaves no process, mount, namespace, link, route, iptables rule, cgroup or directory', async (ctx) => {
  if (problems.length) return ctx.skip(`real nodes cannot run on this machine: ${problems.join('; ')}`);
  const rulesBefore = await hostRules();
  const cluster = await start({ provider: 'local', nodes: 1, realNodes: 2, mesh: false });
  let slot = -1;
  let during: Awaited<ReturnType<typeof footprint>>;
  try {
    const kc = new KubeConfig();
    kc.loadFromString(cluster.kubeconfig);
    const core = kc.makeApiClient(CoreV1Api);
    const nodes = await Promise.all(cluster.realNodes.map((name) => core.readNode({ name })));
    const ip = nodes[0]!.status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
    slot = Number(ip.split('.')[2]) / 8;
    for (const node of cluster.realNodes)
      await core.createNamespacedPod({
        namespace: 'default',
        body: {
          metadata: { name: `sleeper-${node}` },
          spec: {
            nodeName: node,
            tolerations: [{ key: 'chaoskit.io/real-node', operator: 'Exists' }],
            containers: [
              {
                name: 'main',
                image: cluster.images!.toolbox,
                imagePullPolicy: 'IfNotPresent',
                command: ['sleep', '600'],
              },
            ],
          },
        },
      });
    const pods = await until(
      'a running container on each real node',
      async () => {
        const list = (await core.listNamespacedPod({ namespace: 'default' })).items;
        const running = list.filter((p) => p.status?.containerStatuses?.[0]?.state?.running);
        return running.length === cluster.realNodes.length ? running : undefined;
      },
      120_000,
    );
    for (const p of pods)
      expect(p.status!.containerStatuses![0]!.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    during = await footprint(slot, cluster.dir);
  } finally {
    await cluster.stop();
  }
  // What the cluster had put on the machine: so that the check below can fail.
  expect(during.netns).toHaveLength(3);
  expect(during.links).toHaveLength(1);
  expect(during.routes.length).toBeGreaterThanOrEqual(3);
  expect(during.mounts.length).toBeGreaterThanOrEqual(3);
  expect(during.cgroups.length).toBeGreaterThan(0);
  // Two agents per node at least, two containers (and their sandboxes) running.
  expect(during.processes.length).toBeGreaterThanOrEqual(8);
  // A killed process stays in /proc until its parent (this process, for the node agents) reaps
  // it, which a loaded machine can delay a moment: what is left is read once that moment is over.
  const after = await until(
    'the processes stop() killed to be reaped',
    async () => {
      const f = await footprint(slot, cluster.dir);
      return f.processes.length === 0 ? f : undefined;
    },
    15_000,
  ).catch(() => footprint(slot, cluster.dir));
  expect(after).toEqual({
    netns: [],
    links: [],
    routes: [],
    mounts: [],
    cgroups: [],
    processes: [],
    dir: false,
  });
  expect(await hostRules()).toEqual(rulesBefore);
  console.log(
    `real nodes: stop() removed ${during.processes.length} processes, ${during.netns.length} namespaces, ${during.links.length} link, ${during.routes.length} routes, ${during.mounts.length} mounts, ${during.cgroups.length} cgroups and ${cluster.dir}`,
  );
}, 600_000);
