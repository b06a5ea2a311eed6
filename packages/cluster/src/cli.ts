#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import { ensureBinaries, ensureIstiod, ensureMeshProbe } from './local/binaries.js';
import { REAL_NODE_LABEL } from './local/realnodes/plan.js';
import { start } from './start.js';
import type { LocalCluster, ProviderName } from './types.js';

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a whole number, 0 or more');
  return n;
}

const program = new Command()
  .name('chaoskit-cluster')
  .description('Disposable Kubernetes clusters for chaoskit: a local control plane with kwok, or k3s.')
  .showHelpAfterError();

program
  .command('up')
  .description('start a disposable cluster, print how to use it, and stop it on Ctrl-C')
  .option('--nodes <n>', 'how many kwok nodes (local)', count, 2)
  .option(
    '--real-nodes <n>',
    'how many real nodes, running containers (local; needs root and Debian packages)',
    count,
    0,
  )
  .option('--no-mesh', "do not apply Istio's CRDs")
  .option('--istiod', "also run a real istiod (local: on 127.0.0.1; k3s: Istio's pilot image)")
  .addOption(new Option('--provider <provider>', 'where to run').choices(['local', 'k3s']).default('local'))
  .action(
    async (opts: {
      nodes: number;
      realNodes: number;
      mesh: boolean;
      istiod?: boolean;
      provider: ProviderName;
    }) => {
      const began = Date.now();
      const mesh = opts.istiod ? 'istiod' : opts.mesh;
      const cluster = await start({
        provider: opts.provider,
        nodes: opts.nodes,
        realNodes: opts.realNodes,
        mesh,
      });
      const local = cluster as Partial<LocalCluster>;
      const istiod = cluster.istiod;
      const webhook = local.istiod?.webhookUrl;
      process.stdout.write(
        [
          `cluster ready in ${((Date.now() - began) / 1000).toFixed(1)}s (${cluster.provider}, ${cluster.server})`,
          `mesh: ${cluster.mesh ? `${cluster.mesh.source} (${cluster.mesh.crds.length} CRDs)` : 'none'}`,
          ...(istiod
            ? [`istiod: plaintext xDS at ${istiod.xdsAddress}${webhook ? `, webhook ${webhook}` : ''}`]
            : []),
          ...(local.realNodes?.length
            ? [
                `real nodes: ${local.realNodes.join(', ')} (tainted ${REAL_NODE_LABEL}=true:NoSchedule)`,
                `images: ${Object.values(local.images ?? {}).join(', ')}`,
              ]
            : []),
          '',
          `point kubectl (or chaoskit, chaoskit-conformance --context ${cluster.context}) at it:`,
          `  export KUBECONFIG=${cluster.kubeconfigPath}`,
          '  kubectl get nodes',
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
    },
  );

program
  .command('build')
  .description("build the local provider's binaries into the cache (a no-op when cached)")
  .option('--istiod', 'also istiod and the mesh traffic probe')
  .action(async (opts: { istiod?: boolean }) => {
    const bin: string[] = Object.values(await ensureBinaries());
    if (opts.istiod) bin.push(await ensureIstiod(), await ensureMeshProbe());
    process.stdout.write(`${bin.join('\n')}\n`);
  });

program.parseAsync(process.argv).then(
  () => process.exit(process.exitCode ?? 0),
  (err: Error) => {
    process.stderr.write(`chaoskit-cluster: ${err.message}\n`);
    process.exit(1);
  },
);
