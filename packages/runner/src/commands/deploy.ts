// `chaoskit deploy`: an experiment as a Job (or a CronJob) in the cluster, with exactly the
// rights it needs (deploy/).
import { type AnyActivity, isApiError, type KubeClient, Nodes } from '@chaoskit/core';
import { redact } from '@chaoskit/core/runner';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { resolveActivity } from '../activities/resolve-activity.js';
import { deployClient } from '../cluster/choice.js';
import { missingNamespace } from '../cluster/namespace-hint.js';
import { applyManifests, describe } from '../deploy/apply.js';
import { environmentKeys, experimentFiles } from '../deploy/experiment-files.js';
import { checkSchedule, checkSecretName, experimentName, namespacesActedIn } from '../deploy/inputs.js';
import { deployManifests, type Manifest } from '../deploy/manifests.js';
import { type NodeView, placementWarnings } from '../deploy/placement.js';
import { REAPER, REAPER_SCHEDULE, reaperManifests } from '../deploy/reaper.js';
import { loadExperiment } from '../experiment/load.js';
import { activitiesOf, isObject } from '../experiment/raw.js';
import { DEFAULT_IMAGE, parseReference } from '../image/reference.js';
import { terminalText } from '../output/terminal.js';
import { lookupFor } from '../prepare/prepare.js';
import { EXIT } from '../run/exit-codes.js';
import { deploymentNamespace, ledgerTtlSeconds, withCluster } from './options.js';
import { FORMATS, type Format, printObjects } from './output.js';
import { fail, session } from './session.js';

interface DeployOptions {
  reaper?: boolean;
  schedule?: string;
  ledgerTtl?: string;
  namespace?: string;
  name?: string;
  image: string;
  envFromSecret?: string;
  dryRun?: 'client' | 'server';
  output?: Format;
  nodeSelector: string[];
  tolerate: string[];
  context?: string;
  kubeconfig?: string;
}

/** The chaoskit activities the experiment names, by `module.func` as it writes them. */
async function activitiesByName(raw: Record<string, unknown>): Promise<Map<string, AnyActivity>> {
  const found = new Map<string, AnyActivity>();
  for (const activity of activitiesOf(raw)) {
    const provider = activity.provider;
    if (!isObject(provider) || provider.type !== 'python') continue;
    if (typeof provider.module !== 'string' || typeof provider.func !== 'string') continue;
    const key = `${provider.module}.${provider.func}`;
    if (found.has(key)) continue;
    const target = await resolveActivity(provider.module, provider.func, lookupFor(raw)).catch(
      (err: Error) => {
        throw new Error(`activity '${String(activity.name)}': module '${provider.module}' ${err.message}`);
      },
    );
    found.set(key, target);
  }
  return found;
}

/**
 * Every object of the deployment, from the file and the options, and the environment variables
 * the experiment reads; no request.
 */
async function manifestsFor(
  file: string | undefined,
  opts: DeployOptions,
  namespace: string,
): Promise<{ manifests: Manifest[]; env: string[] }> {
  if (opts.reaper) {
    if (file || opts.name || opts.envFromSecret || opts.ledgerTtl)
      throw new InvalidArgumentError(
        '--reaper deploys no experiment: give no experiment file, --name, --env-from-secret or --ledger-ttl',
      );
    const manifests = reaperManifests({
      namespace,
      image: opts.image,
      schedule: opts.schedule ?? REAPER_SCHEDULE,
      ...placement(opts),
    });
    return { manifests, env: [] };
  }
  if (!file) throw new InvalidArgumentError('give the experiment file to deploy, or --reaper');
  if (opts.ledgerTtl) ledgerTtlSeconds(opts.ledgerTtl);
  const name = experimentName(file, opts.name);
  if (name === REAPER)
    throw new InvalidArgumentError(`the name '${REAPER}' is deploy --reaper's: give another with --name`);
  const raw = await loadExperiment(file);
  const { data } = experimentFiles(raw, file);
  const activities = await activitiesByName(raw);
  const manifests = deployManifests({
    name,
    namespace,
    image: opts.image,
    experiment: raw,
    data,
    activities: [...new Set(activities.values())],
    actsIn: namespacesActedIn(raw, activities, namespace),
    ...(opts.schedule ? { schedule: opts.schedule } : {}),
    ...(opts.ledgerTtl ? { ledgerTtl: opts.ledgerTtl } : {}),
    ...(opts.envFromSecret ? { envFromSecret: opts.envFromSecret } : {}),
    ...placement(opts),
  });
  return { manifests, env: environmentKeys(raw) };
}

/** The first namespace of the objects that does not exist, said as a hint (D163). */
async function missingIn(kube: KubeClient, manifests: readonly Manifest[]): Promise<Error | undefined> {
  const namespaces = new Set(manifests.flatMap((m) => (m.metadata.namespace ? [m.metadata.namespace] : [])));
  for (const namespace of namespaces) {
    const line = await missingNamespace(kube, namespace);
    if (line) return new Error(line);
  }
  return undefined;
}

/**
 * What the cluster's nodes say of the pod: whether any can run it and holds its image (D165,
 * D166). A deployer who may not list nodes is told nothing: the check is a courtesy, not a gate.
 */
async function nodeWarnings(kube: KubeClient, opts: DeployOptions): Promise<string[]> {
  let nodes: NodeView[];
  try {
    nodes = await kube.list<NodeView>(Nodes, {});
  } catch (err) {
    if (isApiError(err, 'Forbidden')) return [];
    throw err;
  }
  return placementWarnings(nodes, {
    image: parseReference(opts.image)!,
    imageText: opts.image,
    ...placement(opts),
  });
}

