import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog } from '@chaoskit/cluster';
import { fileNamespace, serviceAccountToken, sharedCluster } from '@chaoskit/cluster/testing';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { runCli } from './testing/test-cli.js';
import { python } from './testing/test-experiments.js';
import { clusterLeverReader } from './testing/test-identities.js';

const cluster = sharedCluster();
let dir: string;
const ns = fileNamespace(cluster.kc, 'bad-experiments');
let identity: string;
let env: NodeJS.ProcessEnv;
const began = new Date();

// The CLI as users run it (built by `./dev test` before the tests).
const chaoskit = (args: string[]) => runCli(args, { env, cwd: dir });

const base = () => ({
  title: 'kill a web pod',
  description: 'a pod of web is killed',
  secrets: {
    k8s: {
      CLUSTER_HOST: cluster.credentials.server,
      CLUSTER_API_KEY: { type: 'env', key: 'BAD_EXPERIMENTS_TOKEN' },
      CLUSTER_CA_CERT_FILE: cluster.credentials.caFile,
    },
  },
  method: [
    {
      type: 'action',
      name: 'kill',
      provider: {
        ...python('chaoscluster.pod.actions', 'terminate_pods', {
          ns: 'NS',
          label_selector: 'app=web',
          grace_period: 0,
        }),
        secrets: ['k8s'],
      },
    },
  ],
});

type Experiment = ReturnType<typeof base> & Record<string, unknown>;
const edit = (fn: (e: Experiment) => void) => {
  const e = base() as Experiment;
  fn(e);
  return e;
};
const args = (e: Experiment) => e.method[0]!.provider.arguments as Record<string, unknown>;
const probe = (tolerance: unknown) => ({
  title: 'web is there',
  probes: [{ type: 'probe', name: 'count', tolerance, provider: { type: 'process', path: 'true' } }],
});

