// The kit's command as users run it, for the tests that drive it (`./dev test` builds it first).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const KIT_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Runs the kit in `cwd`; its exit code and what it said on stderr (its report goes to files). */
export function runKit(cwd: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [KIT_CLI, ...args], { cwd, maxBuffer: 1 << 26 }, (err, _out, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
}

/** The kit pointed at a cluster through its kubeconfig, as a user runs it on theirs. */
export const onKubeconfig = (cluster: { kubeconfigPath: string; context: string }): string[] => [
  '--provider',
  'kubeconfig',
  '--kubeconfig',
  cluster.kubeconfigPath,
  '--context',
  cluster.context,
  '--yes',
];
