import { readdirSync, readFileSync } from 'node:fs';
import { cgroupPids, removeCgroups } from './cgroups.js';

// What stop() must end beyond the node agents themselves: the pods' processes (in the nodes'
// cgroups) and containerd's shims, which outlive containerd by design.

function kill(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** The shims serving one of these containerd sockets (their command line names it). */
export function shimPids(sockets: string[]): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args[0]?.includes('containerd-shim') && sockets.some((s) => args.includes(s)))
        pids.push(Number(entry));
    } catch {
      // Exited meanwhile.
    }
  }
  return pids;
}

/**
 * Kills every process left in the nodes' cgroups and every shim of their containerds, then
 * removes the cgroups. Synchronous, so that it also runs while this process exits.
 */
export function killPodsAndShims(cgroups: string[], sockets: string[]): string[] {
  for (let round = 0; round < 50; round++) {
    const pids = [...cgroupPids(cgroups), ...shimPids(sockets)];
    if (pids.length === 0) break;
    kill(pids);
    // Killed processes leave their cgroups a moment later.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  return removeCgroups(cgroups);
}
