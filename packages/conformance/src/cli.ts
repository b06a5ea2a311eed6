#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Cluster,
  containerEngineAvailable,
  ensureIstiod,
  ensureMeshProbe,
  type LocalCluster,
  PROVIDER_NAMES,
  type ProviderName,
  type StartOptions,
  start,
  xdsUnreachable,
} from '@chaoskit/cluster';
import { ApiextensionsV1Api, CoreV1Api, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { Command, Option } from 'commander';
import type { ConformanceCase } from './case.js';
import type { ClusterInfo } from './case-context.js';
import { discoverCases } from './cases/index.js';
import { differentialReport, runDifferential } from './differential/differential.js';
import { ensurePythonOriginals } from './differential/python-env.js';
import { scenarios } from './differential/scenarios.js';
import { apiErrorMessage, missingRights, missingRightsMessage } from './kit/access.js';
import { chaoskitActivities, coverageGaps } from './kit/coverage.js';
import { skippedByReason, summary, writeReports } from './kit/report.js';
import { runCases } from './kit/run-cases.js';
import { sweep } from './kit/sweep.js';
import { DEFAULT_TOOLBOX_IMAGE, localClusterInfo, runningOnCluster } from './running/cluster.js';

const say = (line: string) => process.stderr.write(`${line}\n`);

interface Options {
  provider: ProviderName;
  context?: string;
  kubeconfig?: string;
  only?: string;
  report: string;
  yes?: boolean;
  readOnly?: boolean;
  allowNodes?: boolean;
  comparePython?: boolean;
  meshCrds?: string;
  meshXds?: string;
  istiod: boolean;
  realNodes: boolean;
  toolboxImage: string;
}

async function main(opts: Options): Promise<number> {
  const discovered = await discoverCases();
  const allCases = discovered.map((d) => d.case);
  const groupOf = (c: ConformanceCase) => discovered.find((d) => d.case === c)?.group ?? 'other';
  // Coverage guard: every registered activity has a case, before anything starts.
  const gaps = coverageGaps(await chaoskitActivities(), allCases);
  if (gaps.uncovered.length || gaps.unknown.length) {
    say(
      `coverage guard: ${gaps.uncovered.length} activit(ies) without a case: ${gaps.uncovered.join(', ') || 'none'}`,
    );
    if (gaps.unknown.length)
      say(`coverage guard: cases of unregistered activities: ${gaps.unknown.join(', ')}`);
    return 1;
  }
  // --only: groups (pod, mesh…), activity names (terminate_pods) or qualified names.
  const only = opts.only ? new Set(opts.only.split(',').map((s) => s.trim())) : undefined;
  const picks = (c: ConformanceCase, token: string) =>
    token === groupOf(c) || token === c.activity.name || token === c.activity.qualifiedName;
  if (only) {
    const wrong = [...only].filter((token) => !allCases.some((c) => picks(c, token)));
    if (wrong.length) {
      say(
        `--only takes groups (${[...new Set(discovered.map((d) => d.group))].join(', ')}) or activity names; unknown: ${wrong.join(', ')}`,
      );
      return 2;
    }
  }
  let selected = allCases.filter((c) => !only || [...only].some((token) => picks(c, token)));
  if (opts.readOnly) selected = selected.filter((c) => c.activity.kind === 'probe');

  if (opts.provider === 'kubeconfig' && (!opts.context || !opts.yes)) {
    say(
      'on your own cluster the kit needs both --context NAME (the context to use, named explicitly) and --yes (it creates and deletes objects, in namespaces of its own)',
    );
    return 2;
  }
  if (opts.provider === 'k3s') {
    const engine = await containerEngineAvailable();
    if (!engine.available) {
      say(`k3s provider skipped: ${engine.reason}`);
      return 0;
    }
  }

  const started = new Date();
  say(`chaoskit conformance: ${selected.length} case(s), provider ${opts.provider}`);
  // The comparison with the Python originals needs the CRDs only.
  const { cluster, noIstiod } = await startCluster(
    opts,
    !opts.comparePython && selected.some((c) => c.needs?.mesh),
  );
  const kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  if (cluster.context) kc.setCurrentContext(cluster.context);
  // A disposable cluster's identity is its admin; a user's may not be.
  const missing = opts.provider === 'kubeconfig' ? await missingRights(kc) : [];
  if (missing.length) {
    say(missingRightsMessage(missing));
    await cluster.stop();
    return 2;
  }
  const scratch = await mkdtemp(join(tmpdir(), 'chaoskit-conformance-'));

  const runId = randomBytes(4).toString('hex');
  const controller = new AbortController();
  let interrupted = false;
  const onSignal = async () => {
    if (interrupted) return;
    interrupted = true;
    controller.abort();
    say('interrupted: removing everything the kit created…');
    const removed = await sweep(kc, { runId }).catch(() => []);
    say(`removed ${removed.length} object(s)`);
    await cluster.stop().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    if (opts.comparePython) return await compareWithPython(cluster, kc, scratch, runId, opts.report);
    const meshReady = await hasVirtualServices(kc);
    const info: ClusterInfo = {
      ...(await clusterInfo(cluster, kc, scratch, opts.toolboxImage)),
      runId,
      ...(meshReady && selected.some((c) => c.needs?.mesh)
        ? await meshDataPlane(cluster, opts, noIstiod)
        : {}),
    };
    const version = await kc.makeApiClient(VersionApi).getCode();
    const notes: string[] = [];
    const results = await runCases(info, selected, {
      log: say,
      signal: controller.signal,
      skip: (c) => {
        if (c.needs?.nodes && opts.provider !== 'local' && !opts.allowNodes)
          return 'node operations need --allow-nodes';
        // Its scenarios on kwok nodes skip one by one; those on running containers run.
        if (c.needs?.nodes && !info.fakeNodes && !c.scenarios.some((s) => s.running))
          return 'node cases need kwok managing nodes in this cluster';
        if (c.needs?.mesh && !meshReady)
          return 'the mesh CRDs (virtualservices.networking.istio.io) are not installed';
        return undefined;
      },
    });
    if (opts.readOnly) notes.push('read-only: probe cases only');
    const paths = await writeReports(opts.report, results, {
      provider: opts.provider,
      kubernetesVersion: version.gitVersion,
      server: cluster.server,
      started,
      notes,
    });
    const s = summary(results);
    const skipped = skippedByReason(results);
    if (skipped.length) say(`\nskipped on provider ${opts.provider}, and why:`);
    for (const group of skipped)
      say(`  ${group.reason}:\n${group.skipped.map((x) => `    - ${x}`).join('\n')}`);
    say(
      `\n${s.passed} of ${s.total} activities passed, ${s.failed} failed, ${s.skipped} skipped (${s.skippedScenarios} scenario(s) skipped in the cases that ran)`,
    );
    say(`report: ${paths.markdown}\njunit:  ${paths.junit}`);
    return s.failed > 0 ? 1 : 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!interrupted) {
      await sweep(kc, { runId }).catch(() => undefined);
      await cluster.stop();
      await rm(scratch, { recursive: true, force: true });
    }
  }
}

