// `alias chaos=chaoskit` (D162): every option and command Chaos Toolkit's `chaos` documents
// (chaostoolkit 1.19.0, chaostoolkit-reporting 0.18.0: `chaos --help`, `chaos <command> --help`),
// driven through the built command, each checked by what it does — exit codes, files written,
// the log's format, the directory the command ran in. No cluster: the experiments' activities
// are processes.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAOSLIB_VERSION, RUNNER_VERSION } from '../package/version.js';
import { findBrowser } from '../report/pdf.js';
import { EXIT } from '../run/exit-codes.js';
import { type Outcome, runCli } from '../testing/test-cli.js';

type Json = Record<string, unknown>;

// What Chaos Toolkit documents, as its help lists it.
const DOCUMENTED: Record<string, readonly string[]> = {
  '': [
    '--version',
    '--verbose',
    '--no-version-check',
    '--change-dir',
    '--no-log-file',
    '--log-file',
    '--log-file-level',
    '--log-format',
    '--settings',
  ],
  run: [
    '--journal-path',
    '--dry',
    '--no-validation',
    '--no-verify-tls',
    '--rollback-strategy',
    '--var',
    '--var-file',
    '--control-file',
    '--hypothesis-strategy',
    '--hypothesis-frequency',
    '--fail-fast',
  ],
  validate: ['--no-verify-tls'],
  discover: ['--no-system-info', '--no-install', '--discovery-path'],
  init: ['--discovery-path', '--experiment-path'],
  info: ['core', 'extensions', 'settings'],
  report: ['--title', '--export-format', '--var', '--var-file'],
  settings: ['show', 'get', 'set', 'remove'],
};

let root: string;
let count = 0;

/** A directory of its own for one row, with the files it needs. */
async function place(files: Record<string, unknown> = {}): Promise<string> {
  const dir = join(root, `case-${count++}`);
  await mkdir(dir);
  for (const [name, content] of Object.entries(files))
    await writeFile(join(dir, name), typeof content === 'string' ? content : dump(content));
  return dir;
}

const chaoskit = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> =>
  runCli(args, { cwd: dir, env: { ...process.env, KUBECONFIG: '/nonexistent', HOME: root, ...env } });

/** `init` with `flags`, non-interactively: a title, a description and one action. */
const initOneAction = (dir: string, flags: string[]): Promise<Outcome> =>
  chaoskit(dir, [
    'init',
    ...flags,
    ...['--title', 'T', '--description', 'D'],
    ...['--activity', 'chaosk8s.pod.actions.terminate_pods', '--arg', 'label_selector=app=web'],
  ]);

const sh = (name: string, script: string, extra: Json = {}, type: 'action' | 'probe' = 'action') => ({
  type,
  name,
  provider: { type: 'process', path: 'sh', arguments: ['-c', script] },
  ...extra,
});

const experiment = (body: Json = {}) => ({
  title: 'chaos as chaoskit',
  description: "Chaos Toolkit's command line",
  method: [sh('touch', 'touch touched')],
  ...body,
});

/** A run that completes: its rollbacks play, unless the strategy is never. */
const rollsBack = experiment({ rollbacks: [sh('rolled', 'touch rolled-back')] });

/** The steady state fails before the method: a warning says so. */
const failsBefore = experiment({
  'steady-state-hypothesis': { title: 'never', probes: [sh('fails', 'exit 1', { tolerance: 0 }, 'probe')] },
  rollbacks: [sh('rolled', 'touch rolled-back')],
});

/** A shell loop that waits (at most 30 s) until `condition` holds, then succeeds; fails otherwise. */
const waitUntil = (condition: string) =>
  `i=0; until ${condition}; do i=$((i+1)); [ $i -gt 300 ] && exit 1; sleep 0.1; done`;

/**
 * The experiment above, run in a directory of its own as
 * `chaoskit <global> run --no-ledger <flags> e.yaml`: the directory and the outcome.
 */
