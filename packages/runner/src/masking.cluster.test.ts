// Nothing that selects or reaches a cluster leaves chaoskit: every way of giving credentials,
// with recognisable values, succeeding and failing, through `run` (plain and --json), `plan`
// and `call`; stdout, stderr, the log file and the journal are searched for every value, and
// none is there — but on the line that ends a failed command, which shows the user their own
// values where they need them to fix it, and never a credential (D90).

import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deploy, kubeconfigYaml, sharedCluster, testNamespace } from '@chaoskit/cluster/testing';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from './run/exit-codes.js';
import { runCli } from './testing/test-cli.js';

const cluster = sharedCluster();
const MARK = 'K7QZ';
let dir: string;
let ns: Awaited<ReturnType<typeof testNamespace>>;
let port: string;

interface Scenario {
  name: string;
  /** What the run's process gets in its environment (no kubeconfig unless given). */
  env: Record<string, string>;
  /** The experiment's secrets group `k8s` (env references or values). */
  secrets?: Record<string, unknown>;
  succeeds: boolean;
}

// Every scenario, by name (collected before the cluster is there); beforeAll fills them in.
const NAMES = [
  'API key in the secrets',
  'API key in the environment',
  'Chaos Toolkit names in the environment',
  'client certificate files',
  'a wrong API key',
  'username and password',
  "a CA that is not the server's",
  'a host that does not resolve',
  'in a pod',
  'kubeconfig with a token',
  'CLUSTER_CONTEXT only in the environment',
  'KUBERNETES_CONTEXT (Chaos Toolkit) in the environment',
  'a context that is not in the kubeconfig',
  'kubeconfig with certificate files',
  'kubeconfig with certificate data',
  'kubeconfig with a token file',
  'kubeconfig with an exec plugin',
  'kubeconfig with an exec plugin that fails',
  'kubeconfig impersonating a user without rights',
  'kubeconfig with an oidc auth-provider the server does not know',
  'a kubeconfig that does not exist',
] as const;
const scenarios = new Map<string, Scenario>();
/** Every value that must not appear, by what it is. */
const needles = new Map<string, string>();

function chaoskit(args: string[], env: Record<string, string>) {
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    KUBECONFIG: join(dir, 'none'),
    ...env,
  };
  return runCli(args, { env: base, cwd: dir });
}

async function kubeconfig(
  name: string,
  user: Record<string, unknown>,
  extra: { ca?: string; as?: string } = {},
) {
  const folder = join(dir, `kube-${name}-${MARK}`);
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'config');
  await writeFile(
    path,
    kubeconfigYaml(
      { name: `cluster-${MARK}`, server: cluster.credentials.server, caFile: extra.ca ?? caFile() },
      { [`user-${MARK}`]: { ...user, ...(extra.as ? { as: extra.as } : {}) } },
      { [`ctx-${name}-${MARK}`]: `user-${MARK}` },
      `ctx-${name}-${MARK}`,
    ),
  );
  needles.set(`context ctx-${name}`, `ctx-${name}-${MARK}`);
  return path;
}

const creds = () => join(dir, `creds-${MARK}`);
const caFile = () => join(creds(), 'ca.crt');