/**
 * The cluster to run on. Disposable clusters get Istio's CRDs and, when mesh cases run, a real
 * istiod for the traffic scenarios; a user's cluster gets nothing installed. Without istiod
 * (it could not be built or started, or --no-istiod) the mesh cases run on the CRDs alone, and
 * `noIstiod` says why.
 */
async function startCluster(
  opts: Options,
  meshCases: boolean,
): Promise<{ cluster: Cluster; noIstiod?: string }> {
  const base: StartOptions = {
    provider: opts.provider,
    // Real nodes where this machine can run them (else kwok-only, said in one line).
    ...(opts.provider === 'local' ? { nodes: 3, realNodes: opts.realNodes ? 2 : 0 } : {}),
    ...(opts.context ? { context: opts.context } : {}),
    ...(opts.kubeconfig ? { kubeconfigPath: opts.kubeconfig } : {}),
  };
  if (opts.provider === 'kubeconfig') return { cluster: await start({ ...base, mesh: false }) };
  const crds = opts.meshCrds ? { crdsPath: opts.meshCrds } : {};
  const withoutIstiod = () => start({ ...base, mesh: { enabled: true, ...crds } });
  if (!meshCases) return { cluster: await withoutIstiod() };
  if (!opts.istiod)
    return { cluster: await withoutIstiod(), noIstiod: 'istiod was turned off (--no-istiod)' };
  if (opts.provider === 'local') {
    try {
      await ensureIstiod(say);
    } catch (err) {
      const why = `istiod could not be built: ${firstLine(err)}`;
      say(`${why}; the mesh cases run on Istio's CRDs only`);
      return { cluster: await withoutIstiod(), noIstiod: why };
    }
  }
  try {
    return { cluster: await start({ ...base, mesh: { enabled: true, istiod: true, ...crds } }) };
  } catch (err) {
    if (opts.provider === 'local') throw err;
    const why = `istiod did not start on ${opts.provider}: ${firstLine(err)}`;
    say(`${why}; starting again with Istio's CRDs only`);
    return { cluster: await withoutIstiod(), noIstiod: why };
  }
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}

/**
 * Where the traffic scenarios find istiod (the disposable cluster's own, or --mesh-xds on a
 * user's cluster), checked with a real xDS request, and the traffic probe built; or why not.
 */
