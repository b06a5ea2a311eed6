// `./dev bench` (and `npm run bench`): chaoskit against the Python originals, kubectl and the
// reference client (client-go at full speed: what the apiserver allows), in one
// run, on one local cluster, every tool as its own identity so that the audit log counts each
// one's requests. Numbers to report, not assertions: the method heads every report (report.mjs).
//
//   node bench/run.mjs [--nodes 100] [--pods 5000] [--repeats 5] [--only count,drain] [--out bench/results]
//   node bench/run.mjs --tiny      3 nodes, 50 pods, 1 repeat: proves the bench works (CI)
//   node bench/run.mjs --tools chaoskit,reference   only these tools' variants (a quicker look)
//   node bench/run.mjs --limit 120   a process still running after 120 s is killed, reported as
//                                    not finished, and not run again (the Python originals at 100,000 pods)
// The report is written after each scenario: a run stopped (Ctrl-C) keeps the scenarios it finished.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBenchReference } from '../packages/cluster/dist/index.js';
import {
  ensurePythonOriginals,
  PYTHON_ORIGINALS,
} from '../packages/conformance/dist/differential/python-env.js';
import { startFixture, TOOLS } from './fixture.mjs';
import { AuditTail, measureProcess, stats } from './measure.mjs';
import { markdownReport } from './report.mjs';
import { experimentOf, scenarios } from './scenarios.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '100' },
    pods: { type: 'string', default: '5000' },
    repeats: { type: 'string', default: '5' },
    only: { type: 'string' },
    tools: { type: 'string' },
    limit: { type: 'string' },
    out: { type: 'string', default: join(root, 'bench', 'results') },
    tiny: { type: 'boolean', default: false },
  },
});
const tiny = values.tiny;
const NODES = tiny ? 3 : Number(values.nodes);
const PODS = tiny ? 50 : Number(values.pods);
const REPEATS = tiny ? 1 : Number(values.repeats);
const only = values.only?.split(',');
const LIMIT = values.limit === undefined ? undefined : Number(values.limit);
if (LIMIT !== undefined && !(LIMIT > 0)) {
  process.stderr.write(`bench: --limit takes a number of seconds above 0; not '${values.limit}'\n`);
  process.exit(2);
}
const tools = values.tools?.split(',');
const unknownTool = tools?.find((t) => !TOOLS.includes(t));
if (unknownTool) {
  process.stderr.write(
    `bench: --tools takes ${TOOLS.join(', ')} (separated by commas); not '${unknownTool}'\n`,
  );
  process.exit(2);
}
const log = (line) => process.stderr.write(`bench: ${line}\n`);

const chaos = await ensurePythonOriginals(log);
const python = join(dirname(chaos), 'python');
const chaoskit = join(root, 'packages', 'runner', 'dist', 'bundle', 'chaoskit.mjs');
// The single file (D157), the runner image's payload: built from the same build when missing or older.
const single = join(root, 'packages', 'runner', 'dist', 'single', 'chaoskit');
execFileSync(
  process.execPath,
  [join(root, 'packages', 'runner', 'scripts', 'executable.mjs'), '--if-stale'],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
// Built here, not by `./dev setup`: only the bench runs it.
const reference = await ensureBenchReference(log);
const scratch = await mkdtemp(join(tmpdir(), 'chaoskit-bench-'));
log(`starting a local cluster of ${NODES} nodes and ${PODS} pods…`);
// Ctrl-C or a kill: the cluster goes with the bench (while it starts, the cluster package's
// exit hook kills what has started).
let fx;
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    log(`${signal}: stopping the cluster…`);
    const code = signal === 'SIGINT' ? 130 : 143;
    const cleanUp = () => rm(scratch, { recursive: true, force: true }).finally(() => process.exit(code));
    if (!fx) cleanUp();
    else fx.stop().finally(cleanUp);
  });
fx = await startFixture({ nodes: NODES, pods: PODS, log, scratch });
const audit = new AuditTail(
  fx.cluster.auditLogPath,
  Object.values(fx.identities).map((i) => i.user),
);
await audit.read();

/** The ways each scenario is run, whole process or in process, and as whom. */
function variants(scenario, file) {
  const steps = JSON.stringify(scenario.steps);
  const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  const one = scenario.steps.length === 1 ? scenario.steps[0] : undefined;
  const list = [
    {
      name: 'chaoskit run',
      tool: 'chaoskit',
      journal: `${file}.chaoskit.journal`,
      command: () => `node ${chaoskit} run ${file} --journal-path ${file}.chaoskit.journal`,
    },
    {
      name: 'chaoskit one file',
      tool: 'chaoskit',
      journal: `${file}.single.journal`,
      command: () => `${single} run ${file} --journal-path ${file}.single.journal`,
    },
    {
      name: 'python run',
      tool: 'python',
      journal: `${file}.python.journal`,
      command: () =>
        `${chaos} --no-version-check --no-log-file run --journal-path ${file}.python.journal ${file}`,
    },
    { name: 'kubectl', tool: 'kubectl', command: (prepared) => scenario.kubectl(prepared) },
    {
      name: 'chaoskit in-process',
      tool: 'chaoskit',
      inProcess: true,
      command: () => `node ${join(root, 'bench', 'in-process.mjs')} ${quote(steps)}`,
    },
    {
      name: 'python in-process',
      tool: 'python',
      inProcess: true,
      command: () => `${python} ${join(root, 'bench', 'in-process.py')} ${quote(steps)}`,
    },
  ];
  if (scenario.reference)
    list.push({
      name: 'reference',
      tool: 'reference',
      command: () => [reference, ...scenario.reference].map(quote).join(' '),
    });
  if (one)
    list.splice(1, 0, {
      name: 'chaoskit call',
      tool: 'chaoskit',
      command: () =>
        `node ${chaoskit} call ${one.module} ${one.func} --arguments ${quote(JSON.stringify(one.args))}`,
    });
  return tools ? list.filter((v) => tools.includes(v.tool)) : list;
}