async function runIn(global: string[], flags: string[] = []): Promise<{ dir: string; out: Outcome }> {
  const dir = await place({ 'e.yaml': experiment() });
  return { dir, out: await chaoskit(dir, [...global, 'run', '--no-ledger', ...flags, 'e.yaml']) };
}

/** A directory of its own where the experiment above ran to its end: journal.json is there. */
async function journalled(): Promise<string> {
  const { dir, out } = await runIn([]);
  ok(out);
  return dir;
}

const journalOf = async (dir: string, name = 'journal.json') =>
  JSON.parse(await readFile(join(dir, name), 'utf8'));
const ok = (out: Outcome) => expect(out.code, out.stderr).toBe(EXIT.ok);

interface Row {
  /** The command, and the flag (or target, subcommand) of Chaos Toolkit's this row shows. */
  command: string;
  flag: string;
  /** What the row proves. */
  does: string;
  test: () => Promise<void>;
}

const SETTINGS = {
  runtime: { rollbacks: { strategy: 'never' } },
  auths: { 'example.com': { type: 'bearer', value: 's3cret-token' } },
};

const rows: Row[] = [
  {
    command: '',
    flag: '--version',
    does: "prints chaoskit's version",
    async test() {
      const out = await chaoskit(await place(), ['--version']);
      ok(out);
      expect(out.stdout).toBe(`${RUNNER_VERSION}\n`);
    },
  },
  {
    command: '',
    flag: '--verbose',
    does: 'adds the debug lines, before the command',
    async test() {
      const { dir, out: quiet } = await runIn([]);
      const verbose = await chaoskit(dir, ['--verbose', 'run', '--no-ledger', 'e.yaml']);
      ok(verbose);
      expect(quiet.stderr).not.toContain(' DEBUG] ');
      expect(verbose.stderr).toContain(' DEBUG] ');
    },
  },
  {
    command: '',
    flag: '--no-version-check',
    does: 'is accepted: chaoskit never looks for a newer version',
    async test() {
      const { dir, out } = await runIn(['--no-version-check']);
      ok(out);
      expect(existsSync(join(dir, 'touched'))).toBe(true);
    },
  },
  {
    command: '',
    flag: '--change-dir',
    does: 'runs the command in that directory; a relative --log-file stays where it was typed',
    async test() {
      const dir = await place();
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'sub', 'e.yaml'), dump(experiment()));
      const out = await chaoskit(dir, [
        '--change-dir',
        'sub',
        '--log-file',
        'here.log',
        'run',
        '--no-ledger',
        'e.yaml',
      ]);
      ok(out);
      expect(existsSync(join(dir, 'sub', 'touched'))).toBe(true);
      expect((await journalOf(join(dir, 'sub'))).status).toBe('completed');
      expect(existsSync(join(dir, 'here.log'))).toBe(true);
      const missing = await chaoskit(dir, ['--change-dir', 'nowhere', 'run', 'e.yaml']);
      expect(missing.code).toBe(EXIT.refused);
      expect(missing.stderr).toBe("chaoskit: --change-dir 'nowhere': no such directory\n");
    },
  },
  {
    command: '',
    flag: '--no-log-file',
    does: 'writes no log file, as chaoskit does without --log-file (Chaos Toolkit writes chaostoolkit.log)',
    async test() {
      const { dir, out } = await runIn(['--no-log-file']);
      ok(out);
      expect((await readdir(dir)).sort()).toEqual(['e.yaml', 'journal.json', 'touched']);
    },
  },
  {
    command: '',
    flag: '--log-file',
    does: 'appends every line, debug included, before or after the command',
    async test() {
      const { dir, out } = await runIn(['--log-file', 'run.log']);
      ok(out);
      const log = await readFile(join(dir, 'run.log'), 'utf8');
      expect(log).toMatch(/\[INFO\] Action: touch/);
      expect(log).toMatch(/\[DEBUG\] /);
    },
  },
  {
    command: '',
    flag: '--log-file-level',
    does: 'keeps the lines below that level out of the log file',
    async test() {
      const dir = await place({ 'e.yaml': failsBefore });
      const out = await chaoskit(dir, [
        '--log-file',
        'run.log',
        '--log-file-level',
        'warning',
        'run',
        '--no-ledger',
        'e.yaml',
      ]);
      ok(out);
      const levels = new Set(
        [...(await readFile(join(dir, 'run.log'), 'utf8')).matchAll(/ \[(\w+)\] /g)].map((m) => m[1]),
      );
      expect([...levels]).toEqual(['WARN']);
      expect((await chaoskit(dir, ['--log-file-level', 'verbose', 'run', 'e.yaml'])).code).toBe(EXIT.usage);
    },
  },
  {
    command: '',
    flag: '--log-format',
    does: 'json: every line on stderr is a JSON object (time, level, message)',
    async test() {
      const { out } = await runIn(['--log-format', 'json']);
      ok(out);
      const lines = out.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((l) => l.message)).toContain('Action: touch');
      for (const line of lines) expect(Object.keys(line)).toEqual(['time', 'level', 'message']);
      // The journal stays in its file: stdout is left alone.
      expect(out.stdout).toBe('');
    },
  },
  {
    command: '',
    flag: '--settings',
    does: "run takes the file's runtime strategies and controls, and says what else it does not apply",
    async test() {
      const dir = await place({
        'e.yaml': rollsBack,
        'audit.mjs':
          "import { appendFileSync } from 'node:fs';\nexport function before_activity_control({ context }) { appendFileSync('hooks.log', `${context.name}\\n`); }\n",
        'settings.yaml': {
          ...SETTINGS,
          controls: { audit: { provider: { type: 'js', module: './audit.mjs' } } },
        },
      });
      const out = await chaoskit(dir, ['--settings', 'settings.yaml', 'run', '--no-ledger', 'e.yaml']);
      ok(out);
      // runtime.rollbacks.strategy: never keeps the rollbacks from playing.
      expect((await journalOf(dir)).rollbacks).toEqual([]);
      expect(existsSync(join(dir, 'rolled-back'))).toBe(false);
      expect(await readFile(join(dir, 'hooks.log'), 'utf8')).toBe('touch\n');
      expect(out.stderr).toContain(
        "the settings file's auths does not apply: chaoskit takes its runtime and controls only (D162)",
      );
      expect(out.stderr).not.toContain('s3cret-token');
    },
  },
  {
    command: 'run',
    flag: '--journal-path',
    does: 'writes the journal there',
    async test() {
      const { dir, out } = await runIn([], ['--journal-path', 'j.json']);
      ok(out);
      expect((await journalOf(dir, 'j.json')).status).toBe('completed');
    },
  },
  {
    command: 'run',
    flag: '--dry',
    does: 'actions: the actions are not run, and the journal says so',
    async test() {
      const { dir, out } = await runIn([], ['--dry', 'actions']);
      ok(out);
      expect(existsSync(join(dir, 'touched'))).toBe(false);
      expect((await journalOf(dir)).experiment.dry).toBe('actions');
    },
  },
  {
    command: 'run',
    flag: '--no-validation',
    does: 'runs an experiment validation refuses, its problems said as warnings',
    async test() {
      const broken = {
        type: 'action',
        name: 'broken',
        provider: { type: 'python', module: 'nomodule.actions', func: 'f' },
      };
      const dir = await place({ 'e.yaml': experiment({ method: [broken, sh('touch', 'touch touched')] }) });
      expect((await chaoskit(dir, ['run', '--no-ledger', 'e.yaml'])).code).toBe(EXIT.refused);
      const out = await chaoskit(dir, ['run', '--no-ledger', '--no-validation', 'e.yaml']);
      expect(out.code).toBe(EXIT.failed);
      expect(out.stderr).toMatch(/WARN\] not valid \(--no-validation\)/);
      expect(existsSync(join(dir, 'touched'))).toBe(true);
    },
  },
  {
    command: 'run',
    flag: '--no-verify-tls',
    does: 'is accepted where it turns nothing off (a file); refused for an https URL, before any request (D162)',
    async test() {
      const { dir, out } = await runIn([], ['--no-verify-tls']);
      ok(out);
      expect(existsSync(join(dir, 'touched'))).toBe(true);
      // Nothing listens there: a request would fail with another message.
      const https = await chaoskit(dir, ['run', '--no-verify-tls', 'https://127.0.0.1:9/e.yaml']);
      expect(https.code).toBe(EXIT.refused);
      expect(https.stderr).toMatch(
        /--no-verify-tls: chaoskit does not run an experiment read over TLS it has not verified.*\(D162\).*NODE_EXTRA_CA_CERTS/,
      );
    },
  },
  {
    command: 'run',
    flag: '--rollback-strategy',
    does: "never: the rollbacks do not play; it wins over the experiment's runtime",
    async test() {
      const dir = await place({
        'e.yaml': rollsBack,
        'always.yaml': { ...rollsBack, runtime: { rollbacks: { strategy: 'always' } } },
      });
      ok(await chaoskit(dir, ['run', '--no-ledger', 'e.yaml']));
      expect(existsSync(join(dir, 'rolled-back'))).toBe(true);
      await rm(join(dir, 'rolled-back'));
      ok(await chaoskit(dir, ['run', '--no-ledger', '--rollback-strategy', 'never', 'always.yaml']));
      expect(existsSync(join(dir, 'rolled-back'))).toBe(false);
    },
  },
  {
    command: 'run',
    flag: '--var',
    does: "sets configuration values, Chaos Toolkit's types included (bytes: the text)",
    async test() {
      const dir = await place({
        'e.yaml': experiment({
          configuration: { word: 'unset', n: 0 },
          method: [sh('echo', 'echo ${word} ${n}')],
        }),
      });
      ok(
        await chaoskit(dir, [
          'run',
          '--no-ledger',
          '--var',
          'word:bytes=héllo',
          '--var',
          'n:int=3',
          'e.yaml',
        ]),
      );
      expect((await journalOf(dir)).run[0].output.stdout).toBe('héllo 3\n');
    },
  },
  {
    command: 'run',
    flag: '--var-file',
    does: 'sets configuration values from a file',
    async test() {
      const dir = await place({
        'e.yaml': experiment({ configuration: { word: 'unset' }, method: [sh('echo', 'echo ${word}')] }),
        'vars.yaml': { configuration: { word: 'from-file' } },
      });
      ok(await chaoskit(dir, ['run', '--no-ledger', '--var-file', 'vars.yaml', 'e.yaml']));
      expect((await journalOf(dir)).run[0].output.stdout).toBe('from-file\n');
    },
  },
  {
    command: 'run',
    flag: '--control-file',
    does: 'loads global controls (a mapping of name to control), whose hooks run at every level',
    async test() {
      const dir = await place({ 'e.yaml': experiment() });
      await mkdir(join(dir, 'controls'));
      await writeFile(
        join(dir, 'controls', 'audit.mjs'),
        "import { appendFileSync } from 'node:fs';\nexport function before_activity_control({ context, arguments: a }) { appendFileSync(a.path, `${context.name}\\n`); }\n",
      );
      // Its module is read from the control file's directory.
      await writeFile(
        join(dir, 'controls', 'global.json'),
        JSON.stringify({
          audit: { provider: { type: 'js', module: './audit.mjs', arguments: { path: 'hooks.log' } } },
        }),
      );
      ok(await chaoskit(dir, ['run', '--no-ledger', '--control-file', 'controls/global.json', 'e.yaml']));
      expect(await readFile(join(dir, 'hooks.log'), 'utf8')).toBe('touch\n');
      const python = await place({
        'e.yaml': experiment(),
        'py.yaml': { guard: { provider: { type: 'python', module: 'mycompany.controls' } } },
      });
      // A Python control is refused unless skipped by name, as the experiment's own (D96).
      const refused = await chaoskit(python, ['run', '--no-ledger', '--control-file', 'py.yaml', 'e.yaml']);
      expect(refused.code).toBe(EXIT.refused);
      expect(refused.stderr).toContain("control 'guard' is a Python control (module mycompany.controls)");
      ok(
        await chaoskit(python, [
          'run',
          '--no-ledger',
          '--control-file',
          'py.yaml',
          '--skip-control',
          'guard',
          'e.yaml',
        ]),
      );
    },
  },
  {
    command: 'run',
    flag: '--hypothesis-strategy',
    does: "continously, Chaos Toolkit's old spelling, is continuously, with its warning",
    async test() {
      const dir = await place({
        'e.yaml': experiment({
          'steady-state-hypothesis': {
            title: 'fine',
            probes: [sh('fine', 'echo >> probed', { tolerance: 0 }, 'probe')],
          },
          // Ends once the hypothesis was checked during it too (before it: once).
          method: [sh('wait', waitUntil('[ $(wc -l < probed) -ge 2 ]'))],
        }),
      });
      const out = await chaoskit(dir, [
        'run',
        '--no-ledger',
        '--hypothesis-strategy',
        'continously',
        '--hypothesis-frequency',
        '0.1',
        'e.yaml',
      ]);
      ok(out);
      expect(out.stderr).toContain(
        "--hypothesis-strategy 'continously' is Chaos Toolkit's old spelling of 'continuously'",
      );
      expect((await journalOf(dir)).steady_states.during.length).toBeGreaterThan(0);
    },
  },
  {
    command: 'run',
    flag: '--hypothesis-frequency',
    does: 'paces the checks of the hypothesis during the method',
    async test() {
      const dir = await place({
        'e.yaml': experiment({
          'steady-state-hypothesis': {
            title: 'fine',
            probes: [sh('fine', 'echo >> probed', { tolerance: 0 }, 'probe')],
          },
          // Ends once the hypothesis was checked three times during it: at this pace, soon.
          method: [sh('wait', waitUntil('[ $(wc -l < probed) -ge 3 ]'))],
        }),
      });
      ok(
        await chaoskit(dir, [
          'run',
          '--no-ledger',
          '--hypothesis-strategy',
          'during-method-only',
          '--hypothesis-frequency',
          '0.05',
          'e.yaml',
        ]),
      );
      expect((await journalOf(dir)).steady_states.during.length).toBeGreaterThanOrEqual(3);
    },
  },
  {
    command: 'run',
    flag: '--fail-fast',
    does: 'stops the method at the first failed activity (D84)',
    async test() {
      const fails = {
        type: 'action',
        name: 'fails',
        provider: { type: 'http', url: 'http://127.0.0.1:9/', timeout: 2 },
      };
      const dir = await place({ 'e.yaml': experiment({ method: [fails, sh('touch', 'touch touched')] }) });
      expect((await chaoskit(dir, ['run', '--no-ledger', '--fail-fast', 'e.yaml'])).code).toBe(EXIT.failed);
      expect(existsSync(join(dir, 'touched'))).toBe(false);
    },
  },
  {
    command: 'validate',
    flag: '--no-verify-tls',
    does: 'is accepted for a file; refused for an https URL (D162)',
    async test() {
      const dir = await place({ 'e.yaml': experiment() });
      const out = await chaoskit(dir, ['validate', '--no-verify-tls', 'e.yaml']);
      ok(out);
      expect(out.stdout).toBe('experiment syntax and semantic look valid\n');
      expect(
        (await chaoskit(dir, ['validate', '--no-verify-tls', 'https://127.0.0.1:9/e.yaml'])).stderr,
      ).toContain('(D162)');
    },
  },
  {
    command: 'discover',
    flag: '--discovery-path',
    does: "writes the package's discovery there, in the format chaos init reads",
    async test() {
      const dir = await place();
      const out = await chaoskit(dir, [
        'discover',
        'chaostoolkit-kubernetes',
        '--discovery-path',
        'k8s.json',
      ]);
      ok(out);
      const found = JSON.parse(await readFile(join(dir, 'k8s.json'), 'utf8'));
      expect(found).toMatchObject({ chaoslib_version: CHAOSLIB_VERSION, target: 'kubernetes', system: null });
      const terminate = found.activities.find(
        (a: Json) => a.mod === 'chaosk8s.pod.actions' && a.name === 'terminate_pods',
      );
      expect(terminate.type).toBe('action');
      expect(terminate.arguments).toContainEqual({ name: 'ns', default: 'default', type: 'string' });
      expect(found.activities.every((a: Json) => String(a.mod).startsWith('chaosk8s.'))).toBe(true);
      // Without the option, Chaos Toolkit's default place.
      ok(await chaoskit(dir, ['discover', 'chaostoolkit-istio']));
      expect(JSON.parse(await readFile(join(dir, 'discovery.json'), 'utf8')).activities[0].mod).toMatch(
        /^chaosistio\./,
      );
      const unknown = await chaoskit(dir, ['discover', 'chaostoolkit-aws']);
      expect(unknown.code).toBe(EXIT.usage);
      expect(unknown.stderr).toContain(
        "discover: no package 'chaostoolkit-aws' is installed: give chaostoolkit-kubernetes, chaostoolkit-istio or one of @chaoskit/",
      );
    },
  },
  {
    command: 'discover',
    flag: '--no-system-info',
    does: "is accepted: chaoskit's discovery reads nothing of the system",
    async test() {
      const dir = await place();
      ok(await chaoskit(dir, ['discover', 'chaostoolkit-kubernetes', '--no-system-info']));
      expect(JSON.parse(await readFile(join(dir, 'discovery.json'), 'utf8')).system).toBe(null);
    },
  },
  {
    command: 'discover',
    flag: '--no-install',
    does: 'is accepted: chaoskit installs nothing',
    async test() {
      const dir = await place();
      ok(await chaoskit(dir, ['discover', 'chaostoolkit-kubernetes', '--no-install']));
      expect((await readdir(dir)).sort()).toEqual(['discovery.json']);
    },
  },
  {
    command: 'init',
    flag: '--experiment-path',
    does: 'writes the experiment there',
    async test() {
      const dir = await place();
      ok(await initOneAction(dir, ['--experiment-path', 'x.yaml']));
      expect((load(await readFile(join(dir, 'x.yaml'), 'utf8')) as Json).title).toBe('T');
    },
  },
  {
    command: 'init',
    flag: '--discovery-path',
    does: 'is accepted: init offers every installed activity, so it reads no discovery',
    async test() {
      const dir = await place();
      ok(await initOneAction(dir, ['--discovery-path', 'none.json']));
      expect(existsSync(join(dir, 'experiment.json'))).toBe(true);
    },
  },
  {
    command: 'info',
    flag: 'core',
    does: "lists the CLI's version and the format's, as chaos info core",
    async test() {
      const out = await chaoskit(await place(), ['info', 'core']);
      ok(out);
      expect(out.stdout.split('\n').map((l) => l.split(/\s{2,}/))).toEqual([
        ['NAME', 'VERSION'],
        ['CLI', RUNNER_VERSION],
        ['Core library', CHAOSLIB_VERSION],
        [''],
      ]);
    },
  },
  {
    command: 'info',
    flag: 'extensions',
    does: 'lists the activity packages and their versions',
    async test() {
      const out = await chaoskit(await place(), ['info', 'extensions']);
      ok(out);
      expect(out.stdout).toMatch(
        /^@chaoskit\/chaoscluster-pod\s+\S+\s+chaoscluster\.pod\.actions, chaoscluster\.pod\.probes$/m,
      );
    },
  },
  {
    command: 'info',
    flag: 'settings',
    does: 'prints the settings file, its credentials masked',
    async test() {
      const dir = await place({ 'settings.yaml': SETTINGS });
      const out = await chaoskit(dir, ['--settings', 'settings.yaml', 'info', 'settings']);
      ok(out);
      expect(load(out.stdout)).toEqual({
        ...SETTINGS,
        auths: { 'example.com': { type: 'bearer', value: '***' } },
      });
      expect((await chaoskit(dir, ['--settings', 'none.yaml', 'info', 'settings'])).stdout).toBe(
        'No settings file found at none.yaml\n',
      );
    },
  },
  {
    command: 'report',
    flag: '--export-format',
    does: 'writes the last argument in that format (markdown, html; pdf through Chromium)',
    async test() {
      const dir = await journalled();
      ok(await chaoskit(dir, ['report', '--export-format=markdown', 'journal.json', 'r.md']));
      expect(await readFile(join(dir, 'r.md'), 'utf8')).toMatch(/^# Chaos report: chaos as chaoskit\n/);
      expect(existsSync(join(dir, 'report.html'))).toBe(false);
      ok(await chaoskit(dir, ['report', '--export-format', 'html', 'journal.json', 'r.html']));
      expect(await readFile(join(dir, 'r.html'), 'utf8')).toMatch(/^<!doctype html>/);
      // The report's name says the format without the option; a journal is not written over.
      ok(await chaoskit(dir, ['report', 'journal.json', 'named.md']));
      expect(existsSync(join(dir, 'named.md'))).toBe(true);
      const over = await chaoskit(dir, ['report', '--export-format', 'html', 'journal.json', 'other.json']);
      expect(over.code).toBe(EXIT.usage);
      expect(over.stderr).toContain(
        "'other.json' would be the report, written over what looks like a journal",
      );
    },
  },
  {
    command: 'report',
    flag: '--title',
    does: "is the report's heading",
    async test() {
      const dir = await journalled();
      ok(await chaoskit(dir, ['report', '--title', 'Game day 12', 'journal.json', 'r.md']));
      expect(await readFile(join(dir, 'r.md'), 'utf8')).toMatch(/^# Game day 12\n/);
    },
  },
  {
    command: 'report',
    flag: '--var',
    does: 'is accepted, checked as run checks it: the report shows no argument for it to fill',
    async test() {
      const dir = await journalled();
      ok(await chaoskit(dir, ['report', '--var', 'n:int=3', 'journal.json', 'r.md']));
      expect((await chaoskit(dir, ['report', '--var', 'n:int=x', 'journal.json', 'r.md'])).code).toBe(
        EXIT.usage,
      );
    },
  },
  {
    command: 'report',
    flag: '--var-file',
    does: 'masks the secrets it gives in the report',
    async test() {
      // A Chaos Toolkit journal holds the secrets as they were; this one printed its token.
      const dir = await place({
        'e.yaml': experiment({
          secrets: { api: { token: { type: 'env', key: 'API_TOKEN' } } },
          method: [sh('echo', 'echo token=tok-123456')],
        }),
        'vars.yaml': { secrets: { api: { token: 'tok-123456' } } },
      });
      ok(await chaoskit(dir, ['run', '--no-ledger', 'e.yaml'], { API_TOKEN: 'other' }));
      const journal = await journalOf(dir);
      expect(journal.run[0].output.stdout).toBe('token=tok-123456\n');
      ok(await chaoskit(dir, ['report', 'journal.json', 'plain.md']));
      expect(await readFile(join(dir, 'plain.md'), 'utf8')).toContain('tok-123456');
      ok(await chaoskit(dir, ['report', '--var-file', 'vars.yaml', 'journal.json', 'masked.md']));
      const masked = await readFile(join(dir, 'masked.md'), 'utf8');
      expect(masked).not.toContain('tok-123456');
      expect(masked).toContain('token=\\*\\*\\*');
    },
  },
  {
    command: 'settings',
    flag: 'show',
    does: 'prints the settings file as YAML or JSON, its credentials masked',
    async test() {
      const dir = await place({ 'settings.yaml': SETTINGS });
      const masked = { ...SETTINGS, auths: { 'example.com': { type: 'bearer', value: '***' } } };
      const yaml = await chaoskit(dir, ['--settings', 'settings.yaml', 'settings', 'show']);
      ok(yaml);
      expect(load(yaml.stdout)).toEqual(masked);
      const json = await chaoskit(dir, [
        '--settings',
        'settings.yaml',
        'settings',
        'show',
        '--format',
        'json',
      ]);
      expect(JSON.parse(json.stdout)).toEqual(masked);
      // Chaos Toolkit's default place (HOME is the test's).
      const none = await chaoskit(dir, ['settings', 'show']);
      expect(none.code).toBe(1);
      expect(none.stderr).toBe(
        `chaoskit: no settings file at ${join(root, '.chaostoolkit', 'settings.yaml')} (--settings names another)\n`,
      );
    },
  },
  {
    command: 'settings',
    flag: 'get',
    does: "prints one value by its dotted key, Chaos Toolkit's escapes included",
    async test() {
      const dir = await place({ 'settings.yaml': SETTINGS });
      const get = (key: string, ...more: string[]) =>
        chaoskit(dir, ['--settings', 'settings.yaml', 'settings', 'get', key, ...more]);
      expect((await get('runtime.rollbacks.strategy', '--format', 'string')).stdout).toBe('never\n');
      expect((await get('auths.example\\.com', '--format', 'json')).stdout).toBe(
        '{\n  "type": "bearer",\n  "value": "***"\n}\n',
      );
      expect((await get('runtime.nothing')).code).toBe(1);
    },
  },
  {
    command: 'settings',
    flag: 'set',
    does: 'sets an existing key to a JSON value in the file',
    async test() {
      const dir = await place({ 'settings.yaml': SETTINGS });
      ok(
        await chaoskit(dir, [
          '--settings',
          'settings.yaml',
          'settings',
          'set',
          'runtime.rollbacks.strategy',
          '"always"',
        ]),
      );
      expect(load(await readFile(join(dir, 'settings.yaml'), 'utf8'))).toEqual({
        ...SETTINGS,
        runtime: { rollbacks: { strategy: 'always' } },
      });
      expect(
        (await chaoskit(dir, ['--settings', 'settings.yaml', 'settings', 'set', 'runtime', 'never'])).code,
      ).toBe(EXIT.usage);
    },
  },
  {
    command: 'settings',
    flag: 'remove',
    does: 'removes a key and what it holds from the file',
    async test() {
      const dir = await place({ 'settings.yaml': SETTINGS });
      ok(await chaoskit(dir, ['--settings', 'settings.yaml', 'settings', 'remove', 'auths']));
      expect(load(await readFile(join(dir, 'settings.yaml'), 'utf8'))).toEqual({ runtime: SETTINGS.runtime });
    },
  },
];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'chaoskit-chaos-toolkit-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('alias chaos=chaoskit: what Chaos Toolkit documents', () => {
  it('every documented option, target and subcommand has a row below, and is in chaoskit help', async () => {
    const covered = rows.map((r) => `${r.command} ${r.flag}`);
    const documented = Object.entries(DOCUMENTED).flatMap(([command, flags]) =>
      flags.map((f) => `${command} ${f}`),
    );
    expect(covered.sort()).toEqual(documented.sort());
    for (const [command, flags] of Object.entries(DOCUMENTED)) {
      const help = await chaoskit(root, [...(command ? [command] : []), '--help']);
      for (const flag of flags) expect(help.stdout, `chaoskit ${command} --help`).toContain(flag);
    }
  });

  it.each(rows.map((r) => [`${r.command ? `${r.command} ` : ''}${r.flag}`, r.does, r] as const))(
    '%s %s',
    async (_flag, _does, row) => {
      await row.test();
    },
  );
});

describe.skipIf(!findBrowser())(
  `report --export-format pdf${findBrowser() ? '' : ' (skipped: no Chromium found: apt-get install chromium, or set CHROMIUM_PATH)'}`,
  () => {
    it("prints the report to a PDF whose title is the report's", async () => {
      const dir = await journalled();
      ok(
        await chaoskit(dir, [
          'report',
          '--export-format',
          'pdf',
          '--title',
          'Game day 12',
          'journal.json',
          'r.pdf',
        ]),
      );
      const pdf = await readFile(join(dir, 'r.pdf'), 'latin1');
      expect(pdf.startsWith('%PDF-')).toBe(true);
      expect(pdf).toContain('/Title (Game day 12)');
    });
  },
);
