import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pollUntil } from '@chaoskit/core';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { RUN_LABEL } from '../case-context.js';
import { scenarios as allScenarios, type DiffScenario, type Snapshot, snapshot } from './scenarios.js';

export interface Difference {
  scenario: string;
  /** `output of <activity>`, `status of <activity>`, `objects: <kind>`, `experiment status`. */
  where: string;
  python: unknown;
  chaoskit: unknown;
  /** The documented deviation that explains it, or undefined: unexpected. */
  expected?: { id: string; reason: string };
}

interface Journal {
  status: string;
  run: Array<{
    activity: { name: string; type: string; provider: { module?: string; func?: string } };
    status: string;
    output: unknown;
  }>;
}

// The deviations chaoskit makes on purpose (docs/decisions.md, and the package READMEs). A difference
// that none of them explains is unexpected and fails the comparison.
const DEVIATIONS: Array<{
  id: string;
  reason: string;
  explains: (d: Difference, activity?: Journal['run'][number]) => boolean;
}> = [
  {
    id: 'returns-what-it-touched',
    reason:
      'chaoskit actions return what they touched (names, the random seed; D24); the originals return nothing',
    explains: (d, a) =>
      d.where.startsWith('output of') &&
      a?.activity.type === 'action' &&
      d.python === null &&
      d.chaoskit !== null,
  },
  {
    id: 'istio-result',
    reason:
      'chaostoolkit-istio returns a {status, body, headers} envelope; chaoskit returns the VirtualService itself (D52: the result is the updated virtual service)',
    explains: (d) =>
      d.where.startsWith('output of') &&
      isEnvelope(d.python) &&
      (d.python as { status: number }).status === 200,
  },
  {
    id: 'remove-abort-only',
    reason:
      'remove_abort_fault removes only the abort and keeps a delay, as its name says (D54); chaostoolkit-istio 0.1.4 removes the whole fault',
    explains: (d) => d.where === 'objects: virtualservices' && onlyV2FaultDiffers(d.python, d.chaoskit),
  },
  {
    id: 'delete-pods-no-grace',
    reason:
      'delete_pods deletes without a grace period, as documented (D26); the original sent an empty body, so the pods stay Terminating for their grace period',
    // The same pods, except that the original's are still Terminating.
    explains: (d) =>
      d.where === 'objects: pods' &&
      isDeepStrictEqual(
        (d.python as string[]).filter((p) => !p.endsWith(' (terminating)')),
        d.chaoskit,
      ),
  },
  {
    id: 'exec-result',
    reason:
      'exec_in_pods results carry the integer exit code, the real stderr and the container, status and timeout (D5); the originals give a string exit code and the status text as stderr',
    explains: (d, a) =>
      d.where.startsWith('output of') &&
      a?.activity.provider.func === 'exec_in_pods' &&
      Array.isArray(d.python) &&
      Array.isArray(d.chaoskit) &&
      d.python.every((p: Record<string, unknown>, i: number) => {
        const c = (d.chaoskit as Array<Record<string, unknown>>)[i] ?? {};
        return (
          c.pod_name === p.pod_name && c.stdout === p.stdout && Number(c.exit_code) === Number(p.exit_code)
        );
      }),
  },
];

function isEnvelope(v: unknown): boolean {
  return !!v && typeof v === 'object' && 'status' in v && 'body' in v && 'headers' in v;
}

function onlyV2FaultDiffers(python: unknown, chaoskit: unknown): boolean {
  const p = (python as Record<string, Array<{ name: string; fault?: Record<string, unknown> }>>).web ?? [];
  const c = (chaoskit as Record<string, Array<{ name: string; fault?: Record<string, unknown> }>>).web ?? [];
  const v2p = p.find((h) => h.name === 'v2');
  const v2c = c.find((h) => h.name === 'v2');
  const others = (l: typeof p) => l.filter((h) => h.name !== 'v2');
  return isDeepStrictEqual(others(p), others(c)) && !v2p?.fault && !!v2c?.fault?.delay && !v2c.fault.abort;
}