function experiment(withCluster: boolean) {
  const python = (type: string, module: string, func: string, args: Record<string, unknown>) => ({
    type,
    name: func,
    provider: { type: 'python', module, func, arguments: args, ...(withCluster ? { secrets: ['k8s'] } : {}) },
  });
  return (secrets: Record<string, unknown> | undefined) => ({
    title: 'masking',
    description: 'every cluster value stays masked',
    ...(secrets ? { secrets: { k8s: secrets } } : {}),
    'steady-state-hypothesis': {
      title: 'web runs',
      probes: [
        {
          ...python('probe', 'chaoscluster.pod.probes', 'count_pods', {
            ns: ns.name,
            label_selector: 'app=web',
          }),
          tolerance: [1, 10],
        },
      ],
    },
    method: [
      python('action', 'chaoscluster.pod.actions', 'terminate_pods', {
        ns: ns.name,
        label_selector: 'app=web',
        grace_period: 0,
      }),
      // A process that prints what the environment says about the cluster.
      {
        type: 'action',
        name: 'print-environment',
        provider: {
          type: 'process',
          path: 'sh',
          arguments: ['-c', 'printenv CLUSTER_CONTEXT CLUSTER_HOST KUBECONFIG || true'],
        },
      },
    ],
    rollbacks: [
      python('action', 'chaoscluster.deployment.actions', 'scale_deployment', {
        ns: ns.name,
        name: 'web',
        replicas: 3,
      }),
    ],
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-masking-'));
  ns = await testNamespace(cluster.kc, 'masking');
  port = new URL(cluster.credentials.server).port;
  await deploy(cluster.kc, ns.name, 'web', 3);
  await mkdir(creds(), { recursive: true });
  await copyFile(cluster.credentials.caFile, caFile());
  await copyFile(cluster.credentials.clientCertFile, join(creds(), 'client.crt'));
  await copyFile(cluster.credentials.clientKeyFile, join(creds(), 'client.key'));
  await writeFile(join(creds(), 'token'), cluster.credentials.token);
  const server = cluster.credentials.server;
  for (const [what, value] of [
    ['server URL', server],
    ['host:port', `127.0.0.1:${port}`],
    ['token', cluster.credentials.token],
    ['recognisable mark', MARK],
  ] as const)
    needles.set(what, value);

  // An exec plugin with a recognisable path, argument and environment value.
  const plugin = join(dir, `plugin-${MARK}`, 'credential.sh');
  await mkdir(join(dir, `plugin-${MARK}`));
  await writeFile(
    plugin,
    `#!/bin/sh\n[ "$PLUGIN_SECRET" = "env-${MARK}" ] || { echo "wrong env" >&2; exit 1; }\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${cluster.credentials.token}"}}'\n`,
  );
  await chmod(plugin, 0o755);
  const failing = join(dir, `plugin-${MARK}`, 'failing.sh');
  await writeFile(failing, `#!/bin/sh\necho "no credential for cluster $2" >&2\nexit 3\n`);
  await chmod(failing, 0o755);

  // In a pod: the service-account mount.
  const mount = join(dir, `sa-${MARK}`);
  await mkdir(mount);
  await copyFile(cluster.credentials.caFile, join(mount, 'ca.crt'));
  await writeFile(join(mount, 'token'), cluster.credentials.token);

  const explicit = { CLUSTER_HOST: server, CLUSTER_CA_CERT_FILE: caFile() };
  const add = (...list: Scenario[]) => {
    for (const scenario of list) scenarios.set(scenario.name, scenario);
  };
  add(
    {
      name: 'API key in the secrets',
      env: { TOKEN: cluster.credentials.token },
      secrets: { ...explicit, CLUSTER_API_KEY: { type: 'env', key: 'TOKEN' } },
      succeeds: true,
    },
    {
      name: 'API key in the environment',
      env: { ...explicit, CLUSTER_API_KEY: cluster.credentials.token },
      succeeds: true,
    },
    {
      name: 'Chaos Toolkit names in the environment',
      env: {
        KUBERNETES_HOST: server,
        KUBERNETES_CA_CERT_FILE: caFile(),
        KUBERNETES_API_KEY: cluster.credentials.token,
      },
      succeeds: true,
    },
    {
      name: 'client certificate files',
      env: {},
      secrets: {
        ...explicit,
        CLUSTER_CERT_FILE: join(creds(), 'client.crt'),
        CLUSTER_KEY_FILE: join(creds(), 'client.key'),
      },
      succeeds: true,
    },
    {
      name: 'a wrong API key',
      env: {},
      secrets: { ...explicit, CLUSTER_API_KEY: `bad-token-${MARK}` },
      succeeds: false,
    },
    {
      name: 'username and password',
      env: {},
      secrets: { ...explicit, CLUSTER_USERNAME: `user-${MARK}`, CLUSTER_PASSWORD: `pass-${MARK}` },
      succeeds: false,
    },
    {
      name: "a CA that is not the server's",
      env: {},
      secrets: {
        CLUSTER_HOST: server,
        CLUSTER_CA_CERT_FILE: join(creds(), 'client.crt'),
        CLUSTER_API_KEY: cluster.credentials.token,
      },
      succeeds: false,
    },
    {
      name: 'a host that does not resolve',
      env: {},
      secrets: {
        CLUSTER_HOST: `https://host-${MARK}.invalid:6443`,
        CLUSTER_API_KEY: cluster.credentials.token,
      },
      succeeds: false,
    },
    {
      name: 'in a pod',
      env: {
        RUNNER_IN_POD: 'true',
        CHAOSKIT_SERVICE_ACCOUNT_DIR: mount,
        KUBERNETES_SERVICE_HOST: '127.0.0.1',
        KUBERNETES_SERVICE_PORT: port,
      },
      succeeds: true,
    },
  );
  const token = await kubeconfig('token', { token: cluster.credentials.token });
  const context = await kubeconfig('context', { token: cluster.credentials.token });
  const certs = await kubeconfig('certs', {
    'client-certificate': join(creds(), 'client.crt'),
    'client-key': join(creds(), 'client.key'),
  });
  const data = await kubeconfig('data', {
    'client-certificate-data': Buffer.from(await readFile(cluster.credentials.clientCertFile)).toString(
      'base64',
    ),
    'client-key-data': Buffer.from(await readFile(cluster.credentials.clientKeyFile)).toString('base64'),
  });
  const tokenFile = await kubeconfig('token-file', { tokenFile: join(creds(), 'token') });
  const exec = await kubeconfig('exec', {
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: plugin,
      args: ['--cluster', `eks-${MARK}`],
      env: [{ name: 'PLUGIN_SECRET', value: `env-${MARK}` }],
      interactiveMode: 'Never',
    },
  });
  const execFailing = await kubeconfig('exec-failing', {
    exec: {
      apiVersion: 'client.authentication.k8s.io/v1',
      command: failing,
      args: ['--cluster', `eks-${MARK}`],
      interactiveMode: 'Never',
    },
  });
  const impersonating = await kubeconfig(
    'impersonate',
    { token: cluster.credentials.token },
    { as: `someone-${MARK}` },
  );
  const oidc = await kubeconfig('oidc', {
    'auth-provider': {
      name: 'oidc',
      config: {
        'id-token': `id-token-${MARK}`,
        'idp-issuer-url': `https://issuer-${MARK}.invalid`,
        'client-id': `client-${MARK}`,
      },
    },
  });
  add(
    { name: 'kubeconfig with a token', env: { KUBECONFIG: token }, succeeds: true },
    {
      name: 'CLUSTER_CONTEXT only in the environment',
      env: { KUBECONFIG: context, CLUSTER_CONTEXT: `ctx-context-${MARK}` },
      succeeds: true,
    },
    {
      name: 'KUBERNETES_CONTEXT (Chaos Toolkit) in the environment',
      env: { CLUSTERCONFIG: context, KUBERNETES_CONTEXT: `ctx-context-${MARK}` },
      succeeds: true,
    },
    {
      name: 'a context that is not in the kubeconfig',
      env: { KUBECONFIG: context, CLUSTER_CONTEXT: `missing-${MARK}` },
      succeeds: false,
    },
    { name: 'kubeconfig with certificate files', env: { KUBECONFIG: certs }, succeeds: true },
    { name: 'kubeconfig with certificate data', env: { KUBECONFIG: data }, succeeds: true },
    { name: 'kubeconfig with a token file', env: { KUBECONFIG: tokenFile }, succeeds: true },
    { name: 'kubeconfig with an exec plugin', env: { KUBECONFIG: exec }, succeeds: true },
    { name: 'kubeconfig with an exec plugin that fails', env: { KUBECONFIG: execFailing }, succeeds: false },
    {
      name: 'kubeconfig impersonating a user without rights',
      env: { KUBECONFIG: impersonating },
      succeeds: false,
    },
    {
      name: 'kubeconfig with an oidc auth-provider the server does not know',
      env: { KUBECONFIG: oidc },
      succeeds: false,
    },
    {
      name: 'a kubeconfig that does not exist',
      env: { KUBECONFIG: join(dir, `missing-${MARK}`, 'config') },
      succeeds: false,
    },
  );
}, 60_000);