async function meshDataPlane(
  cluster: Cluster,
  opts: Options,
  noIstiod: string | undefined,
): Promise<Pick<ClusterInfo, 'meshXds' | 'noMeshXds'>> {
  const own = cluster.istiod?.xdsAddress;
  const address = own ?? opts.meshXds;
  if (!address) {
    if (opts.provider !== 'kubeconfig') return { noMeshXds: noIstiod ?? 'the cluster runs without istiod' };
    return {
      noMeshXds:
        'no istiod to send traffic through: give --mesh-xds HOST:PORT, the plaintext xDS port of your istiod as reachable from this machine (`kubectl port-forward -n istio-system svc/istiod 15010` gives 127.0.0.1:15010)',
    };
  }
  const problem = await xdsUnreachable(address);
  if (problem)
    return { noMeshXds: `${own ? "the cluster's istiod" : 'the istiod of --mesh-xds'}: ${problem}` };
  try {
    await ensureMeshProbe(say);
  } catch (err) {
    return {
      noMeshXds: `the traffic probe (meshprobe, built with Go) could not be built: ${firstLine(err)}`,
    };
  }
  return { meshXds: address };
}

async function compareWithPython(
  cluster: Cluster,
  kc: KubeConfig,
  scratch: string,
  runId: string,
  reportDir: string,
): Promise<number> {
  const chaos = await ensurePythonOriginals(say);
  const differences = await runDifferential({
    kc,
    kubeconfigPath: cluster.kubeconfigPath,
    chaos,
    workDir: join(scratch, 'differential'),
    runId,
    log: say,
  });
  await mkdir(reportDir, { recursive: true });
  const path = join(reportDir, 'differential.md');
  await writeFile(path, differentialReport(differences, scenarios.length));
  const unexpected = differences.filter((d) => !d.expected).length;
  say(
    `\n${differences.length} difference(s) with the Python originals: ${differences.length - unexpected} expected, ${unexpected} unexpected\nreport: ${path}`,
  );
  return unexpected > 0 ? 1 : 0;
}

async function clusterInfo(
  cluster: Cluster,
  kc: KubeConfig,
  scratch: string,
  toolboxImage: string,
): Promise<ClusterInfo> {
  if (cluster.provider === 'local') return localClusterInfo(cluster as LocalCluster, kc);
  // The case identities get the server's CA explicitly, as an experiment's secrets would.
  const current = kc.getCurrentCluster();
  let caFile = current?.caFile;
  if (!caFile && current?.caData) {
    caFile = join(scratch, 'ca.crt');
    await writeFile(caFile, Buffer.from(current.caData, 'base64'));
  }
  const nodes = await kc.makeApiClient(CoreV1Api).listNode();
  return {
    provider: cluster.provider,
    kc,
    server: cluster.server,
    ...(caFile ? { caFile } : {}),
    fakeNodes: nodes.items.some((n) => n.metadata?.annotations?.['kwok.x-k8s.io/node'] !== undefined),
    ...(await runningOnCluster(kc, toolboxImage)),
  };
}

async function hasVirtualServices(kc: KubeConfig): Promise<boolean> {
  return kc
    .makeApiClient(ApiextensionsV1Api)
    .readCustomResourceDefinition({ name: 'virtualservices.networking.istio.io' })
    .then(
      () => true,
      () => false,
    );
}

const program = new Command()
  .name('chaoskit-conformance')
  .description('Run every chaoskit activity against a disposable cluster or your own, and write a report.')
  .addOption(new Option('--provider <provider>', 'where to run').choices(PROVIDER_NAMES).default('local'))
  .option('--context <name>', 'kubeconfig provider: the context to use (required)')
  .option('--kubeconfig <path>', 'kubeconfig provider: the file (default KUBECONFIG, then ~/.kube/config)')
  .option(
    '--only <names>',
    'comma-separated groups (pod, node, deployment, networking, crd, deprecated, mesh) or activity names (terminate_pods)',
  )
  .option('--report <dir>', 'where to write conformance.md and conformance.junit.xml', './conformance-report')
  .option('--yes', 'kubeconfig provider: yes, create and delete objects in this cluster')
  .option('--read-only', 'run the probe cases only')
  .option('--allow-nodes', 'on a cluster that is not disposable, also run node operations')
  .option(
    '--mesh-crds <file>',
    "local/k3s: a YAML file of mesh CRDs to apply instead of Istio's (fetched through the Go module proxy)",
  )
  .option(
    '--mesh-xds <host:port>',
    "kubeconfig provider: your istiod's plaintext xDS port, reachable from here, for the mesh traffic scenarios",
  )
  .option(
    '--toolbox-image <ref>',
    'kubeconfig provider: the image of the scenarios on running containers (a busybox with sh, httpd, nc, sleep; pulled by your cluster)',
    DEFAULT_TOOLBOX_IMAGE,
  )
  .option('--no-istiod', "local/k3s: Istio's CRDs only, no istiod (the mesh traffic scenarios are skipped)")
  .option('--no-real-nodes', 'local: kwok nodes only (the scenarios on running containers are skipped)')
  .option(
    '--compare-python',
    'run the differential scenarios with the Python originals (from PyPI) and with chaoskit, and compare',
  )
  .action(async (opts: Options) => {
    process.exitCode = await main(opts);
  });

program.parseAsync(process.argv).catch((err: Error) => {
  say(`chaoskit-conformance: ${apiErrorMessage(err) ?? err.message}`);
  process.exitCode = 1;
});