const version = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim().split('\n')[0];
  } catch {
    return 'unknown';
  }
};
// Another size than the default is a run of its own, beside the default one (the README's table).
const name = tiny ? 'tiny' : PODS === 5000 ? 'latest' : `latest-${PODS}-pods`;
const versions = {
  node: process.version,
  python: version(python, ['--version']),
  originals: PYTHON_ORIGINALS,
  kubectl: version(fx.kubectl, ['version', '--client']),
};
/** The report of the scenarios done so far: written after each, so a run stopped keeps them. */
async function writeReport(results) {
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30) },
    versions,
    cluster: { nodes: NODES, pods: fx.sizes, startSeconds: fx.clusterStart },
    repeats: REPEATS,
    ...(LIMIT ? { limitSeconds: LIMIT } : {}),
    scenarios: results,
  };
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(values.out, `${name}.md`), markdownReport(report));
}

const results = [];
try {
  for (const scenario of scenarios(fx)) {
    if (only && !only.includes(scenario.id)) continue;
    const file = join(scratch, `${scenario.id}.json`);
    await writeFile(file, JSON.stringify(experimentOf(scenario), null, 2));
    const runs = {};
    log(scenario.title);
    for (let repeat = 1; repeat <= REPEATS; repeat++) {
      for (const variant of variants(scenario, file)) {
        if (runs[variant.name]?.stopped) continue;
        if (scenario.reset) await fx.reset[scenario.reset]();
        const prepared = scenario.prepare ? await scenario.prepare() : undefined;
        const { user, kubeconfig } = fx.identities[variant.tool];
        const env = {
          ...process.env,
          KUBECONFIG: kubeconfig,
          KUBECTL: `${fx.kubectl} --kubeconfig=${kubeconfig}`,
          // The run's record in a namespace of its own (chaoskit run keeps one by default).
          CHAOSKIT_LEDGER_NAMESPACE: 'bench-identities',
        };
        delete env.CLUSTERCONFIG;
        const m = await measureProcess(variant.command(prepared), {
          env,
          cwd: scratch,
          scratch,
          limitSeconds: LIMIT,
        });
        const requests = await audit.between(user, m.started, m.ended);
        runs[variant.name] ??= {
          seconds: [],
          inProcess: [],
          rssMb: [],
          requests: [],
          firstRequestMs: [],
          failures: [],
        };
        const record = runs[variant.name];
        if (m.stopped) {
          record.stopped = LIMIT;
          log(
            `  ${repeat}/${REPEATS} ${variant.name}: still running after ${LIMIT} s, killed; not run again`,
          );
          continue;
        }
        // A run that leaves its change in place (a drain's cordon, no rollback) exits 5 (D89);
        // the scenario's reset undoes the change before the next run.
        const leftInPlace = m.code === 5 && variant.tool === 'chaoskit' && scenario.reset;
        if (m.code !== 0 && !leftInPlace)
          record.failures.push(
            `exit ${m.code}: ${(m.stderr || m.stdout).trim().split('\n').slice(-3).join(' | ')}`,
          );
        // A runner completes an experiment whose activities failed: its journal says so.
        if (variant.journal) {
          const journal = JSON.parse(await readFile(variant.journal, 'utf8').catch(() => '{}'));
          for (const a of journal.run ?? [])
            if (a.status !== 'succeeded')
              record.failures.push(
                `${a.activity?.name}: ${String(a.exception?.at?.(-1) ?? a.status)
                  .trim()
                  .slice(0, 300)}`,
              );
        }
        record.seconds.push(m.seconds);
        record.inProcess.push(m.inProcess);
        record.rssMb.push(m.rssMb);
        record.requests.push(requests.length);
        record.firstRequestMs.push(
          requests.length ? Math.min(...requests.map((e) => e.at)) - m.started : undefined,
        );
        log(
          `  ${repeat}/${REPEATS} ${variant.name}: ${(variant.inProcess ? m.inProcess : m.seconds)?.toFixed(3)} s, ${requests.length} requests, ${m.rssMb.toFixed(0)} MB${m.code ? ` (exit ${m.code})` : ''}`,
        );
      }
    }
    results.push({
      id: scenario.id,
      title: scenario.title,
      variants: Object.fromEntries(
        Object.entries(runs).map(([name, r]) => [
          name,
          {
            seconds: stats(r.seconds),
            inProcessSeconds: stats(r.inProcess),
            rssMb: stats(r.rssMb),
            requests: stats(r.requests),
            firstRequestMs: stats(r.firstRequestMs),
            failures: r.failures,
            ...(r.stopped ? { stoppedAfterSeconds: r.stopped } : {}),
          },
        ]),
      ),
    });
    await writeReport(results);
  }
} finally {
  await fx.stop();
  await rm(scratch, { recursive: true, force: true });
}

log(`written: ${join(values.out, `${name}.json`)} and ${name}.md`);
const failed = results.flatMap((s) =>
  Object.entries(s.variants).flatMap(([v, r]) => r.failures.map((f) => `${s.id} · ${v}: ${f}`)),
);
if (failed.length) {
  log(`failures:\n  ${failed.join('\n  ')}`);
  process.exitCode = 1;
}
