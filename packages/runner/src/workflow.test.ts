// Chaos Toolkit's workflow on the `chaoskit` command as users run it (real processes, no
// cluster: process providers are the system): background activities, controls, --dry pause,
// --fail-fast, --no-validation, experiments from a URL, the log file.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { type Outcome, runCli } from './testing/test-cli.js';

const control = fileURLToPath(new URL('./controls/controls.fixture.mjs', import.meta.url));
let dir: string;
// Every test starts the command (and its processes) a few times: on 2 shared cores, that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

const chaoskit = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> =>
  runCli(args, { env: { ...process.env, KUBECONFIG: '/nonexistent', ...env }, cwd: dir });

type Json = Record<string, unknown>;

const sh = (name: string, script: string, extra: Json = {}, type: 'action' | 'probe' = 'action') => ({
  type,
  name,
  provider: { type: 'process', path: 'sh', arguments: ['-c', script] },
  ...extra,
});

/** A shell loop that waits (at most 30 s) until `condition` holds, then succeeds; fails otherwise. */
const waitUntil = (condition: string) =>
  `i=0; until ${condition}; do i=$((i+1)); [ $i -gt 300 ] && exit 1; sleep 0.1; done`;

let count = 0;
async function experiment(body: Json): Promise<string> {
  const file = join(dir, `experiment-${count++}.yaml`);
  await writeFile(file, dump({ title: 'workflow', description: 'the Chaos Toolkit workflow', ...body }));
  return file;
}

async function run(file: string, ...args: string[]) {
  const journalPath = join(dir, `journal-${count++}.json`);
  const outcome = await chaoskit(['run', '--no-ledger', '--journal-path', journalPath, ...args, file]);
  const journal = existsSync(journalPath) ? JSON.parse(await readFile(journalPath, 'utf8')) : undefined;
  return { ...outcome, journal };
}

const at = (iso: string) => Date.parse(iso);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-workflow-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('background activities', () => {
  it('run alongside the activities after them, and the method waits for them before it ends', async () => {
    const ready = join(dir, 'ready');
    const done = join(dir, 'done');
    const file = await experiment({
      method: [
        // Waits for what the next activity does: run in sequence, it would fail after 30 s.
        sh('wait-for-ready', `${waitUntil(`test -e ${ready}`)}; touch ${done}`, { background: true }),
        sh('make-ready', `touch ${ready}`),
      ],
      // The method is over only once the background activity is: the rollback sees its effect.
      rollbacks: [sh('check-done', `test -e ${done}`)],
    });
    const { code, journal, stderr } = await run(file);
    expect(code, stderr).toBe(0);
    const [background, foreground] = journal.run;
    // Chaos Toolkit's journal: records in the order the activities started, the flag kept.
    expect([background.activity.name, background.activity.background]).toEqual(['wait-for-ready', true]);
    expect(foreground.activity.name).toBe('make-ready');
    expect([background.status, foreground.status]).toEqual(['succeeded', 'succeeded']);
    // They overlapped: each started before the other ended.
    expect(at(background.start)).toBeLessThanOrEqual(at(foreground.end));
    expect(at(foreground.start)).toBeLessThanOrEqual(at(background.end));
    expect(at(journal.rollbacks[0].start)).toBeGreaterThanOrEqual(at(background.end));
    expect(journal.rollbacks[0].status).toBe('succeeded');
    expect(stderr).toMatch(/Action: wait-for-ready \[in background\]/);
  });

  it('in the rollbacks too, all of them waited for before the run ends', async () => {
    const ready = join(dir, 'rb-ready');
    const { code, journal, stderr } = await run(
      await experiment({
        method: [],
        rollbacks: [
          sh('wait-for-ready', waitUntil(`test -e ${ready}`), { background: true }),
          sh('make-ready', `touch ${ready}`),
        ],
      }),
    );
    expect(code, stderr).toBe(0);
    expect(journal.rollbacks.map((r: Json) => [(r.activity as Json).name, r.status])).toEqual([
      ['wait-for-ready', 'succeeded'],
      ['make-ready', 'succeeded'],
    ]);
  });
});

