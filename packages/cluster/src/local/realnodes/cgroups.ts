import { existsSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

// Each real node's kubelet keeps its pods under a cgroup root of its own (cgroupfs driver), so
// two clusters never share `kubepods`, and stop() finds every process a node started.

const CGROUP_FS = '/sys/fs/cgroup';

/** The mounted hierarchies: each v1 controller's directory, or the single v2 one. */
function hierarchies(): string[] {
  const mounts = readFileSync('/proc/self/mounts', 'utf8').split('\n');
  return mounts
    .map((line) => line.split(' '))
    .filter(([, target, type]) => (type === 'cgroup' || type === 'cgroup2') && target?.startsWith(CGROUP_FS))
    .map(([, target]) => target!);
}

/** Every hierarchy's directories whose path starts with `prefix` (e.g. /chaoskit-3-). */
export function cgroupRoots(prefix: string): string[] {
  const base = prefix.slice(1);
  return hierarchies().flatMap((h) =>
    readdirSync(h, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.startsWith(base))
      .map((e) => join(h, e.name)),
  );
}

/** Creates `root` (e.g. /chaoskit-3-0) in every hierarchy; returns its directories. */
export async function createCgroupRoot(root: string): Promise<string[]> {
  const dirs = hierarchies().map((h) => join(h, root));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  return dirs;
}

function subtree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const children = readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => subtree(join(dir, e.name)));
  return [...children, dir];
}

/** Every process in the cgroup subtrees. */
export function cgroupPids(dirs: string[]): number[] {
  const pids = new Set<number>();
  for (const dir of dirs) {
    for (const d of subtree(dir)) {
      try {
        for (const line of readFileSync(join(d, 'cgroup.procs'), 'utf8').split('\n'))
          if (line) pids.add(Number(line));
      } catch {
        // Removed meanwhile.
      }
    }
  }
  return [...pids];
}

/** Removes the subtrees, deepest first (a cgroup goes once its processes and children have). */
export function removeCgroups(dirs: string[]): string[] {
  const left: string[] = [];
  for (const dir of dirs) {
    for (const d of subtree(dir)) {
      try {
        rmdirSync(d);
      } catch {
        left.push(d);
      }
    }
  }
  return left;
}
