// The experiment format, with Chaos Toolkit as the oracle: each shape — the forms the format
// reference and chaoslib's validator accept, the typos chaoskit refuses, the shapes public
// experiments carry — goes through Chaos Toolkit's own `chaos validate` (chaostoolkit 1.19.0,
// chaostoolkit-lib 1.44.0, from PyPI) and through `chaoskit validate`. Both verdicts are
// declared; where they differ, the decision that says why is named (docs/decisions.md).

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnerCli } from './differential.js';
import { ensurePythonOriginals } from './python-env.js';

const run = promisify(execFile);

type Json = Record<string, unknown>;
type Verdict = 'valid' | 'invalid';

interface Shape {
  name: string;
  /** The experiment, or the text of a YAML file. */
  experiment: Json | string;
  chaos: Verdict;
  chaoskit: Verdict;
  /** Where the verdicts differ: the decision that says why. */
  decision?: string;
  /** What chaoskit says about it (a warning for a valid shape, the problem for an invalid one). */
  says?: RegExp;
}

// Modules are Chaos Toolkit's names: chaoslib imports them (from chaostoolkit-kubernetes and
// chaostoolkit-istio, in the same environment) as chaoskit resolves them.
const upProbe: Json = {
  type: 'probe',
  name: 'app-is-up',
  provider: { type: 'http', url: 'http://127.0.0.1:9/health', timeout: 1 },
  tolerance: 200,
};
const sh = (name: string, extra: Json = {}, provider: Json = {}): Json => ({
  type: 'action',
  name,
  provider: { type: 'process', path: 'true', ...provider },
  ...extra,
});
const kill = (extra: Json = {}, provider: Json = {}): Json => ({
  type: 'action',
  name: 'kill',
  provider: {
    type: 'python',
    module: 'chaosk8s.pod.actions',
    func: 'terminate_pods',
    arguments: { label_selector: 'app=web', ns: 'shop', qty: 1 },
    ...provider,
  },
  ...extra,
});
const withTolerance = (tolerance: unknown, extra: Json = {}): Json => ({
  'steady-state-hypothesis': {
    title: 'the app answers',
    probes: [{ ...sh('status', { type: 'probe' }, { arguments: 'ok' }), tolerance, ...extra }],
  },
});
const experiment = (extra: Json = {}): Json => ({
  title: 'the shop survives a pod',
  description: 'a web pod is killed',
  'steady-state-hypothesis': { title: 'the app answers', probes: [upProbe] },
  method: [kill()],
  ...extra,
});
const withSafeguards = (probes: Json[]): Json =>
  experiment({
    controls: [
      {
        name: 'safeguard',
        provider: { type: 'python', module: 'chaosaddons.controls.safeguards', arguments: { probes } },
      },
    ],
  });
const without = (key: string): Json => {
  const e = experiment();
  delete e[key];
  return e;
};

const accepted = (name: string, e: Json | string, says?: RegExp): Shape => ({
  name,
  experiment: e,
  chaos: 'valid',
  chaoskit: 'valid',
  ...(says ? { says } : {}),
});
const refused = (name: string, e: Json | string, says?: RegExp): Shape => ({
  name,
  experiment: e,
  chaos: 'invalid',
  chaoskit: 'invalid',
  ...(says ? { says } : {}),
});
/** Chaos Toolkit runs it (ignoring what would change the run); chaoskit refuses it, with the fix. */
const refusedByChaoskit = (name: string, e: Json | string, decision: string, says: RegExp): Shape => ({
  name,
  experiment: e,
  chaos: 'valid',
  chaoskit: 'invalid',
  decision,
  says,
});