const VOLATILE = new Set([
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'managedFields',
  'generation',
  'selfLink',
  'continue',
]);

/** JSON with namespace names replaced and server-assigned metadata dropped. */
function normalize(value: unknown, ns: string): unknown {
  const text = JSON.stringify(value ?? null).replaceAll(ns, '<ns>');
  return JSON.parse(text, (key, v) =>
    VOLATILE.has(key)
      ? undefined
      : key === 'annotations' && v && typeof v === 'object'
        ? stripLastApplied(v)
        : v,
  );
}

function stripLastApplied(annotations: Record<string, unknown>) {
  const { 'kubectl.kubernetes.io/last-applied-configuration': _drop, ...rest } = annotations;
  return Object.keys(rest).length ? rest : undefined;
}

/** Runs a command to its end: its exit code and its output (stdout, then stderr). */
export function exec(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { env: { ...process.env, ...env }, cwd, maxBuffer: 1 << 24, timeout: 300_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

const require = createRequire(import.meta.url);
/** The `chaoskit` command of the installed runner. */
export const runnerCli = () =>
  join(dirname(require.resolve('@chaoskit/runner/package.json')), 'dist', 'bin.js');

/**
 * `chaoskit run --no-ledger` of the installed runner in `cwd`, on the context `context` of the
 * kubeconfig `kubeconfigPath` (a test cluster's), its journal written to `journal`; `args` after
 * those (the experiment file last).
 */
export function chaoskitRun(
  cluster: { kubeconfigPath: string; context: string },
  journal: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; output: string }> {
  return exec(
    process.execPath,
    [
      runnerCli(),
      'run',
      '--no-ledger',
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--context',
      cluster.context,
      '--journal-path',
      journal,
      ...args,
    ],
    {},
    cwd,
  );
}

export interface DifferentialOptions {
  kc: KubeConfig;
  /** An admin kubeconfig file both tools read (KUBECONFIG for Chaos Toolkit, CLUSTERCONFIG for chaoskit). */
  kubeconfigPath: string;
  chaos: string;
  workDir: string;
  runId: string;
  log?: (line: string) => void;
  scenarios?: DiffScenario[];
}

/**
 * Runs each scenario's experiment with the Python originals (`chaos run`) and with chaoskit,
 * each in a fresh namespace with the same fixtures, and lists every difference in the
 * journals (statuses, outputs) and in the objects left, each explained by a documented
 * deviation or marked unexpected.
 */
export async function runDifferential(options: DifferentialOptions): Promise<Difference[]> {
  const log = options.log ?? (() => {});
  const core = options.kc.makeApiClient(CoreV1Api);
  const differences: Difference[] = [];
  await mkdir(options.workDir, { recursive: true });
  let n = 0;
  for (const scenario of options.scenarios ?? allScenarios) {
    n++;
    const runs: Record<'python' | 'chaoskit', { ns: string; journal: Journal; objects: Snapshot }> =
      {} as never;
    for (const tool of ['python', 'chaoskit'] as const) {
      const ns = `ck-diff-${options.runId}-${n}-${tool === 'python' ? 'py' : 'ts'}`;
      await core.createNamespace({
        body: { metadata: { name: ns, labels: { [RUN_LABEL]: options.runId } } },
      });
      // Pods are refused until the namespace's default service account exists.
      await pollUntil(
        async () => (await core.listNamespacedServiceAccount({ namespace: ns })).items.length > 0,
        {
          what: `the service account of namespace ${ns}`,
          timeoutMs: 30_000,
          intervalMs: 50,
        },
      );
      try {
        await scenario.setup(options.kc, ns);
        const file = join(options.workDir, `${n}-${tool}.json`);
        const journalPath = join(options.workDir, `${n}-${tool}.journal.json`);
        await writeFile(file, JSON.stringify(scenario.experiment(ns), null, 2));
        const result =
          tool === 'python'
            ? await exec(
                options.chaos,
                ['--no-version-check', '--no-log-file', 'run', '--journal-path', journalPath, file],
                { KUBECONFIG: options.kubeconfigPath },
                options.workDir,
              )
            : await exec(
                process.execPath,
                // The originals have no safety rails (D74): opened, so that both do the same.
                [
                  runnerCli(),
                  'run',
                  '--journal-path',
                  journalPath,
                  '--max-pod-share',
                  '1',
                  '--allow-all-nodes',
                  file,
                ],
                { CLUSTERCONFIG: options.kubeconfigPath, KUBECONFIG: '' },
                options.workDir,
              );
        const journal = JSON.parse(await readFile(journalPath, 'utf8').catch(() => 'null')) as Journal | null;
        if (!journal)
          throw new Error(`${tool} wrote no journal (exit ${result.code}): ${result.output.slice(-2000)}`);
        runs[tool] = { ns, journal, objects: await snapshot(options.kc, ns) };
      } finally {
        await core.deleteNamespace({ name: ns }).catch(() => undefined);
      }
    }
    const { python, chaoskit } = runs;
    const add = (where: string, p: unknown, c: unknown, activity?: Journal['run'][number]) => {
      const d: Difference = { scenario: scenario.name, where, python: p, chaoskit: c };
      const rule = DEVIATIONS.find((r) => r.explains(d, activity));
      if (rule) d.expected = { id: rule.id, reason: rule.reason };
      differences.push(d);
    };
    if (python.journal.status !== chaoskit.journal.status)
      add('experiment status', python.journal.status, chaoskit.journal.status);
    python.journal.run.forEach((p, i) => {
      const c = chaoskit.journal.run[i];
      const name = p.activity.name;
      if (p.status !== c?.status) add(`status of ${name}`, p.status, c?.status, p);
      const po = normalize(p.output, python.ns);
      const co = normalize(c?.output, chaoskit.ns);
      if (!isDeepStrictEqual(po, co)) add(`output of ${name}`, po, co, p);
    });
    for (const kind of ['pods', 'deployments', 'networkpolicies', 'virtualservices'] as const) {
      const po = normalize(python.objects[kind], python.ns);
      const co = normalize(chaoskit.objects[kind], chaoskit.ns);
      if (!isDeepStrictEqual(po, co)) add(`objects: ${kind}`, po, co);
    }
    const mine = differences.filter((d) => d.scenario === scenario.name);
    log(
      `${mine.some((d) => !d.expected) ? '✗' : '✓'} ${scenario.name}: ${mine.length} difference(s), ${mine.filter((d) => !d.expected).length} unexpected`,
    );
  }
  return differences;
}

export function differentialReport(differences: readonly Difference[], scenarioCount: number): string {
  const unexpected = differences.filter((d) => !d.expected);
  const show = (v: unknown) => `\`${JSON.stringify(v)?.slice(0, 300)}\``;
  const lines = [
    '# chaoskit vs the Python originals',
    '',
    `${scenarioCount} scenarios run with \`chaos run\` (chaostoolkit-kubernetes 0.25.1, chaostoolkit-istio 0.1.4) and with \`chaoskit run\`, each in a fresh namespace with the same objects.`,
    '',
    `- **${unexpected.length} unexpected difference(s)**`,
    `- ${differences.length - unexpected.length} expected difference(s), each a documented deviation`,
    '',
    '## Expected differences',
    '',
    '| scenario | where | deviation | reason |',
    '| --- | --- | --- | --- |',
    ...differences
      .filter((d) => d.expected)
      .map((d) => `| ${d.scenario} | ${d.where} | ${d.expected!.id} | ${d.expected!.reason} |`),
  ];
  if (unexpected.length) {
    lines.push(
      '',
      '## Unexpected differences',
      '',
      '| scenario | where | Python | chaoskit |',
      '| --- | --- | --- | --- |',
    );
    lines.push(
      ...unexpected.map((d) => `| ${d.scenario} | ${d.where} | ${show(d.python)} | ${show(d.chaoskit)} |`),
    );
  }
  return `${lines.join('\n')}\n`;
}
