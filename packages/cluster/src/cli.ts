#!/usr/bin/env node
import { ensureBinaries, ensureIstiod, ensureMeshProbe } from './local/binaries.js';
import { start } from './start.js';
import type { LocalCluster, ProviderName } from './types.js';

const usage = `usage: chaoskit-cluster <command> [options]

commands:
  up [--nodes N] [--no-mesh | --istiod] [--provider local|k3s]
        start a disposable cluster, print how to use it, and stop it on Ctrl-C;
        --istiod also runs istiod (local provider)
  build [--istiod]
        build the local provider's binaries into the cache (a no-op when cached);
        --istiod adds istiod and the mesh traffic probe
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'build') {
    const bin: string[] = Object.values(await ensureBinaries());
    if (rest.includes('--istiod')) bin.push(await ensureIstiod(), await ensureMeshProbe());
    process.stdout.write(`${bin.join('\n')}\n`);
    return 0;
  }
  if (command !== 'up') {
    process.stderr.write(usage);
    return command === undefined || command === '--help' || command === 'help' ? 0 : 2;
  }
  let nodes = 2;
  let mesh: boolean | 'istiod' = true;
  let provider: ProviderName = 'local';
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--nodes') nodes = Number.parseInt(rest[++i] ?? '', 10);
    else if (arg === '--no-mesh') mesh = false;
    else if (arg === '--istiod') mesh = 'istiod';
    else if (arg === '--provider') provider = rest[++i] as ProviderName;
    else {
      process.stderr.write(`unknown option ${arg}\n${usage}`);
      return 2;
    }
  }
  if (!Number.isInteger(nodes) || nodes < 0) {
    process.stderr.write('--nodes takes a whole number\n');
    return 2;
  }
  if (provider === 'kubeconfig') {
    process.stderr.write('chaoskit-cluster up starts disposable clusters only: local or k3s\n');
    return 2;
  }
  const began = Date.now();
  const cluster = await start({ provider, nodes, mesh });
  const istiod = (cluster as Partial<LocalCluster>).istiod;
  process.stdout.write(
    [
      `cluster ready in ${((Date.now() - began) / 1000).toFixed(1)}s (${cluster.provider}, ${cluster.server})`,
      '',
      'point kubectl at it:',
      `  export KUBECONFIG=${cluster.kubeconfigPath}`,
      '  kubectl get nodes',
      ...(istiod ? ['', `istiod: plaintext xDS at ${istiod.xdsAddress}, webhook ${istiod.webhookUrl}`] : []),
      '',
      'press Ctrl-C to stop it (everything it created is removed)',
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  process.stdout.write('stopping…\n');
  await cluster.stop();
  process.stdout.write('stopped\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`chaoskit-cluster: ${err.message}\n`);
    process.exit(1);
  },
);