const shapes: Shape[] = [
  // What the format reference and chaoslib's validator accept.
  accepted('the least an experiment is: a title, a description, an empty method', {
    title: 't',
    description: 'd',
    method: [],
  }),
  accepted(
    'every top-level key of the format',
    experiment({
      version: '1.0.0',
      tags: ['kubernetes', 'web'],
      contributions: { reliability: 'high', security: 'none' },
      configuration: {
        wait: 1,
        ns: { type: 'env', key: 'FORMAT_SUITE_NS' },
        region: { type: 'env', key: 'FORMAT_SUITE_UNSET', default: 'eu' },
      },
      secrets: { k8s: { token: { type: 'env', key: 'FORMAT_SUITE_TOKEN' }, user: 'me' } },
      extensions: [{ name: 'chaosiq', experiment_id: 'abc' }],
      runtime: { rollbacks: { strategy: 'always' }, hypothesis: { strategy: 'default' } },
      rollbacks: [sh('undo')],
    }),
  ),
  accepted(
    'a hypothesis without probes',
    experiment({ 'steady-state-hypothesis': { title: 'nothing yet' } }),
  ),
  accepted('a boolean tolerance', experiment(withTolerance(true))),
  accepted('an integer tolerance', experiment(withTolerance(0))),
  accepted('a string tolerance', experiment(withTolerance('ok'))),
  accepted('a list tolerance', experiment(withTolerance([0, 1]))),
  accepted(
    'a regex tolerance',
    experiment(withTolerance({ type: 'regex', pattern: '^ok', target: 'stdout' })),
  ),
  accepted(
    'a jsonpath tolerance',
    experiment(withTolerance({ type: 'jsonpath', path: '$.status', expect: 0, target: 'body' })),
  ),
  accepted(
    "a jsonpath tolerance in jsonpath2's dialect: a filter after [*], a single '='",
    experiment(
      withTolerance({ type: 'jsonpath', path: '$.items[*][?(@.metadata.name = "kwok-node-0")]', count: 1 }),
    ),
  ),
  accepted(
    'a jsonpath tolerance with ${name} inside a string of its path',
    experiment({
      ...withTolerance({ type: 'jsonpath', path: '$.items[*][?(@.metadata.name = "${node}")]' }),
      configuration: { node: 'kwok-node-0' },
    }),
  ),
  accepted(
    'a range tolerance',
    experiment(withTolerance({ type: 'range', range: [0, 1], target: 'status' })),
  ),
  accepted(
    'a probe tolerance',
    experiment(withTolerance({ type: 'probe', name: 'check', provider: { type: 'process', path: 'true' } })),
  ),
  accepted(
    'a hypothesis reference step with its type and tolerance: {type: probe, tolerance: 200, ref: app-is-up}',
    experiment({
      'steady-state-hypothesis': {
        title: 'the app answers',
        probes: [upProbe, { type: 'probe', tolerance: 200, ref: 'app-is-up' }],
      },
    }),
  ),
  accepted(
    'a hypothesis reference step with only its ref and tolerance',
    experiment({
      'steady-state-hypothesis': {
        title: 'the app answers',
        probes: [upProbe, { ref: 'app-is-up', tolerance: 200 }],
      },
    }),
  ),
  accepted(
    'a method reference step with its type: {type: probe, ref: …}',
    experiment({ method: [kill(), { type: 'probe', ref: 'app-is-up' }] }),
  ),
  accepted(
    'a reference step with a name and background',
    experiment({ method: [kill(), { type: 'action', name: 'kill-again', ref: 'kill', background: true }] }),
  ),
  accepted(
    'rollbacks by reference',
    experiment({ method: [kill(), sh('undo')], rollbacks: [{ ref: 'undo' }] }),
  ),
  accepted(
    'a python provider with arguments and secrets',
    experiment({
      secrets: { k8s: { token: { type: 'env', key: 'FORMAT_SUITE_TOKEN' } } },
      method: [kill({}, { secrets: ['k8s'] })],
    }),
  ),
  accepted(
    'process providers: arguments as a string and as a list, a timeout',
    experiment({
      method: [
        sh('say', {}, { path: 'echo', arguments: 'hello world', timeout: 10 }),
        sh('say-list', {}, { path: 'echo', arguments: ['hello', 'world'] }),
      ],
    }),
  ),
  accepted(
    'an http provider: method, headers, a JSON body, a timeout pair, verify_tls, expected_status, max_retries',
    experiment({
      method: [
        {
          type: 'action',
          name: 'post',
          provider: {
            type: 'http',
            url: 'http://127.0.0.1:9/orders',
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            arguments: { item: 'book' },
            timeout: [1, 5],
            verify_tls: false,
            expected_status: 201,
            max_retries: 2,
          },
        },
      ],
    }),
  ),
  accepted(
    'pauses as numbers and as ${references}',
    experiment({
      configuration: { wait: 1 },
      method: [kill({ pauses: { before: 1, after: '${wait}' } })],
    }),
  ),
  accepted(
    'background, timeout, configuration and controls on an activity',
    experiment({
      method: [kill({ background: true, timeout: 30, configuration: 'anything', controls: [] })],
    }),
  ),
  accepted(
    'a Chaos Toolkit Istio action',
    experiment({
      method: [
        {
          type: 'action',
          name: 'abort',
          provider: {
            type: 'python',
            module: 'chaosistio.fault.actions',
            func: 'add_abort_fault',
            arguments: {
              virtual_service_name: 'reviews',
              http_status: 500,
              routes: [{ destination: { host: 'reviews', subset: 'v1' } }],
              percentage: 10,
              ns: 'shop',
            },
          },
        },
      ],
    }),
  ),
  accepted(
    'a Python control the run skips by name (chaoskit extension)',
    experiment({
      controls: [{ name: 'tracing', provider: { type: 'python', module: 'chaostracing.control' } }],
      extensions: [{ name: 'chaoskit', skip_controls: ['tracing'] }],
    }),
    /control 'tracing' is a Python control \(module chaostracing\.control\), skipped as asked/,
  ),
  accepted(
    "Chaos Toolkit's tracing controls (chaostoolkit-opentracing), which chaoskit maps onto its own traces (D132)",
    experiment({
      controls: [
        { name: 'otel', provider: { type: 'python', module: 'chaostracing.oltp' } },
        {
          name: 'tracing',
          provider: {
            type: 'python',
            module: 'chaostracing.control',
            arguments: {
              provider: 'opentelemetry',
              exporter: 'oltp-grpc',
              collector_endpoint: 'http://127.0.0.1:4317',
            },
          },
        },
      ],
    }),
  ),
  accepted(
    "Chaos Toolkit's safeguards control (chaostoolkit-addons), which chaoskit runs itself (D127)",
    withSafeguards([
      { ...upProbe, name: 'before' },
      { ...upProbe, name: 'once', background: true },
      { ...upProbe, name: 'every-2s', frequency: 2 },
    ]),
  ),
  refused(
    'a safeguard probe without a tolerance',
    withSafeguards([{ ...upProbe, tolerance: undefined, name: 'loose', frequency: 2 }]),
    /safeguard probe 'loose': a safeguard probe must have a tolerance/,
  ),
  // Keys chaoslib ignores, as public experiments carry them: warnings.
  accepted(
    'count inside a provider',
    experiment({ method: [kill({}, { count: 1 })] }),
    /provider: unknown key 'count' is ignored, as Chaos Toolkit ignores it/,
  ),
  accepted(
    'name inside a provider',
    experiment({ method: [kill({}, { name: 'kill-web' })] }),
    /provider: unknown key 'name' is ignored/,
  ),
  accepted(
    'title on an activity',
    experiment({ method: [kill({ title: 'Kill a web pod' })] }),
    /method activity 'kill': unknown key 'title' is ignored/,
  ),
  accepted(
    'ns on an activity',
    experiment({ method: [kill({ ns: 'shop' })] }),
    /method activity 'kill': unknown key 'ns' is ignored/,
  ),
  accepted(
    'secrets on a probe',
    experiment({ method: [kill(), { ...upProbe, name: 'up-again', secrets: ['k8s'] }] }),
    /method activity 'up-again': 'secrets' outside the provider is ignored/,
  ),

  // Refused by both.
  refused('no title', without('title'), /experiment requires a title/),
  refused('no method', without('method'), /requires a method/),
  refused(
    'a misspelt activity type',
    experiment({ method: [kill({ type: 'actoin' })] }),
    /type must be 'probe' or 'action'/,
  ),
  refused(
    'an unknown provider type',
    experiment({ method: [sh('x', {}, { type: 'ruby' })] }),
    /unknown provider type "ruby"/,
  ),
  refused(
    'an unknown module',
    experiment({ method: [kill({}, { module: 'chaosk8s.nope.actions' })] }),
    /chaosk8s\.nope\.actions/,
  ),
  refused('an unknown function', experiment({ method: [kill({}, { func: 'nuke_pods' })] }), /nuke_pods/),
  refused(
    'an argument the function does not take',
    experiment({ method: [kill({}, { arguments: { label_selector: 'app=web', nss: 'shop' } })] }),
    /argument 'nss'.*did you mean 'ns'/,
  ),
  refused(
    'a required argument missing',
    experiment({
      method: [
        {
          type: 'probe',
          name: 'pods',
          provider: { type: 'python', module: 'chaosk8s.pod.probes', func: 'count_pods' },
        },
      ],
    }),
    /argument 'label_selector'/,
  ),
  refused(
    'a hypothesis probe without tolerance',
    experiment({ 'steady-state-hypothesis': { title: 'x', probes: [{ ...upProbe, tolerance: undefined }] } }),
    /must have a tolerance/,
  ),
  refused(
    'a hypothesis reference step without tolerance',
    experiment({
      'steady-state-hypothesis': { title: 'x', probes: [upProbe, { type: 'probe', ref: 'app-is-up' }] },
    }),
    /steady-state probe #2: a hypothesis probe must have a tolerance/,
  ),
  refused(
    'tolerence for tolerance (the tolerance is then missing)',
    experiment({
      'steady-state-hypothesis': {
        title: 'x',
        probes: [{ ...upProbe, tolerance: undefined, tolerence: 200 }],
      },
    }),
    /unknown key 'tolerence'; did you mean 'tolerance'\?/,
  ),
  refused(
    'a reference to nothing',
    experiment({ method: [kill(), { ref: 'ghost' }] }),
    /referenced activity 'ghost' could not be found/,
  ),
  refused('a float tolerance', experiment(withTolerance(0.5)), /tolerance/),
  refused(
    "a jsonpath tolerance comparing with '==' (D161)",
    experiment(withTolerance({ type: 'jsonpath', path: '$.items[*][?(@.metadata.name == "kwok-node-0")]' })),
    /steady-state probe 'status': tolerance\.path '.*' is not a JSONPath chaoslib reads .*compares with '=', not '=='.*; write instead: \$\.items\[\*\]\[\?\(@\.metadata\.name = "kwok-node-0"\)\]/,
  ),
  refused(
    'a jsonpath tolerance with a hyphenated name after a dot (D161)',
    experiment(withTolerance({ type: 'jsonpath', path: '$.metadata.labels.app-name' })),
    /write instead: \$\.metadata\.labels\["app-name"\]/,
  ),
  refused(
    'a jsonpath tolerance with ${name} outside a string of its path (chaoslib reads it before substituting)',
    experiment({
      ...withTolerance({ type: 'jsonpath', path: '$.items[${i}].metadata.name' }),
      configuration: { i: 0 },
    }),
    /a \$\{name\} goes inside a string in double quotes/,
  ),
  refused(
    'a regex tolerance that does not compile',
    experiment(withTolerance({ type: 'regex', pattern: '([' })),
    /pattern/,
  ),
  refused(
    'a configuration value from an environment variable that is not set',
    experiment({ configuration: { ns: { type: 'env', key: 'FORMAT_SUITE_UNSET' } } }),
    /FORMAT_SUITE_UNSET/,
  ),
  refused(
    'a pause that is a word',
    experiment({ method: [kill({ pauses: { after: 'soon' } })] }),
    /pauses\.after must be a number/,
  ),
  refused(
    'background that is not a boolean',
    experiment({ method: [kill({ background: 'yes' })] }),
    /background must be a boolean/,
  ),
  refused(
    'an activity timeout that is not a number',
    experiment({ method: [kill({ timeout: 'soon' })] }),
    /timeout must be a number/,
  ),
  refused('an empty tag', experiment({ tags: ['web', ''] }), /tags must be a list of non-empty strings/),

  // Chaos Toolkit runs these, ignoring what would change the run; chaoskit refuses them, with the fix.
  refusedByChaoskit(
    'argument: for arguments: (the activity would run with its defaults)',
    experiment({
      method: [kill({}, { arguments: undefined, argument: { label_selector: 'app=web', ns: 'shop' } })],
    }),
    'D94',
    /provider: unknown key 'argument'; did you mean 'arguments'\?/,
  ),
  refusedByChaoskit(
    'arguments outside the provider',
    experiment({ method: [kill({ arguments: { ns: 'prod' } })] }),
    'D94',
    /'arguments' belongs inside the provider.*move it to provider\.arguments/,
  ),
  refusedByChaoskit(
    'a top-level rollback: (never played)',
    experiment({ rollback: [sh('undo')] }),
    'D94',
    /unknown key 'rollback'; did you mean 'rollbacks'\?/,
  ),
  refusedByChaoskit(
    'steady_state_hypothesis (never checked)',
    { ...without('steady-state-hypothesis'), steady_state_hypothesis: { title: 'x', probes: [upProbe] } },
    'D94',
    /did you mean 'steady-state-hypothesis'\?/,
  ),
  refusedByChaoskit(
    'pause: for pauses:',
    experiment({ method: [kill({ pause: { after: 1 } })] }),
    'D94',
    /unknown key 'pause'; did you mean 'pauses'\?/,
  ),
  refusedByChaoskit(
    'befor in pauses',
    experiment({ method: [kill({ pauses: { befor: 1 } })] }),
    'D94',
    /pauses: unknown key 'befor'; did you mean 'before'\?/,
  ),
  refusedByChaoskit(
    'a reference step with a provider of its own',
    experiment({ method: [kill(), { ref: 'kill', provider: { type: 'process', path: 'true' } }] }),
    'D94',
    /a step is a reference \(ref\) or an activity \(provider\), not both/,
  ),
  refusedByChaoskit(
    'arguments on a reference step',
    experiment({ method: [kill(), { ref: 'kill', arguments: { ns: 'prod' } }] }),
    'D94',
    /'arguments' on a reference step is ignored by Chaos Toolkit/,
  ),
  refusedByChaoskit(
    'an argument value the activity does not accept',
    experiment({ method: [kill({}, { arguments: { label_selector: 'app=web', qty: 'two' } })] }),
    'D94',
    /argument 'qty': expected an integer/,
  ),
  refusedByChaoskit(
    'a Python control, which chaoskit cannot run',
    experiment({
      controls: [
        { name: 'reliably', provider: { type: 'python', module: 'chaosreliably.controls.experiment' } },
      ],
    }),
    'D96',
    /control 'reliably' is a Python control.*--skip-control reliably/,
  ),
  refusedByChaoskit(
    "a tracing control that sends Jaeger's own protocol, which chaoskit does not speak",
    experiment({
      controls: [
        {
          name: 'tracing',
          provider: { type: 'python', module: 'chaostracing.control', arguments: { provider: 'jaeger' } },
        },
      ],
    }),
    'D132',
    /tracing control 'tracing': provider "jaeger" is not one chaoskit sends to/,
  ),
  refusedByChaoskit(
    'a secret group the experiment does not declare',
    experiment({ method: [kill({}, { secrets: ['k9s'] })] }),
    'D67',
    /asks for secret group 'k9s', which the experiment's secrets do not declare/,
  ),
  refusedByChaoskit(
    'a duplicate key (the last ns would win)',
    dump(experiment()).replace(/^( *)ns: shop$/m, '$1ns: shop\n$1ns: kube-system'),
    'D73',
    /duplicated mapping key/,
  ),
  refusedByChaoskit(
    'a pause of 30 days',
    experiment({ method: [kill({ pauses: { after: 30 * 86_400 } })] }),
    'D73',
    /pauses\.after must be a number of seconds, at most 86400/,
  ),
  refusedByChaoskit(
    'a jsonpath tolerance with a slice step of 0 (chaoslib fails on it when it runs)',
    experiment(withTolerance({ type: 'jsonpath', path: '$.items[::0]' })),
    'D161',
    /a slice step of 0 selects nothing/,
  ),
  refusedByChaoskit(
    'a jsonpath tolerance whose count is a string (chaoslib never meets it)',
    experiment(withTolerance({ type: 'jsonpath', path: '$.items[*]', count: '1' })),
    'D161',
    /jsonpath tolerance count must be an integer >= 0, got '1'/,
  ),
  refusedByChaoskit(
    'a regex tolerance with a lookahead',
    experiment(withTolerance({ type: 'regex', pattern: '^(?=ok)', target: 'stdout' })),
    'D72',
    /lookaround|RE2|pattern/,
  ),
];

