import { rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir } from '../../host/cache.js';
import { isAlive } from '../../host/processes.js';
import { cgroupRoots } from './cgroups.js';
import { type NetworkPlan, netnsName, networkPlan, RANGE, SLOTS } from './plan.js';
import { ip, run, runQuietlySync } from './run.js';
import { killPodsAndShims } from './teardown.js';

const ownerFile = (slot: number) => join(cacheDir(), 'slots', String(slot));

/**
 * Claims a free slot: `ip netns add` of the slot's namespace fails when another cluster holds
 * it, so two clusters starting at once never get the same addresses. A slot whose owner died
 * without stop() (a test run killed) is cleaned up and taken.
 */
export async function claimSlot(): Promise<number> {
  await mkdir(join(cacheDir(), 'slots'), { recursive: true });
  const first = Math.floor(Math.random() * SLOTS);
  for (let i = 0; i < SLOTS; i++) {
    const slot = (first + i) % SLOTS;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await run('ip', ['netns', 'add', netnsName(slot)]);
        await writeFile(ownerFile(slot), String(process.pid));
        return slot;
      } catch (err) {
        if (!/File exists/.test((err as Error).message)) throw err;
        const owner = Number(await readFile(ownerFile(slot), 'utf8').catch(() => '0'));
        if (attempt > 0 || owner === 0 || isAlive(owner)) break;
        await reclaim(slot);
      }
    }
  }
  throw new Error(`all ${SLOTS} network slots of real nodes are taken (ip netns list shows chaoskit-*)`);
}

/** What a dead owner left in a slot: its pods and shims, cgroups, namespaces, links and route. */
async function reclaim(slot: number): Promise<void> {
  const prefix = `${netnsName(slot)}-`;
  const names = (await run('ip', ['netns', 'list']))
    .split('\n')
    .map((line) => line.split(' ')[0] ?? '')
    .filter((name) => name.startsWith(prefix));
  // Shims stay in their node's namespace; pods in their node's cgroups.
  const pids = (await Promise.all(names.map((n) => run('ip', ['netns', 'pids', n]).catch(() => ''))))
    .join('\n')
    .split('\n')
    .filter(Boolean)
    .map(Number);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  killPodsAndShims(cgroupRoots(`/chaoskit-${slot}-`), []);
  removeNetwork(networkPlan(slot, Math.max(1, names.length)));
}

/** A sysctl inside a network namespace (/proc/sys/net belongs to the namespace that opens it). */
function sysctl(netns: string, key: string, value: string): Promise<string> {
  const path = `/proc/sys/${key.replaceAll('.', '/')}`;
  return run('nsenter', [`--net=/run/netns/${netns}`, '--', 'sh', '-c', `echo ${value} > ${path}`]);
}

/**
 * The slot's network: a bridge in its namespace; a veth from it to the host (the host end gets
 * the slot's .1, where pods reach the apiserver) and one to each node's namespace. Each node
 * routes to the others' pods through the bridge and has no default route; the host routes each
 * node's pods to that node and keeps the whole range unreachable beyond them.
 */
export async function createNetwork(plan: NetworkPlan): Promise<void> {
  const { netns, hostLink } = plan;
  await ip(netns, 'link', 'set', 'lo', 'up');
  await ip(netns, 'link', 'add', 'fabric', 'type', 'bridge');
  await ip(netns, 'link', 'set', 'fabric', 'up');
  await ip(undefined, 'link', 'add', hostLink, 'type', 'veth', 'peer', 'name', 'host', 'netns', netns);
  await ip(undefined, 'addr', 'add', `${plan.hostIp}/24`, 'dev', hostLink);
  await ip(undefined, 'link', 'set', hostLink, 'up');
  await ip(netns, 'link', 'set', 'host', 'master', 'fabric', 'up');
  for (const node of plan.nodes) {
    await run('ip', ['netns', 'add', node.netns]);
    await ip(node.netns, 'link', 'set', 'lo', 'up');
    await ip(netns, 'link', 'add', node.link, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', node.netns);
    await ip(netns, 'link', 'set', node.link, 'master', 'fabric', 'up');
    await ip(node.netns, 'addr', 'add', `${node.ip}/24`, 'dev', 'eth0');
    await ip(node.netns, 'link', 'set', 'eth0', 'up');
    await ip(node.netns, 'route', 'add', 'unreachable', RANGE);
    for (const other of plan.nodes.filter((n) => n !== node))
      await ip(node.netns, 'route', 'add', other.podCidr, 'via', other.ip);
    await sysctl(node.netns, 'net.ipv4.ip_forward', '1');
    // Traffic between two pods of one node crosses its bridge: kube-proxy and the policy
    // enforcer only see it with bridge netfilter on (a per-namespace setting).
    await sysctl(node.netns, 'net.bridge.bridge-nf-call-iptables', '1');
    await ip(undefined, 'route', 'add', node.podCidr, 'via', node.ip, 'dev', hostLink);
  }
  await ip(undefined, 'route', 'add', 'unreachable', RANGE, 'metric', String(plan.metric));
}

/**
 * Removes the slot's namespaces (their links, the bridge and the host's end of the link go with
 * them, and the host's routes through it) and the slot's unreachable route. Run once no process
 * is left in the namespaces; each step goes on when the one before failed.
 */
export function removeNetwork(plan: NetworkPlan): void {
  rmSync(ownerFile(plan.slot), { force: true });
  for (const node of plan.nodes) runQuietlySync('ip', ['netns', 'del', node.netns]);
  runQuietlySync('ip', ['link', 'del', plan.hostLink]);
  runQuietlySync('ip', ['netns', 'del', plan.netns]);
  runQuietlySync('ip', ['route', 'del', 'unreachable', RANGE, 'metric', String(plan.metric)]);
}