const cases: Array<[string, string | Experiment, RegExp, string?]> = [
  ['no title', edit((e) => delete (e as Partial<Experiment>).title), /experiment requires a title/],
  [
    'no description',
    edit((e) => delete (e as Partial<Experiment>).description),
    /experiment requires a description/,
  ],
  ['no method', edit((e) => delete (e as Partial<Experiment>).method), /requires a method/],
  [
    'a method that is not a list',
    edit((e) => ((e as Record<string, unknown>).method = { kill: 1 })),
    /method must be a list/,
  ],
  [
    'an unknown module',
    edit((e) => (e.method[0]!.provider.module = 'chaoscluster.nope.actions')),
    /module 'chaoscluster.nope.actions' is provided by no installed package(: did you mean '[a-z.]+'\?)? \(known: chaoscluster\.actions, .*chaoscluster\.pod\.actions, .*\)\. Install the npm package that provides it/,
  ],
  ['an unknown func', edit((e) => (e.method[0]!.provider.func = 'nuke_pods')), /has no function 'nuke_pods'/],
  [
    'an unknown argument',
    edit((e) => (args(e).labelselector = 'app=web')),
    /argument 'labelselector'.*did you mean 'label_selector'/,
  ],
  ['a wrong type', edit((e) => (args(e).qty = 'three')), /argument 'qty': expected an integer/],
  [
    'three bad arguments in one activity: each is said',
    edit((e) => Object.assign(args(e), { qty: 'two', grace: 5, mode: 'some' })),
    /argument 'grace'.*did you mean 'grace_period'[\s\S]*argument 'mode'[\s\S]*argument 'qty': expected an integer/,
  ],
  [
    'a Python control, which chaoskit cannot run',
    edit(
      (e) =>
        ((e as Record<string, unknown>).controls = [
          { name: 'reliably', provider: { type: 'python', module: 'chaosreliably.controls.experiment' } },
        ]),
    ),
    /control 'reliably' is a Python control.*--skip-control reliably/,
  ],
  [
    'an undefined ${var}',
    edit((e) => (args(e).ns = '${target_namespace}')),
    /\$\{target_namespace\}, defined neither in the configuration nor in the secrets/,
  ],
  [
    'a missing environment secret',
    edit((e) => (e.secrets.k8s.CLUSTER_API_KEY = { type: 'env', key: 'NOT_SET_ANYWHERE' })),
    /NOT_SET_ANYWHERE/,
  ],
  [
    'a missing environment configuration',
    edit(
      (e) => ((e as Record<string, unknown>).configuration = { ns: { type: 'env', key: 'ALSO_NOT_SET' } }),
    ),
    /ALSO_NOT_SET/,
  ],
  ['malformed YAML', 'title: [unclosed\nmethod: - x', /failed parsing YAML/, 'yaml'],
  ['malformed JSON', '{"title": "x",', /failed parsing JSON/, 'json'],
  ['an unsupported extension', 'title: x', /only files with json, yaml or yml extensions/, 'txt'],
  [
    'a float tolerance',
    edit((e) => ((e as Record<string, unknown>)['steady-state-hypothesis'] = probe(0.5))),
    /tolerance/,
  ],
  [
    'a regex tolerance that does not compile',
    edit(
      (e) =>
        ((e as Record<string, unknown>)['steady-state-hypothesis'] = probe({ type: 'regex', pattern: '([' })),
    ),
    /pattern/,
  ],
  [
    'a jsonpath tolerance without path',
    edit((e) => ((e as Record<string, unknown>)['steady-state-hypothesis'] = probe({ type: 'jsonpath' }))),
    /path/,
  ],
  [
    'a range of three values',
    edit(
      (e) =>
        ((e as Record<string, unknown>)['steady-state-hypothesis'] = probe({
          type: 'range',
          range: [1, 2, 3],
        })),
    ),
    /range/,
  ],
  [
    'a hypothesis probe without tolerance',
    edit(
      (e) =>
        ((e as Record<string, unknown>)['steady-state-hypothesis'] = {
          title: 't',
          probes: [{ type: 'probe', name: 'p', provider: { type: 'process', path: 'true' } }],
        }),
    ),
    /must have a tolerance/,
  ],
  [
    'a misspelt activity type',
    edit((e) => ((e.method[0] as Record<string, unknown>).type = 'actoin')),
    /type must be 'probe' or 'action'/,
  ],
  [
    'an unknown provider type',
    edit((e) => ((e.method[0]!.provider as Record<string, unknown>).type = 'ruby')),
    /unknown provider type "ruby"/,
  ],
  ['an unknown secret group', edit((e) => (e.method[0]!.provider.secrets = ['k9s'])), /k9s/],
  [
    'a reference to nothing',
    edit((e) => (e.method as unknown[]).push({ ref: 'ghost' })),
    /referenced activity 'ghost' could not be found/,
  ],
  [
    'a pause that is not a number',
    edit((e) => ((e.method[0] as Record<string, unknown>).pauses = { after: 'soon' })),
    /pauses.after must be a number/,
  ],
  [
    'tags that are not strings',
    edit((e) => ((e as Record<string, unknown>).tags = ['ok', 3])),
    /tags must be a list of non-empty strings/,
  ],
  [
    'an action declared as a probe',
    edit((e) => ((e.method[0] as Record<string, unknown>).type = 'probe')),
    /terminate_pods is a action, but the activity says probe/,
  ],
  [
    'a bad label selector',
    edit((e) => (args(e).label_selector = 'app in (web')),
    /argument 'label_selector'/,
  ],
  // Hostile or mistaken structure: refused before anything runs.
  [
    'argument: for arguments:',
    edit((e) => {
      const provider = e.method[0]!.provider as Record<string, unknown>;
      provider.argument = provider.arguments;
      delete provider.arguments;
    }),
    /provider: unknown key 'argument'; did you mean 'arguments'\?/,
  ],
  [
    'a top-level rollback:',
    edit((e) => ((e as Record<string, unknown>).rollback = [])),
    /unknown key 'rollback'; did you mean 'rollbacks'\?/,
  ],
  [
    'a duplicate JSON key (the last ns would have won)',
    JSON.stringify(base()).replace('"ns":"NS"', '"ns":"NS","ns":"kube-system"'),
    /failed parsing JSON: duplicated mapping key/,
    'json',
  ],
  [
    'a YAML alias bomb',
    [
      'title: laughs',
      'description: a billion of them',
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(
        (k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`,
      ),
      'method: []',
    ].join('\n'),
    /failed parsing YAML: (the document holds more than \d+ values|aliases exceeded)/,
  ],
  [
    '200,000-deep JSON',
    `{"title":"deep","description":"d","method":[],"x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
    /failed parsing JSON: .*nests deeper than 64 levels/,
    'json',
  ],
  [
    'a pause of 30 days',
    edit((e) => ((e.method[0] as Record<string, unknown>).pauses = { after: 30 * 86_400 })),
    /pauses.after must be a number of seconds, at most 86400/,
  ],
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-bad-'));
  const experimenter = await serviceAccountToken(cluster.kc, ns.name, 'experimenter', [
    { role: 'edit' },
    await clusterLeverReader(cluster.kc),
  ]);
  identity = experimenter.identity;
  env = {
    ...process.env,
    BAD_EXPERIMENTS_TOKEN: experimenter.token,
    KUBECONFIG: '/nonexistent',
    // The run's record goes where the experimenter may write it.
    CHAOSKIT_LEDGER_NAMESPACE: ns.name,
    CLUSTERCONFIG: '',
  };
  delete env.CLUSTERCONFIG;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const withNamespace = (e: string | Experiment) =>
  typeof e === 'string' ? e : JSON.parse(JSON.stringify(e).replaceAll('"NS"', JSON.stringify(ns.name)));

describe(`${cases.length} bad experiment files`, () => {
  it.each(cases)(
    '%s: validate and run both refuse it, naming the problem',
    async (what, experiment, expected, ext = 'yaml') => {
      const file = join(dir, `${what.replace(/\W+/g, '-')}.${ext}`);
      const content = withNamespace(experiment);
      await writeFile(
        file,
        typeof content === 'string' ? content : ext === 'json' ? JSON.stringify(content) : dump(content),
      );
      const validate = await chaoskit(['validate', file]);
      expect(validate.code, validate.stderr).toBe(1);
      expect(validate.stderr).toMatch(expected);
      const journal = join(dir, `${what.replace(/\W+/g, '-')}.journal.json`);
      const run = await chaoskit(['run', file, '--journal-path', journal]);
      expect(run.code, run.stderr).toBe(EXIT.refused);
      expect(run.stderr).toMatch(expected);
      expect(existsSync(journal)).toBe(false);
    },
  );

  it("left no request of the experiments' identity in the audit log, where a valid experiment leaves some", async () => {
    expect(await readAuditLog(cluster.auditLogPath, { user: identity, since: began })).toEqual([]);
    const file = join(dir, 'valid.yaml');
    await writeFile(file, dump(withNamespace(base())));
    const validate = await chaoskit(['validate', file]);
    expect(validate.stdout).toContain('experiment syntax and semantic look valid');
    expect(await readAuditLog(cluster.auditLogPath, { user: identity, since: began })).toEqual([]);
    const run = await chaoskit(['run', file, '--journal-path', join(dir, 'valid.journal.json')]);
    expect(run.code, run.stderr).toBe(0);
    const events = await readAuditLog(cluster.auditLogPath, { user: identity, since: began });
    expect(events.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toContain('list pods');
  });
});