const env: NodeJS.ProcessEnv = {
  ...process.env,
  FORMAT_SUITE_NS: 'shop',
  FORMAT_SUITE_TOKEN: 'not-a-real-token',
};
delete env.FORMAT_SUITE_UNSET;

function verdictOf(cmd: string, args: string[], cwd: string): Promise<{ verdict: Verdict; output: string }> {
  return new Promise((resolve) =>
    execFile(cmd, args, { cwd, env, maxBuffer: 1 << 24, timeout: 300_000 }, (err, stdout, stderr) =>
      resolve({ verdict: err ? 'invalid' : 'valid', output: `${stdout}${stderr}` }),
    ),
  );
}

// Chaos Toolkit's own `chaos validate` command on every file, in one Python process: click's
// test runner invokes the command with the options it is given and reports its exit code and
// output, as 65 runs of `chaos` would, without 65 Python starts (each imported the Kubernetes
// client: about 60 s of CPU on a CI run). A crash of chaos itself keeps its traceback.
const CHAOS_VALIDATE_EACH = `
import json, sys, traceback
from click.testing import CliRunner
from chaostoolkit.cli import cli
runner = CliRunner()
for path in sys.argv[1:]:
    result = runner.invoke(cli, ["--no-version-check", "--no-log-file", "validate", path])
    output = result.output
    if result.exc_info is not None and not isinstance(result.exception, SystemExit):
        output += "".join(traceback.format_exception(*result.exc_info))
    print(json.dumps({"file": path, "code": result.exit_code, "output": output}))
`;