describe('controls', () => {
  const hooks = async (path: string) => (await readFile(path, 'utf8')).trim().split('\n');
  const js = (path: string, extra: Json = {}) => ({
    type: 'js',
    module: control,
    arguments: { path, ...extra },
  });

  it("call a js control's hooks in Chaos Toolkit's order, scoped as there", async () => {
    const all = join(dir, 'all.log');
    const manual = join(dir, 'manual.log');
    const file = await experiment({
      controls: [
        { name: 'recorder', provider: js(all, { label: 'all' }) },
        // Not automatic: the experiment's hooks, and the activities that refer to it.
        { name: 'manual', automatic: false, provider: js(manual, { label: 'manual' }) },
      ],
      'steady-state-hypothesis': { title: 'H', probes: [sh('p1', 'true', { tolerance: 0 }, 'probe')] },
      method: [sh('a1', 'true', { controls: [{ name: 'manual', ref: 'manual' }] }), sh('a2', 'true')],
      rollbacks: [sh('r1', 'true')],
    });
    const { code, stderr } = await run(file);
    expect(code, stderr).toBe(0);
    expect(await hooks(all)).toEqual([
      'configure_control all',
      'before_experiment_control workflow',
      'before_hypothesis_control H',
      'before_activity_control p1',
      'after_activity_control p1 state=succeeded',
      'after_hypothesis_control H state=true',
      'before_method_control workflow',
      'before_activity_control a1',
      'after_activity_control a1 state=succeeded',
      'before_activity_control a2',
      'after_activity_control a2 state=succeeded',
      'after_method_control workflow runs=2',
      'before_hypothesis_control H',
      'before_activity_control p1',
      'after_activity_control p1 state=succeeded',
      'after_hypothesis_control H state=true',
      'before_rollback_control workflow',
      'before_activity_control r1',
      'after_activity_control r1 state=succeeded',
      'after_rollback_control workflow runs=1',
      'after_experiment_control workflow state=completed',
      'cleanup_control',
    ]);
    expect(await hooks(manual)).toEqual([
      'configure_control manual',
      'before_experiment_control workflow',
      'before_activity_control a1',
      'after_activity_control a1 state=succeeded',
      'after_experiment_control workflow state=completed',
      'cleanup_control',
    ]);
  });

  it('a hook throwing InterruptExecution stops the run there; the rollbacks still play', async () => {
    const log = join(dir, 'interrupt.log');
    const marker = join(dir, 'a2-ran');
    // A control from an installed package, found from the experiment's directory.
    const pkg = join(dir, 'node_modules', 'chaoskit-control-guard');
    await mkdir(pkg, { recursive: true });
    await writeFile(
      join(pkg, 'package.json'),
      JSON.stringify({ name: 'chaoskit-control-guard', type: 'module', exports: './index.mjs' }),
    );
    await writeFile(join(pkg, 'index.mjs'), `export * from ${JSON.stringify(control)};\n`);
    const file = await experiment({
      controls: [
        {
          name: 'guard',
          provider: {
            type: 'js',
            module: 'chaoskit-control-guard',
            arguments: { path: log, interrupt_before: 'a2' },
          },
        },
      ],
      method: [sh('a1', 'true'), sh('a2', `touch ${marker}`), sh('a3', 'true')],
      rollbacks: [sh('r1', 'true')],
    });
    const { code, journal, stderr } = await run(file);
    // Stopped by a control, not a signal: a failed run (D89).
    expect(code).toBe(EXIT.failed);
    expect(existsSync(marker)).toBe(false);
    expect(journal.status).toBe('interrupted');
    expect(journal.run.map((r: Json) => (r.activity as Json).name)).toEqual(['a1']);
    expect(journal.rollbacks.map((r: Json) => r.status)).toEqual(['succeeded']);
    expect(stderr).toMatch(/control 'guard': stopping the run before a2/);
    expect(stderr).toMatch(/control 'guard' interrupted the run: a2 must not run/);
  });

  it('a hook that fails is a warning naming the control and the hook; the run goes on', async () => {
    const log = join(dir, 'failing.log');
    const file = await experiment({
      controls: [{ name: 'flaky', provider: js(log, { fail_in: 'after_method_control' }) }],
      method: [sh('a1', 'true')],
    });
    const { code, journal, stderr } = await run(file);
    expect(code, stderr).toBe(0);
    expect(journal.status).toBe('completed');
    expect(stderr).toMatch(
      /WARN\] control 'flaky' failed in after_method_control: after_method_control broke/,
    );
    expect(await hooks(log)).toContain('after_experiment_control workflow state=completed');
  });

  it('a Python control is refused before anything runs, saying how to go without it (D96)', async () => {
    // (chaosaddons.controls.safeguards is run natively, D127: another Python control.)
    const python = {
      name: 'reliably',
      provider: { type: 'python', module: 'chaosreliably.controls.experiment' },
    };
    const marker = join(dir, 'python-control-ran');
    const file = await experiment({
      controls: [python],
      method: [sh('a1', `touch ${marker}`, { controls: [python] })],
    });
    // validate says invalid (1); run refuses before any change (3, D89).
    for (const [outcome, code] of [
      [await chaoskit(['validate', file]), 1],
      [await run(file), 3],
    ] as const) {
      expect(outcome.code).toBe(code);
      expect(outcome.stderr.match(/control 'reliably' is a Python control/g)).toHaveLength(1);
      expect(outcome.stderr).toMatch(
        /module chaosreliably\.controls\.experiment.*none of its hooks would apply.*--skip-control reliably, or skip_controls: \[reliably\] in the chaoskit extension/,
      );
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('Python controls skipped by name and unknown extensions are warned about once, by name', async () => {
    const python = {
      name: 'safeguards',
      provider: { type: 'python', module: 'chaosaddons.controls.safeguards' },
    };
    const tracing = { name: 'tracing', provider: { type: 'python', module: 'chaostracing.control' } };
    const file = await experiment({
      controls: [python, tracing],
      extensions: [
        { name: 'chaosreliably', some: 'thing' },
        { name: 'chaoskit', allow_all_nodes: false, skip_controls: ['tracing'] },
      ],
      method: [sh('a1', 'true', { controls: [python], dry: 'actions' })],
    });
    for (const outcome of [
      await chaoskit(['validate', '--skip-control', 'safeguards', file]),
      await run(file, '--skip-control', 'safeguards'),
    ]) {
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(outcome.stderr.match(/control 'safeguards' is a Python control/g)).toHaveLength(1);
      expect(outcome.stderr).toMatch(/module chaosaddons\.controls\.safeguards\), skipped as asked/);
      expect(outcome.stderr).toMatch(/control 'tracing' is a Python control.*skipped as asked/);
      expect(outcome.stderr.match(/extension 'chaosreliably' is not chaoskit's/g)).toHaveLength(1);
      expect(outcome.stderr).not.toMatch(/extension 'chaoskit'/);
      expect(outcome.stderr).toMatch(/'dry' in activity 'a1' has no effect, as in Chaos Toolkit/);
    }
  });

  it('a js control that cannot be loaded, or refers to nothing, is invalid', async () => {
    const file = await experiment({
      controls: [{ name: 'missing', provider: { type: 'js', module: './no-such-control.mjs' } }],
      method: [sh('a1', 'true', { controls: [{ name: 'x', ref: 'nothing' }] })],
    });
    const { code, stderr } = await chaoskit(['validate', file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/control 'missing': module \.\/no-such-control\.mjs cannot be loaded/);
    expect(stderr).toMatch(/control 'x' refers to 'nothing', which is not one of the experiment's controls/);
  });
});

describe('--dry, --fail-fast, --no-validation', () => {
  it('--dry pause skips the pauses (a day here), and runs the activities', async () => {
    const marker = join(dir, 'paused-ran');
    const { code, journal, stderr } = await run(
      await experiment({
        method: [sh('touch', `touch ${marker}`, { pauses: { before: 86_400, after: 86_400 } })],
      }),
      '--dry',
      'pause',
    );
    expect(code, stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(journal.experiment.dry).toBe('pause');
  });

  it('--dry actions runs the probes only; the actions succeed with no output', async () => {
    const marker = join(dir, 'dry-action');
    const { code, journal } = await run(
      await experiment({
        'steady-state-hypothesis': {
          title: 'H',
          probes: [sh('p', 'echo probed', { tolerance: 0 }, 'probe')],
        },
        method: [sh('touch', `touch ${marker}`)],
      }),
      '--dry',
      'actions',
    );
    expect(code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(journal.run[0]).toMatchObject({ status: 'succeeded', output: null });
    expect(journal.steady_states.before.probes[0].output.stdout).toBe('probed\n');
  });

  it('--fail-fast stops the method at the first failed activity', async () => {
    // A process that exits non-zero succeeded (its status is its output, as in Chaos Toolkit); an
    // HTTP provider that reaches nothing fails.
    const fails = {
      type: 'action',
      name: 'fails',
      provider: { type: 'http', url: 'http://127.0.0.1:9/', timeout: 2 },
    };
    const file = await experiment({ method: [fails, sh('after', 'touch after-failure')] });
    const without = await run(file);
    expect(without.journal.run.map((r: Json) => r.status)).toEqual(['failed', 'succeeded']);
    await rm(join(dir, 'after-failure'));
    const { code, journal, stderr } = await run(file, '--fail-fast');
    expect(code).toBe(EXIT.failed);
    expect(journal.status).toBe('failed');
    expect(journal.run.map((r: Json) => (r.activity as Json).name)).toEqual(['fails']);
    expect(existsSync(join(dir, 'after-failure'))).toBe(false);
    expect(stderr).toMatch(/--fail-fast: 'fails' failed, so no other method activity starts/);
  });

  it("--fail-fast stops the method at the hypothesis' first deviation during it (Chaos Toolkit's meaning)", async () => {
    const deviate = join(dir, 'deviate');
    const after = join(dir, 'after-deviation');
    const logFile = join(dir, 'fail-fast.log');
    const file = await experiment({
      'steady-state-hypothesis': {
        title: 'no deviation',
        probes: [sh('not-deviated', `test ! -e ${deviate}`, { tolerance: 0 }, 'probe')],
      },
      method: [
        // Deviates, then waits until the hypothesis during the method has seen it.
        sh('deviate', `touch ${deviate}; ${waitUntil(`grep -q "is not in the given tolerance" ${logFile}`)}`),
        sh('after', `touch ${after}`),
      ],
    });
    const args = ['--hypothesis-strategy', 'during-method-only', '--hypothesis-frequency', '0.1'];
    const { code, journal, stderr } = await run(file, ...args, '--log-file', logFile, '--fail-fast');
    expect(code, stderr).toBe(1);
    expect(journal.status).toBe('failed');
    expect(journal.steady_states.during.at(-1).steady_state_met).toBe(false);
    expect(journal.run.map((r: Json) => (r.activity as Json).name)).toEqual(['deviate']);
    expect(existsSync(after)).toBe(false);
    // Without it, the method goes on.
    await rm(deviate);
    await rm(logFile);
    const goesOn = await run(file, ...args, '--log-file', logFile);
    expect(goesOn.journal.run.map((r: Json) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect(existsSync(after)).toBe(true);
  });

  it('--no-validation runs what can run: the problems are warnings, the broken activity fails', async () => {
    const marker = join(dir, 'ran-anyway');
    const file = await experiment({
      method: [
        {
          type: 'action',
          name: 'unknown',
          provider: { type: 'python', module: 'nomodule.actions', func: 'f' },
        },
        sh('next', `touch ${marker}`),
      ],
    });
    const refused = await run(file);
    expect(refused.code).toBe(EXIT.refused);
    expect(refused.stderr).toMatch(/module 'nomodule.actions' is provided by no installed package/);
    expect(existsSync(marker)).toBe(false);
    const { code, journal, stderr } = await run(file, '--no-validation');
    // The broken activity failed: so did the run (D89).
    expect(code).toBe(EXIT.failed);
    expect(stderr).toMatch(/WARN\] not valid \(--no-validation\): method activity 'unknown': module/);
    expect(journal.run.map((r: Json) => r.status)).toEqual(['failed', 'succeeded']);
    expect(journal.run[0].exception[0]).toMatch(
      /module 'nomodule.actions' is provided by no installed package/,
    );
    expect(existsSync(marker)).toBe(true);
  });
});

describe('experiments from a URL', () => {
  let server: Server;
  let base: string;
  const served = new Map<string, { type: string; body: string | (() => Iterable<string>) }>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      const found = served.get(new URL(req.url ?? '/', 'http://x').pathname);
      if (!found) {
        res.writeHead(404).end('not here');
        return;
      }
      res.writeHead(200, { 'content-type': found.type });
      if (typeof found.body === 'string') res.end(found.body);
      else {
        // Chunked, without a content-length: the reader must count.
        for (const chunk of found.body()) res.write(chunk);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('are fetched, parsed by their content type, validated and run', async () => {
    const marker = join(dir, 'from-url');
    const body = { title: 'from a URL', description: 'served', method: [sh('touch', `touch ${marker}`)] };
    served.set('/e.yaml', { type: 'text/plain', body: dump(body) });
    served.set('/experiment', { type: 'application/json', body: JSON.stringify(body) });
    const validate = await chaoskit(['validate', `${base}/experiment`]);
    expect(validate.code, validate.stderr).toBe(0);
    const { code, journal, stderr } = await run(`${base}/e.yaml?token=s3cr3t-t0ken`);
    expect(code, stderr).toBe(0);
    expect(journal.experiment.title).toBe('from a URL');
    expect(existsSync(marker)).toBe(true);
    expect(stderr).not.toContain('s3cr3t-t0ken');
  });

  it('are refused when missing, too large, HTML or malformed, with the reason', async () => {
    served.set('/big.yaml', {
      type: 'text/yaml',
      body: () => Array(5 * 1024).fill(`# ${'x'.repeat(1022)}\n`),
    });
    served.set('/page', { type: 'text/html', body: '<html></html>' });
    served.set('/dup.yaml', { type: 'application/x-yaml', body: 'title: a\ntitle: b\n' });
    const cases: Array<[string, RegExp]> = [
      ['/none.yaml', /none\.yaml: the experiment could not be fetched \(the server answered 404\)/],
      ['/big.yaml', /big\.yaml: the experiment is larger than 4194304 bytes/],
      ['/page', /the server answered an HTML page, not an experiment/],
      ['/dup.yaml', /dup\.yaml: failed parsing YAML: .*duplicate/i],
    ];
    for (const [path, expected] of cases) {
      const { code, stderr } = await chaoskit(['validate', `${base}${path}`]);
      expect(code, path).toBe(1);
      expect(stderr).toMatch(expected);
    }
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await chaoskit(['validate', `http://127.0.0.1:${port}/e.yaml`]);
    expect(refused.stderr).toMatch(/could not be fetched \(ECONNREFUSED\)/);
  });
});

describe('--log-file and --verbose', () => {
  it('the log file holds every line, debug included, redacted; stderr has debug lines only with --verbose', async () => {
    const secret = 'hunter2-very-secret';
    const file = await experiment({
      secrets: { app: { token: { type: 'env', key: 'APP_TOKEN' } } },
      method: [
        {
          type: 'action',
          name: 'echo-secret',
          provider: {
            type: 'process',
            path: 'sh',
            arguments: ['-c', 'echo "token ${token}"'],
            secrets: ['app'],
          },
        },
      ],
    });
    const logFile = join(dir, 'run.log');
    const journalPath = join(dir, 'logged.json');
    const quiet = await chaoskit(
      ['run', '--no-ledger', '--journal-path', journalPath, '--log-file', logFile, file],
      {
        APP_TOKEN: secret,
      },
    );
    expect(quiet.code, quiet.stderr).toBe(0);
    const log = await readFile(logFile, 'utf8');
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[INFO\] Running experiment: workflow$/m);
    expect(log).toMatch(/\[DEBUG\] +=> output: .*token \*\*\*/);
    expect(log).toMatch(/\[INFO\] journal written to/);
    expect(log).not.toContain(secret);
    expect(quiet.stderr).not.toMatch(/DEBUG/);
    const verbose = await chaoskit(['run', '--no-ledger', '--journal-path', journalPath, '--verbose', file], {
      APP_TOKEN: secret,
    });
    expect(verbose.stderr).toMatch(/DEBUG\] +=> output: .*token \*\*\*/);
    expect(verbose.stderr).not.toContain(secret);
  });
});
