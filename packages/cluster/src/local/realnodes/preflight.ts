import { existsSync, readFileSync } from 'node:fs';
import { BUSYBOX } from './images.js';
import { run } from './run.js';

// What a real node needs of this machine, each missing piece one line saying how to get it.
// Without them the local provider runs kwok-only (and says so in one line).

const APT = 'apt-get install -y';
const COMMANDS: Array<[string, string]> = [
  ['containerd', 'containerd'],
  ['containerd-shim-runc-v2', 'containerd'],
  ['ctr', 'containerd'],
  ['runc', 'runc'],
  ['buildah', 'buildah'],
  ['iptables', 'iptables'],
  ['iptables-save', 'iptables'],
  ['iptables-restore', 'iptables'],
  ['ipset', 'ipset'],
  ['ip', 'iproute2'],
  ['nsenter', 'util-linux'],
  ['unshare', 'util-linux'],
];
const CNI_PLUGINS = ['bridge', 'host-local', 'loopback'];
export const CNI_BIN_DIR = '/usr/lib/cni';

/** The Debian packages real nodes need (what `./dev` installs). */
export const REAL_NODE_PACKAGES = [
  'containerd',
  'runc',
  'containernetworking-plugins',
  'buildah',
  'iptables',
  'ipset',
  'busybox-static',
];

async function onPath(command: string): Promise<boolean> {
  return run('sh', ['-c', `command -v ${command}`]).then(
    () => true,
    () => false,
  );
}

/** Problems that keep real nodes from running here; empty when they can. */
export async function realNodeProblems(): Promise<string[]> {
  const problems: string[] = [];
  if (process.platform !== 'linux') return ['real nodes run on Linux only'];
  if (process.getuid?.() !== 0)
    problems.push('real nodes need root (network namespaces, mounts, cgroups): run as root');
  const missing = new Map<string, string[]>();
  for (const [command, pkg] of COMMANDS)
    if (!(await onPath(command))) missing.set(pkg, [...(missing.get(pkg) ?? []), command]);
  const plugins = CNI_PLUGINS.filter((p) => !existsSync(`${CNI_BIN_DIR}/${p}`));
  if (plugins.length)
    missing.set(
      'containernetworking-plugins',
      plugins.map((p) => `${CNI_BIN_DIR}/${p}`),
    );
  if (!existsSync(BUSYBOX) || !isStatic(BUSYBOX)) missing.set('busybox-static', [`a static ${BUSYBOX}`]);
  for (const [pkg, what] of missing) problems.push(`${what.join(', ')} not found: ${APT} ${pkg}`);
  const filesystems = readFileSync('/proc/filesystems', 'utf8');
  if (!/\toverlay$/m.test(filesystems))
    problems.push('the kernel has no overlayfs (containerd unpacks images onto it): modprobe overlay');
  const mounts = readFileSync('/proc/self/mounts', 'utf8');
  const v2 = / \/sys\/fs\/cgroup cgroup2 /.test(mounts);
  for (const controller of ['cpu', 'memory', 'pids']) {
    const mounted = v2
      ? readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes(controller)
      : new RegExp(` cgroup [^ ]*\\b${controller}\\b`).test(mounts);
    if (!mounted)
      problems.push(
        `the ${controller} cgroup controller is not mounted under /sys/fs/cgroup: the kubelet needs it`,
      );
  }
  return problems;
}

/** An ELF without a program interpreter is statically linked (it runs in a FROM scratch image). */
function isStatic(path: string): boolean {
  return !readFileSync(path).subarray(0, 4096).includes('/lib64/ld-linux');
}
