#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  ensureBinaries,
  ensureBuilds,
  ensureImagePrograms,
  ensureIstiod,
  ensureJaeger,
  ensureKubeRouter,
  ensureMeshProbe,
  ensurePrometheus,
} from './host/binaries.js';
import { importArchive, realNodesIn } from './local/realnodes/import.js';
import { REAL_NODE_LABEL } from './local/realnodes/plan.js';
import { realNodeProblems } from './local/realnodes/preflight.js';
import { PROVIDER_NAMES } from './provider-names.js';
import { start } from './start.js';
import type { LocalCluster, ProviderName } from './types.js';
import { cleanStaleUps, removeUpState, runningUp, stopUps, writeUpState } from './up-state.js';

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a whole number, 0 or more');
  return n;
}

// A terminal closed under `up` must not turn its last lines into a crash.
const say = (line: string) => process.stdout.write(`${line}\n`);
process.stdout.on('error', () => {});

/**
 * Resolves, with the reason, when `up` is asked to stop: Ctrl-C, SIGTERM, SIGHUP (its terminal
 * closed), or the process that started it gone. `npx chaoskit-cluster up & … kill $!` kills
 * npx, which passes no signal on: `up` sees its parent change and stops as on SIGTERM.
 */
function stopRequest(): Promise<string> {
  return new Promise((resolve) => {
    const parent = process.ppid;
    const poll = setInterval(() => {
      if (process.ppid !== parent) done('the process that started it is gone');
    }, 500);
    const done = (why: string) => {
      clearInterval(poll);
      resolve(why);
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => done(signal));
  });
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
  .addOption(
    new Option('--provider <provider>', 'where to run')
      // up starts a cluster: a kubeconfig's is running already.
      .choices(PROVIDER_NAMES.filter((p) => p !== 'kubeconfig'))
      .default('local'),
  )
  .action(
    async (opts: {
      nodes: number;
      realNodes: number;
      mesh: boolean;
      istiod?: boolean;
      provider: ProviderName;
    }) => {
      const began = Date.now();
      // Listened for from the start: a stop asked for while the cluster starts stops it once up.
      const stopping = stopRequest();
      await cleanStaleUps(say);
      const mesh = opts.istiod ? 'istiod' : opts.mesh;
      const cluster = await start({
        provider: opts.provider,
        nodes: opts.nodes,
        realNodes: opts.realNodes,
        mesh,
      });
      await writeUpState(cluster);
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
          'press Ctrl-C to stop it, or run chaoskit-cluster down (everything it created is removed)',
          '',
        ].join('\n'),
      );
      say(`stopping (${await stopping})…`);
      await cluster.stop();
      await removeUpState();
      say('stopped');
    },
  );

program
  .command('down')
  .description(
    'stop the clusters chaoskit-cluster up started (found through its state files), and remove what a killed up left behind',
  )
  .action(async () => {
    if ((await stopUps(say)) === 0) say('no cluster started by chaoskit-cluster up is running');
  });

program
  .command('import')
  .description(
    "import an image archive (chaoskit image build's) into every real node of the cluster chaoskit-cluster up runs, and wait until each reports it",
  )
  .argument('<archive>', 'an OCI or docker image archive')
  .option(
    '--kubeconfig <path>',
    'the cluster, when several up run: the kubeconfig up printed (default: the one $KUBECONFIG names)',
  )
  .action(async (archive: string, opts: { kubeconfig?: string }) => {
    if (!existsSync(archive))
      throw new Error(
        `import: ${archive} names no file: give an image archive (chaoskit image build writes one)`,
      );
    const up = await runningUp(opts.kubeconfig);
    const nodes = up.dir ? await realNodesIn(up.dir) : [];
    if (nodes.length === 0)
      throw new Error(
        `the cluster of chaoskit-cluster up (pid ${up.pid}) has no real node to hold an image: start it with --real-nodes 1`,
      );
    const kc = new KubeConfig();
    kc.loadFromFile(up.kubeconfigPath);
    const images = await importArchive(kc, nodes, resolve(archive));
    say(`imported ${images.join(', ')} into ${nodes.map((n) => n.name).join(', ')}: each node reports it`);
  });

program
  .command('build')
  .description("build the local provider's binaries into the cache (a no-op when cached)")
  .option('--istiod', 'also istiod and the mesh traffic probe')
  .option('--real-nodes', "also what real nodes need: kube-router and the images' programs")
  .option('--observability', 'also Prometheus and Jaeger (@chaoskit/cluster/observability)')
  .action(async (opts: { istiod?: boolean; realNodes?: boolean; observability?: boolean }) => {
    // Real nodes' builds only where real nodes can run: kube-router is minutes of a cold build.
    const problems = opts.realNodes ? await realNodeProblems() : [];
    if (problems.length > 0)
      process.stderr.write(
        `chaoskit-cluster: real nodes cannot run here (${problems.join('; ')}): kube-router and the images are not built\n`,
      );
    const realNodes = opts.realNodes && problems.length === 0;
    // All at once (ensureBuilds); each then is a path read from the cache.
    const failed = await ensureBuilds([
      'control-plane',
      ...(opts.istiod ? (['istiod', 'meshprobe'] as const) : []),
      ...(realNodes ? (['kube-router', 'images'] as const) : []),
      ...(opts.observability ? (['prometheus', 'jaeger'] as const) : []),
    ]);
    if (failed.length > 0)
      throw new Error(
        failed.map(({ build, error }) => `could not build ${build}: ${error.message}`).join('; '),
      );
    const bin: string[] = Object.values(await ensureBinaries());
    if (opts.istiod) bin.push(await ensureIstiod(), await ensureMeshProbe());
    if (realNodes) bin.push(await ensureKubeRouter(), ...Object.values(await ensureImagePrograms()));
    if (opts.observability) bin.push(await ensurePrometheus(), await ensureJaeger());
    process.stdout.write(`${bin.join('\n')}\n`);
  });

program.parseAsync(process.argv).then(
  () => process.exit(process.exitCode ?? 0),
  (err: Error) => {
    process.stderr.write(`chaoskit-cluster: ${err.message}\n`);
    process.exit(1);
  },
);