afterAll(async () => {
  await ns.remove();
  await rm(dir, { recursive: true, force: true });
});

describe('no value that selects or reaches a cluster is shown', () => {
  const totals = new Map<string, number>();
  afterAll(() => {
    const table = [...totals].map(([what, n]) => `${what}: ${n}`).join(', ');
    process.stdout.write(
      `masking: occurrences over ${scenarios.size} credential scenarios × 4 commands (run --verbose --log-file, run --json, plan --verbose, call --verbose): ${table}\n`,
    );
  });

  /** The lines `fail` ends a command with, and the rest of stderr. */
  const ends = (line: string) => line.startsWith('chaoskit: ') && !line.startsWith('chaoskit: warning');
  const endings = (stderr: string) => stderr.split('\n').filter(ends);
  const beside = (stderr: string) =>
    stderr
      .split('\n')
      .filter((line) => !ends(line))
      .join('\n');
  /** The failed scenarios whose fix is a value of the user's, which the line that ends it shows. */
  const shownToFix: Record<string, string> = {
    // A URL's host is lower-case.
    'a host that does not resolve': `host-${MARK.toLowerCase()}.invalid`,
    'a context that is not in the kubeconfig': `missing-${MARK}`,
    'a kubeconfig that does not exist': `missing-${MARK}`,
  };

  it.each(NAMES.map((name, i) => [name, i] as const))('%s', async (name, i) => {
    const scenario = scenarios.get(name)!;
    expect(scenario, `scenario '${name}' was not set up`).toBeDefined();
    const file = join(dir, `experiment-${i}.yaml`);
    await writeFile(file, dump(experiment(scenario.secrets !== undefined)(scenario.secrets)));
    const journal = join(dir, `journal-${i}.json`);
    const outputs: string[] = [];
    // The most verbose level (every request's method, path and status), into a log file too.
    const logFile = join(dir, `log-${i}.txt`);
    const run = await chaoskit(
      ['run', file, '--verbose', '--log-file', logFile, '--journal-path', journal],
      scenario.env,
    );
    const ended = endings(run.stderr);
    outputs.push(
      run.stdout,
      beside(run.stderr),
      await readFile(journal, 'utf8').catch(() => ''),
      await readFile(logFile, 'utf8').catch(() => ''),
    );
    if (scenario.succeeds)
      expect(await readFile(logFile, 'utf8')).toMatch(/GET \S*\/api\/v1\/namespaces\/\S+\/pods/);
    const json = await chaoskit(['run', file, '--json', '--journal-path', `${journal}.2`], scenario.env);
    outputs.push(json.stdout, beside(json.stderr));
    const plan = await chaoskit(['plan', '--verbose', file], scenario.env);
    outputs.push(plan.stdout, beside(plan.stderr));
    // `call` takes the secrets resolved, as a process provider would give them.
    const resolved = Object.fromEntries(
      Object.entries(scenario.secrets ?? {}).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : scenario.env.TOKEN,
      ]),
    );
    const call = await chaoskit(
      [
        'call',
        '--verbose',
        'chaoscluster.pod.probes',
        'count_pods',
        '--arguments',
        JSON.stringify({ ns: ns.name, label_selector: 'app=web' }),
        '--secrets',
        JSON.stringify(resolved),
      ],
      scenario.env,
    );
    outputs.push(call.stdout, beside(call.stderr));
    ended.push(...[json, plan, call].flatMap((r) => endings(r.stderr)));

    // The scenario did what it says: it reached the cluster, or it failed with a reason.
    const result = JSON.parse(json.stdout || '{}');
    if (scenario.succeeds) {
      expect(result.status, `${scenario.name}: ${json.stderr}`).toBe('completed');
      expect(result.run[0].output.pods).toHaveLength(1);
      expect(call.code, call.stderr).toBe(0);
    } else {
      // Refused before the run, by its checks of the cluster (D91).
      expect(run.code, scenario.name).toBe(EXIT.refused);
      expect(call.code).toBe(1);
      expect(call.stderr).toMatch(/^chaoskit: \S/m);
    }
    // The identity a refusal names is shown whole (D90): an impersonated user is that identity.
    const text = outputs.join('\n').replace(/User "[^"]*"/g, 'User "(shown, D90)"');
    const found: string[] = [];
    for (const [what, value] of needles) {
      const count = text.split(value).length - 1;
      totals.set(what, (totals.get(what) ?? 0) + count);
      if (count) found.push(`${what} (${count}×)`);
    }
    expect(found, `${scenario.name} shows ${found.join(', ')}:\n${text}`).toEqual([]);
    // The lines that end a failed command: a credential never, the user's own value to fix.
    expect(ended.join('\n')).not.toContain(cluster.credentials.token);
    if (shownToFix[name]) expect(ended.join('\n')).toContain(shownToFix[name]);
    // Masked values are still masks, not gaps: the output says where it could not reach.
    if (!scenario.succeeds) expect(call.stderr.length).toBeGreaterThan(20);
  });
});
