// chaoskit as a user gets it: every package packed as a release would pack it (versions and
// CHANGELOGs from the changesets), installed from the tarballs into a project outside the
// repository, and used there — the CLIs against a cluster they start, the conformance kit on a
// local cluster and on a kubeconfig, and a typed import under a strict compiler.

import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { SourceMap } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, nativeTsc } from './lsp.js';
import { npmInstall, releaseTarballs, runAsync } from './release.js';
import { repoRoot } from './repo.js';

let scratch: string;
let project: string;
let runnerAlone: string;
let runnerAloneInstall: ReturnType<typeof runAsync> | undefined;
let withTelemetry: string;
let withTelemetryInstall: ReturnType<typeof runAsync> | undefined;

/** An experiment that needs no cluster: one process probe. */
const PROCESS_ONLY = {
  title: 'one process',
  description: 'needs no cluster',
  method: [{ type: 'probe', name: 'true', provider: { type: 'process', path: 'true' } }],
};

/** What an install takes, in MiB (du -m): on disk (4 KiB blocks here) and of its files' bytes. */
function installSize(dir: string) {
  const du = (...flags: string[]) =>
    Number(
      execFileSync('du', ['-sm', ...flags, join(dir, 'node_modules')], { encoding: 'utf8' }).split('\t')[0],
    );
  return { disk: du(), files: du('--apparent-size') };
}

let up: ChildProcess | undefined;
let kubeconfig = '';
let context = '';
const versions = new Map<string, string>();

/**
 * A command run without blocking the worker: the tests of this file run at once, and one of them
 * serves an OTLP collector from this event loop, which a synchronous child would stall.
 */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runAsync(command, args, { cwd: options.cwd ?? project, env: options.env });
}

/** Prints a step's command and output, as CI's log of this test. */
function show(step: string, out: { code: number; stdout: string; stderr: string }) {
  const tail = (text: string) => text.trim().split('\n').slice(-12).join('\n');
  process.stdout.write(`\n$ ${step}\nexit ${out.code}\n${tail(out.stdout)}\n${tail(out.stderr)}\n`);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'chaoskit-release-'));
  // 1. The tarballs as a release would pack them (release.ts), shared with the other files.
  const release = await releaseTarballs();
  // chaoskit's packages (the repository's example extension is packed too, and installed).
  for (const entry of release.packed)
    if (entry.name.startsWith('@chaoskit/')) versions.set(entry.name, entry.version);
  // @chaoskit/runner and @chaoskit/core alone (for the install size and the ECharts test), and
  // with @chaoskit/telemetry beside them, each in an empty directory, installed in the background:
  // npm's minute of resolving overlaps the project's install and the cluster tests. npm's warnings
  // are kept: an install script's is one the tests look for.
  const alone = (name: string, packages: string[]) => {
    const dir = join(scratch, name);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
    writeFileSync(join(dir, 'probe.json'), JSON.stringify(PROCESS_ONLY));
    return [dir, npmInstall(dir, packages.map(release.tarball), { warnings: true })] as const;
  };
  [runnerAlone, runnerAloneInstall] = alone('runner-alone', ['@chaoskit/runner', '@chaoskit/core']);
  [withTelemetry, withTelemetryInstall] = alone('with-telemetry', [
    '@chaoskit/runner',
    '@chaoskit/core',
    '@chaoskit/telemetry',
  ]);

  // 2. A user's project, outside the repository, with the tarballs installed (npm's registry
  //    for everything else) and TypeScript for the typed import.
  project = join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  const install = await npmInstall(project, [
    ...release.packed.map((p) => release.tarball(p.name)),
    `typescript@${JSON.parse(readFileSync(join(repoRoot, 'node_modules/typescript/package.json'), 'utf8')).version}`,
  ]);
  show('npm install <every tarball> typescript', install);
  if (install.code !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  cpSync(join(repoRoot, 'examples'), join(project, 'examples'), { recursive: true });
}, 600_000);