/** --image: a reference a container runtime pulls. */
function imageReference(value: string): string {
  if (!parseReference(value))
    throw new InvalidArgumentError(
      `'${value}' is not an image reference: [registry/]name[:tag][@digest], as ghcr.io/acme/chaoskit-runner:1.0.0`,
    );
  return value;
}

/** Where the pod may run: --node-selector and --tolerate. */
const placement = (opts: DeployOptions) => ({
  nodeSelector: Object.fromEntries(opts.nodeSelector.map((pair) => pair.split('=', 2) as [string, string])),
  tolerate: opts.tolerate,
});

const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

function nodeLabel(pair: string, previous: string[]): string[] {
  const [key = '', value] = pair.split('=', 2);
  if (value === undefined || !LABEL_KEY.test(key) || value.length > 63 || !LABEL_VALUE.test(value))
    throw new InvalidArgumentError(
      `--node-selector '${pair}': a node label as key=value (kubernetes.io/os=linux)`,
    );
  return [...previous, pair];
}

function taintKey(key: string, previous: string[]): string[] {
  if (!LABEL_KEY.test(key))
    throw new InvalidArgumentError(`--tolerate '${key}': a taint's key (node.kubernetes.io/unschedulable)`);
  return [...previous, key];
}

export function register(program: Command): void {
  withCluster(program.command('deploy'))
    .description(
      'run an experiment in the cluster: a Job (or a CronJob with --schedule) under a ServiceAccount holding exactly the rights it needs',
    )
    .argument('[experiment]', 'the experiment file (JSON or YAML)')
    .option(
      '--reaper',
      `instead of an experiment, a CronJob (--schedule, default '${REAPER_SCHEDULE}') running chaoskit revert --expired --yes on the namespace's records, acting as the runner of each (deployments grant it that) and holding nothing of its own`,
    )
    .option(
      '--schedule <cron>',
      'a CronJob on this schedule (never two runs at once) instead of one Job',
      checkSchedule,
    )
    .option(
      '--ledger-ttl <duration>',
      "the runs' --ledger-ttl: after how long what a killed run left counts as expired (revert --expired, the reaper)",
    )
    .option(
      '-n, --namespace <namespace>',
      "the namespace of the deployment, its record, and of activities given no ns (default: the kubeconfig context's, else default)",
    )
    .option('--name <name>', "the experiment's name in the cluster (default: the file's name)")
    .option(
      '--image <image>',
      'the runner image (chaoskit image build builds the default)',
      imageReference,
      DEFAULT_IMAGE,
    )
    .option(
      '--env-from-secret <secret>',
      "a Secret of the namespace whose keys are the pod's environment variables (what the experiment's type: env values read)",
      checkSecretName,
    )
    .option('--node-selector <key=value>', 'a node label the pod needs (repeatable)', nodeLabel, [])
    .option(
      '--tolerate <taint-key>',
      'a taint the pod tolerates, whatever its value and effect (repeatable)',
      taintKey,
      [],
    )
    .addOption(
      new Option(
        '--dry-run <mode>',
        'client: say what would be applied, no request; server: the apiserver checks every object, nothing changes',
      ).choices(['client', 'server']),
    )
    .addOption(
      new Option(
        '-o, --output <format>',
        'print the objects, applying nothing: multi-document YAML, or a JSON List',
      ).choices(FORMATS),
    )
    .action(async (file: string | undefined, opts: DeployOptions) => {
      let manifests: Manifest[];
      let env: string[];
      let namespace: string;
      try {
        namespace = deploymentNamespace(opts);
        ({ manifests, env } = await manifestsFor(file, opts, namespace));
      } catch (err) {
        session.exitCode = fail(err, err instanceof InvalidArgumentError ? EXIT.usage : EXIT.refused);
        return;
      }
      if (env.length && !opts.envFromSecret)
        process.stderr.write(
          `chaoskit: the experiment reads ${env.join(', ')} from the environment: give them in a Secret with --env-from-secret\n`,
        );
      if (opts.output) {
        // A key is never printed: whoever holds it may write the runner's records.
        const keys = manifests.filter((m) => m.kind === 'Secret');
        const notes = keys.map(
          (k) =>
            `The runner's key, which chaoskit deploy creates and this output leaves out (a key is never printed):\n  kubectl create secret generic ${k.metadata.name} -n ${k.metadata.namespace} --from-literal=key="$(head -c 32 /dev/urandom | base64)"`,
        );
        printObjects(
          manifests.filter((m) => m.kind !== 'Secret'),
          opts.output,
          notes,
        );
        return;
      }
      const say = (line: string) => process.stdout.write(`${redact(line)}\n`);
      if (opts.dryRun === 'client') {
        for (const manifest of manifests) say(`${describe(manifest)} would be applied (client dry run)`);
        return;
      }
      const kube = deployClient(opts, opts.dryRun === 'server');
      try {
        const warnings = await nodeWarnings(kube, opts);
        await applyManifests(kube, manifests, say);
        // Said once the objects are in place: a deployment refused (a missing namespace) is told
        // its one reason, not where its pod would have failed to run.
        for (const warning of warnings) process.stderr.write(`chaoskit: ${terminalText(warning)}\n`);
      } catch (err) {
        session.exitCode = fail(
          isApiError(err, 'NotFound') ? ((await missingIn(kube, manifests)) ?? err) : err,
        );
      }
    });
}