async function chaosVerdicts(chaos: string, files: string[], cwd: string) {
  const python = join(dirname(chaos), 'python');
  const { stdout } = await run(python, ['-c', CHAOS_VALIDATE_EACH, ...files], {
    cwd,
    env,
    maxBuffer: 1 << 26,
    timeout: 600_000,
  });
  const verdicts = new Map<string, { verdict: Verdict; output: string }>();
  for (const line of stdout.trim().split('\n')) {
    const { file, code, output } = JSON.parse(line) as { file: string; code: number; output: string };
    verdicts.set(file, { verdict: code === 0 ? 'valid' : 'invalid', output });
  }
  return verdicts;
}

const decisions = readFileSync(new URL('../../../../docs/decisions.md', import.meta.url), 'utf8');
const results = new Map<
  string,
  { chaos: Verdict; chaoskit: Verdict; chaosOut: string; chaoskitOut: string }
>();
let dir: string;

beforeAll(async () => {
  const chaos = await ensurePythonOriginals((line) => console.log(line));
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-format-'));
  const files = await Promise.all(
    shapes.map(async (shape, i) => {
      const file = join(dir, `${i}.yaml`);
      // undefined (a key taken out) is left out of the file.
      const text =
        typeof shape.experiment === 'string'
          ? shape.experiment
          : dump(shape.experiment, { skipInvalid: true });
      await writeFile(file, text);
      return file;
    }),
  );
  const python = chaosVerdicts(chaos, files, dir);
  // chaoskit's side, one `chaoskit validate` a file, two at a time.
  const ours = new Map<string, { verdict: Verdict; output: string }>();
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift())
      ours.set(file, await verdictOf(process.execPath, [runnerCli(), 'validate', file], dir));
  };
  await Promise.all([worker(), worker()]);
  const theirs = await python;
  shapes.forEach((shape, i) => {
    const chaosSaid = theirs.get(files[i]!)!;
    const chaoskitSaid = ours.get(files[i]!)!;
    results.set(shape.name, {
      chaos: chaosSaid.verdict,
      chaoskit: chaoskitSaid.verdict,
      chaosOut: chaosSaid.output,
      chaoskitOut: chaoskitSaid.output,
    });
  });
}, 1_200_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe(`${shapes.length} experiment shapes through the real \`chaos validate\` and \`chaoskit validate\``, () => {
  it.each(shapes.map((s) => [s.name, s] as const))('%s', (_name, shape) => {
    const got = results.get(shape.name)!;
    console.log(
      `${shape.name}: chaos ${got.chaos}, chaoskit ${got.chaoskit}${shape.decision ? ` (${shape.decision})` : ''}`,
    );
    expect(got.chaos, `chaos validate said:\n${got.chaosOut}`).toBe(shape.chaos);
    expect(got.chaoskit, `chaoskit validate said:\n${got.chaoskitOut}`).toBe(shape.chaoskit);
    if (shape.chaos === shape.chaoskit) expect(shape.decision).toBeUndefined();
    else expect(decisions).toContain(`<a id="${shape.decision!.toLowerCase()}"></a>`);
    if (shape.says) expect(got.chaoskitOut).toMatch(shape.says);
  });
});