afterAll(async () => {
  await runnerAloneInstall?.catch(() => undefined);
  await withTelemetryInstall?.catch(() => undefined);
  if (up && up.exitCode === null) {
    up.kill('SIGINT');
    await new Promise((r) => up!.once('exit', r));
  }
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the released tarballs, installed in a project outside the repository', () => {
  it("carry the seeds' first versions, a CHANGELOG and the LICENSE", () => {
    for (const name of versions.keys()) {
      if (name.startsWith('@chaoskit/chaoscluster-')) expect(versions.get(name), name).toBe('0.25.1');
    }
    expect(versions.get('@chaoskit/chaosmesh-fault')).toBe('0.1.4');
    for (const name of [
      '@chaoskit/core',
      '@chaoskit/runner',
      '@chaoskit/cluster',
      '@chaoskit/conformance',
      '@chaoskit/vitest',
      '@chaoskit/telemetry',
    ])
      expect(versions.get(name), name).toBe('0.1.0');
    for (const name of versions.keys()) {
      const dir = join(project, 'node_modules', name);
      expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'), name).toContain(`## ${versions.get(name)}`);
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8'), name).toContain('Apache License');
    }
    // Nothing resolvable above the project: no `shared` reference directory, no repository.
    expect(project.startsWith(repoRoot)).toBe(false);
  });

  it('every CLI answers --help', async () => {
    const bins = ['chaoskit', 'chaoskit-cluster', 'chaoskit-conformance'];
    const outs = await Promise.all(
      bins.map((bin) => runAsync('npx', ['--no-install', bin, '--help'], { cwd: project })),
    );
    for (const [i, bin] of bins.entries()) {
      expect(outs[i]!.code, `${bin}: ${outs[i]!.stderr}`).toBe(0);
      expect(outs[i]!.stdout).toContain(`Usage: ${bin}`);
    }
  });

  it('starts a cluster with chaoskit-cluster up, then validates and runs an example experiment on it', async () => {
    // The installed bin itself (what npx runs), so that Ctrl-C's SIGINT reaches it directly.
    up = spawn(join(project, 'node_modules', '.bin', 'chaoskit-cluster'), ['up', '--nodes', '3'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    up.stdout!.on('data', (chunk) => (printed += chunk));
    up.stderr!.on('data', (chunk) => (printed += chunk));
    const deadline = Date.now() + 300_000;
    while (!/press Ctrl-C to stop it/.test(printed)) {
      if (up.exitCode !== null || Date.now() > deadline)
        throw new Error(`chaoskit-cluster up did not start:\n${printed}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    process.stdout.write(`\n$ chaoskit-cluster up --nodes 3\n${printed}`);
    expect(printed).toMatch(/mesh: Istio's CRDs from istio\.io\/api v[\d.]+ \(\d+ CRDs\)/);
    kubeconfig = /export KUBECONFIG=(\S+)/.exec(printed)![1]!;
    context = /--context (\S+)\)/.exec(printed)![1]!;
    const env = { KUBECONFIG: kubeconfig };

    const deployed = await run(
      'npx',
      [
        '--no-install',
        'chaoskit',
        'call',
        'chaoscluster.deployment.actions',
        'create_deployment',
        '--arguments',
        JSON.stringify({ spec_path: 'examples/app/web.yaml', ns: 'default' }),
      ],
      { env },
    );
    show('npx chaoskit call chaoscluster.deployment.actions create_deployment', deployed);
    expect(deployed.code, deployed.stderr).toBe(0);

    const experiment = 'examples/experiments/kill-web-pods.yaml';
    const validate = await run('npx', ['--no-install', 'chaoskit', 'validate', experiment], { env });
    show(`npx chaoskit validate ${experiment}`, validate);
    expect(validate.stdout).toContain('experiment syntax and semantic look valid');
    const runOut = await run(
      'npx',
      ['--no-install', 'chaoskit', 'run', experiment, '--journal-path', 'journal.json'],
      { env },
    );
    show(`npx chaoskit run ${experiment}`, runOut);
    expect(runOut.code, runOut.stderr).toBe(0);
    const journal = JSON.parse(readFileSync(join(project, 'journal.json'), 'utf8'));
    expect(journal.status).toBe('completed');
    expect(journal.run[0].output.pods).toHaveLength(2);
  }, 600_000);

  it('runs the conformance kit on that cluster through its kubeconfig: exit 0, what it cannot do skipped with the reason', async () => {
    expect(kubeconfig, 'the cluster of the previous test').not.toBe('');
    const out = await run('npx', [
      '--no-install',
      'chaoskit-conformance',
      '--provider',
      'kubeconfig',
      '--context',
      context,
      '--kubeconfig',
      kubeconfig,
      '--yes',
      '--only',
      'terminate_pods,drain_nodes,add_abort_fault',
      '--report',
      'report-kubeconfig',
    ]);
    show(
      `npx chaoskit-conformance --provider kubeconfig --context ${context} --yes --only terminate_pods,drain_nodes,add_abort_fault`,
      out,
    );
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const report = readFileSync(join(project, 'report-kubeconfig', 'conformance.md'), 'utf8');
    expect(report).toContain('kubeconfig');
    expect(report).toMatch(/skipped/i);
    expect(readFileSync(join(project, 'report-kubeconfig', 'conformance.junit.xml'), 'utf8')).toMatch(
      /<skipped message="[^"]+"/,
    );
  }, 900_000);

  it('stops the cluster on Ctrl-C, removing what it created', async () => {
    expect(up).toBeDefined();
    const exited = new Promise<number | null>((r) => up!.once('exit', r));
    up!.kill('SIGINT');
    const code = await exited;
    expect(code).toBe(0);
    expect(existsSync(kubeconfig)).toBe(false);
  }, 120_000);

  it('compiles a typed import under strict TypeScript, and refuses a wrong argument at compile time', async () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          // Every declaration file checked, client-node's included: its `ws` types come with
          // @chaoskit/core, the user installs nothing for them.
          skipLibCheck: false,
        },
        files: ['use.ts', 'source.ts'],
      }),
    );
    writeFileSync(
      join(project, 'use.ts'),
      [
        "import { terminatePods } from '@chaoskit/chaoscluster-pod';",
        "import { addAbortFault } from '@chaoskit/chaosmesh-fault';",
        "const result: { pods: string[]; seed?: number } = await terminatePods({ ns: 'web', labelSelector: 'app=web', qty: 1 });",
        'console.log(result.pods.length);',
        "await addAbortFault({ virtualServiceName: 'web', routes: [{ destination: { host: 'web' } }], httpStatus: 503, percentage: 50 });",
        '// @ts-expect-error: qty is a number',
        "await terminatePods({ qty: 'two' });",
        '// @ts-expect-error: no such option',
        'await terminatePods({ labelSelectr: "app=web" });',
        '',
      ].join('\n'),
    );
    writeFileSync(join(project, 'source.ts'), SOURCE_TS);
    const out = await run('npx', ['--no-install', 'tsc', '-p', '.']);
    show('npx tsc -p . (strict, skipLibCheck false, a typed import)', out);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(existsSync(join(project, 'node_modules', '@types', 'ws'))).toBe(true);
  });

  it("goes to the source from an installed package: an editor's go to definition, and a source map's position", async () => {
    const pod = join(project, 'node_modules', '@chaoskit', 'chaoscluster-pod');
    const source = join(pod, 'src', 'terminate-pods.ts');
    const line = readFileSync(source, 'utf8')
      .split('\n')
      .findIndex((l) => l.startsWith('export const terminatePods ='));
    expect(line).toBeGreaterThan(0);
    // The editor (tsc --lsp, what editors run) follows the declaration map into src/.
    const lsp = await LspClient.start(nativeTsc(project), project);
    try {
      const file = lsp.open(join(project, 'source.ts'));
      const at = file.text.indexOf('terminatePods(');
      const found = await lsp.definition(file.uri, {
        line: 1,
        character: at - file.text.lastIndexOf('\n', at),
      });
      const where = found.map((d) => ({ file: fileURLToPath(d.uri), line: d.line }));
      process.stdout.write(`\ngo to definition of terminatePods: ${JSON.stringify(where)}\n`);
      expect(where).toContainEqual({ file: source, line });
    } finally {
      await lsp.stop();
    }
    // A debugger or a stack trace: the JavaScript's map leads to the same line of real text.
    const js = join(pod, 'dist', 'terminate-pods.js');
    const generated = readFileSync(js, 'utf8').split('\n');
    const row = generated.findIndex((l) => l.startsWith('export const terminatePods ='));
    const map = new SourceMap(JSON.parse(readFileSync(`${js}.map`, 'utf8')));
    const entry = map.findEntry(row, 0) as { originalSource: string; originalLine: number };
    const original = resolve(dirname(js), entry.originalSource.replace(/^file:\/\//, ''));
    expect(original).toBe(source);
    expect(readFileSync(original, 'utf8').split('\n')[entry.originalLine]).toMatch(
      /^export const terminatePods =/,
    );
  });

  it("ships the runner README's images, and leaves ECharts out unless the report's charts are wanted", async () => {
    const runner = join(project, 'node_modules', '@chaoskit', 'runner');
    for (const image of ['report-run.png', 'report-comparison.png'])
      expect(
        readFileSync(join(runner, 'docs', image))
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    expect(existsSync(join(project, 'node_modules', 'echarts'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'zrender'))).toBe(false);
    const journal = join(project, 'journal.json');
    expect(existsSync(journal), 'the journal of the run above').toBe(true);
    const without = await run('npx', [
      '--no-install',
      'chaoskit',
      'report',
      journal,
      '--output',
      'plain.html',
    ]);
    show('npx chaoskit report journal.json (no echarts)', without);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stderr).toContain(
      "chaoskit report: written without charts: the report's charts need the optional package echarts: npm install echarts",
    );
    const plain = readFileSync(join(project, 'plain.html'), 'utf8');
    expect(plain).toContain('npm install echarts');
    expect(plain).not.toContain('<svg');
  });

  // The last four tests run at the same time, each with processes and directories of its own:
  // the conformance kit's run is long and mostly waits on its cluster's pods and nodes.
  it.concurrent('runs the conformance kit on a local cluster of its own for a pod, a node and a mesh activity', async ({
    expect,
  }) => {
    const out = await runAsync(
      'npx',
      [
        '--no-install',
        'chaoskit-conformance',
        '--only',
        'terminate_pods,drain_nodes,add_abort_fault',
        '--report',
        'report-local',
      ],
      { cwd: project },
    );
    show('npx chaoskit-conformance --only terminate_pods,drain_nodes,add_abort_fault', out);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const report = readFileSync(join(project, 'report-local', 'conformance.md'), 'utf8');
    for (const activity of ['terminate_pods', 'drain_nodes', 'add_abort_fault'])
      expect(report).toContain(activity);
    expect(out.stdout + out.stderr).toContain('3 of 3 activities passed, 0 failed, 0 skipped');
  }, 900_000);

  it.concurrent("installs @chaoskit/runner in under 100 MB of files, without an install script, ECharts or OpenTelemetry's SDK; refuses traces without @chaoskit/telemetry, naming it; draws the charts once echarts is installed", async ({
    expect,
  }) => {
    const npm = (args: string[]) =>
      run('npm', ['--no-audit', '--no-fund', '--loglevel=error', ...args], { cwd: runnerAlone });
    // Installed in the background since the project's install (beforeAll).
    const installed = await runnerAloneInstall!;
    show('npm install <@chaoskit/runner> <@chaoskit/core> (alone)', installed);
    expect(installed.code, installed.stderr).toBe(0);
    // npm 11 warns of every install script it has not been allowed to run (protobufjs's, gRPC's).
    expect(installed.stdout + installed.stderr).not.toMatch(/install.scripts?/i);
    const modules = join(runnerAlone, 'node_modules');
    for (const absent of ['echarts', '@opentelemetry/sdk-trace', '@grpc/grpc-js', 'protobufjs'])
      expect(existsSync(join(modules, absent)), absent).toBe(false);
    const without = installSize(runnerAlone);
    expect(without.files).toBeLessThan(100);

    // Traces asked for, the package that sends them missing: refused before the run, naming it.
    const bin = join(modules, '@chaoskit', 'runner', 'dist', 'bundle', 'chaoskit.mjs');
    const traced = await run(process.execPath, [bin, 'run', 'probe.json', '--no-ledger'], {
      cwd: runnerAlone,
      env: { OTEL_TRACES_EXPORTER: 'otlp' },
    });
    expect(traced.code, traced.stderr).toBe(3);
    expect(traced.stderr).toContain(
      'chaoskit: traces (asked for by OTEL_TRACES_EXPORTER=otlp) need the package @chaoskit/telemetry, which is not installed beside @chaoskit/runner: npm install @chaoskit/telemetry',
    );
    expect(existsSync(join(runnerAlone, 'journal.json'))).toBe(false);

    const echarts = JSON.parse(
      readFileSync(join(repoRoot, 'node_modules/echarts/package.json'), 'utf8'),
    ).version;
    expect((await npm(['install', `echarts@${echarts}`])).code).toBe(0);
    const withCharts = installSize(runnerAlone);
    process.stdout.write(
      `\ninstall size of @chaoskit/runner + @chaoskit/core: ${without.files} MB of files (${without.disk} MB on disk); with echarts ${echarts} for the report's charts: ${withCharts.files} MB (${withCharts.disk} MB)\n`,
    );
    expect(withCharts.files - without.files).toBeGreaterThan(30);
    const journal = join(project, 'journal.json');
    const drawn = await run(
      process.execPath,
      [
        join(runnerAlone, 'node_modules', '@chaoskit', 'runner', 'dist', 'bin.js'),
        'report',
        journal,
        '--output',
        'charts.html',
      ],
      { cwd: runnerAlone },
    );
    expect(drawn.code, drawn.stderr).toBe(0);
    expect(drawn.stderr).not.toContain('without charts');
    expect(readFileSync(join(runnerAlone, 'charts.html'), 'utf8')).toContain('<svg');
  });

  it.concurrent('sends traces and metrics once @chaoskit/telemetry is installed beside it (over OTLP http/json), and names the packages gRPC needs', async ({
    expect,
  }) => {
    const installed = await withTelemetryInstall!;
    show('npm install <@chaoskit/runner> <@chaoskit/core> <@chaoskit/telemetry>', installed);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout + installed.stderr).not.toMatch(/install.scripts?/i);
    const size = installSize(withTelemetry);
    process.stdout.write(
      `\ninstall size with @chaoskit/telemetry: ${size.files} MB of files (${size.disk} MB on disk)\n`,
    );
    const bin = join(withTelemetry, 'node_modules', '@chaoskit', 'runner', 'dist', 'bundle', 'chaoskit.mjs');

    // A collector stand-in that keeps what it is sent.
    const received: { path: string; type: string; body: string }[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', type: String(req.headers['content-type']), body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    try {
      const sent = await runAsync(process.execPath, [bin, 'run', 'probe.json', '--no-ledger'], {
        cwd: withTelemetry,
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_SERVICE_NAME: 'packaged',
        },
      });
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stderr).not.toContain('telemetry:');
      expect(received.map((r) => [r.path, r.type]).sort()).toEqual([
        ['/v1/metrics', 'application/json'],
        ['/v1/traces', 'application/json'],
      ]);
      // The bundle's spans reach the SDK installed beside it: the run's tree, the probe in it.
      const traces = JSON.parse(received.find((r) => r.path === '/v1/traces')!.body);
      const spans = traces.resourceSpans.flatMap((r: { scopeSpans: { spans: { name: string }[] }[] }) =>
        r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)),
      );
      expect(spans).toEqual(expect.arrayContaining(['chaoskit run', 'run', 'method', 'probe true']));
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }

    // gRPC's exporters are optional peers of @chaoskit/telemetry: asked for, they are named with
    // the versions its package.json takes.
    const grpc = await run(process.execPath, [bin, 'run', 'probe.json', '--no-ledger'], {
      cwd: withTelemetry,
      env: { OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    });
    expect(grpc.code, grpc.stderr).toBe(3);
    const telemetry = JSON.parse(
      readFileSync(join(withTelemetry, 'node_modules', '@chaoskit', 'telemetry', 'package.json'), 'utf8'),
    ) as { peerDependencies: Record<string, string> };
    const wanted = Object.entries(telemetry.peerDependencies).map(([name, range]) => `${name}@${range}`);
    const named = /npm install (\S+ \S+ \S+)/.exec(grpc.stderr)?.[1]?.split(' ');
    expect(named?.sort()).toEqual(wanted.sort());
  });

  it.concurrent('stops the control plane of `npx chaoskit-cluster up` when npx is killed (kill $!), and `down` finds none left', async ({
    expect,
  }) => {
    const env = { ...process.env, CHAOSKIT_STATE_DIR: join(scratch, 'cluster-state') };
    const npx = spawn('npx', ['--no-install', 'chaoskit-cluster', 'up', '--nodes', '1', '--no-mesh'], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    npx.stdout!.on('data', (chunk) => (printed += chunk));
    npx.stderr!.on('data', (chunk) => (printed += chunk));
    const deadline = Date.now() + 300_000;
    while (!/press Ctrl-C to stop it/.test(printed)) {
      if (npx.exitCode !== null || Date.now() > deadline)
        throw new Error(`chaoskit-cluster up did not start:\n${printed}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const dir = /export KUBECONFIG=(\S+)\/kubeconfig/.exec(printed)![1]!;
    const components = () =>
      execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.includes(dir)).length;
    expect(components()).toBe(5);
    npx.kill('SIGTERM');
    const until = Date.now() + 120_000;
    while (components() > 0 || existsSync(dir)) {
      if (Date.now() > until)
        throw new Error(`left behind: ${components()} process(es), directory ${existsSync(dir)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    process.stdout.write(
      `\n$ npx chaoskit-cluster up & … kill $!\n5 components before, ${components()} after; ${dir} removed\n`,
    );
    const down = await run('npx', ['--no-install', 'chaoskit-cluster', 'down'], { env });
    expect(down.stdout).toContain('no cluster started by chaoskit-cluster up is running');
  }, 600_000);
});

/** A file an editor has open, calling an installed activity (line 1: the call). */
const SOURCE_TS = `import { terminatePods } from '@chaoskit/chaoscluster-pod';
export const run = () => terminatePods({ labelSelector: 'app=web' });
`;
