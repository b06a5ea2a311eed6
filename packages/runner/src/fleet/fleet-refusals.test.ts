// A fleet run's bad input is refused before any request: a real server stands in for the three
// clusters of a kubeconfig and counts what reaches it (nothing may).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { activity, countWebPods } from '../testing/test-experiments.js';

const NAMES = ['shop-east', 'shop-west', 'pay-prod'];
let server: Server;
let requests = 0;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests++;
    // Every request refused as an expired token would be.
    res.writeHead(401, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'Unauthorized',
        code: 401,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  dir = mkdtempSync(join(tmpdir(), 'fleet-refusals-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: NAMES.map((name) => ({ name, cluster: { server: `http://127.0.0.1:${port}` } })),
      users: [{ name: 'me', user: { token: 'fleet-refusals-token' } }],
      contexts: NAMES.map((name) => ({ name, context: { cluster: name, user: 'me' } })),
      'current-context': NAMES[0],
    }),
  );
  writeFileSync(
    join(dir, 'experiment.yaml'),
    dump({
      title: 'web stays up',
      description: 'a fleet',
      'steady-state-hypothesis': {
        title: 'web',
        probes: [countWebPods(1)],
      },
      method: [
        activity('action', 'kill-web', 'chaoscluster.pod.actions', 'terminate_pods', {
          label_selector: 'app=web',
        }),
      ],
    }),
  );
  // Plain http: the stand-in has no certificate.
  env = { ...process.env, KUBECONFIG: kubeconfig, CLUSTERCONFIG: '', CLUSTER_VERIFY_SSL: 'false' };
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fleet = (...args: string[]) =>
  runCli(['run', join(dir, 'experiment.yaml'), '--journal-path', join(dir, 'journal.json'), ...args], {
    env,
    cwd: dir,
  });

describe('a fleet run refuses bad input before any request', () => {
  it.each([
    [
      ['--contexts', 'shop-east,shop-west', '--waves', '1,x'],
      2,
      "option '--waves <sizes>' argument '1,x' is invalid. --waves takes counts or percentages of the contexts, cumulative and increasing, separated by commas (1,50%,100%); 'x' is neither",
    ],
    [['--contexts', 'shop-east', '--waves', '2,1'], 2, "'1' after '2' does not add any context"],
    [
      ['--contexts', 'shop-east,shop-west', '--waves', '1,5'],
      3,
      '--waves takes counts or percentages of the contexts, cumulative and increasing, separated by commas (1,50%,100%); 5 is more than the 2 contexts of the run',
    ],
    [
      ['--contexts', 'shop-east', '--parallel', '0'],
      2,
      '--parallel takes how many contexts run at once: a whole number of at least 1',
    ],
    [
      ['--waves', '1'],
      2,
      '--waves and --parallel are for a fleet run: give --contexts or --all-contexts too',
    ],
    [
      ['--contexts', 'shop-east,nope'],
      3,
      "context 'nope' is not in the kubeconfig (KUBECONFIG), which has 3 contexts",
    ],
    [['--contexts', 'shop-east,shop-east'], 3, "--contexts names 'shop-east' twice"],
    [
      ['--contexts', 'shop-east', '--all-contexts'],
      3,
      '--contexts and --all-contexts both choose the contexts',
    ],
    [
      ['--contexts', 'shop-east', '--context', 'shop-west'],
      3,
      '--context chooses one cluster and --contexts/--all-contexts several',
    ],
  ])('%j exits %i: %s', async (args, code, message) => {
    const before = requests;
    const out = await fleet(...args);
    expect(out.stderr).toContain(message);
    expect(out.code).toBe(code);
    expect(requests - before).toBe(0);
  });

  it("names none of the kubeconfig's contexts it was not given (--all-contexts)", async () => {
    const out = await fleet('--all-contexts', '--waves', '1,4');
    expect(out.stderr).toContain('4 is more than the 3 contexts of the run');
    expect(out.code).toBe(3);
    for (const name of NAMES) expect(out.stderr).not.toContain(name);
    expect(requests).toBe(0);
  });

  it('does reach the clusters once the input is good: a context its cluster refuses stops the waves, named by its place', async () => {
    const before = requests;
    const out = await fleet('--contexts', 'shop-west,pay-prod', '--waves', '1');
    // The stand-in refuses the credentials: the first context is refused, the second never runs.
    expect(requests - before).toBeGreaterThan(0);
    expect(out.code).toBe(3);
    const aggregate = JSON.parse(readFileSync(join(dir, 'journal.fleet.json'), 'utf8'));
    expect(aggregate.contexts.map((c: { label: string; status: string }) => [c.label, c.status])).toEqual([
      ['context 1', 'refused'],
      ['context 2', 'not-run'],
    ]);
    expect(aggregate.stopped).toMatchObject({ wave: 1, context: 'context 1' });
    expect(aggregate.contexts[1].reason).toMatch(
      /^context 1 \(wave 1\) stopped the waves: refused before any change: .*does not accept the credentials/,
    );
    expect(existsSync(join(dir, 'journal.context-1.json'))).toBe(false);
    const shared = out.stderr + readFileSync(join(dir, 'journal.fleet.json'), 'utf8');
    for (const name of NAMES) expect(shared).not.toContain(name);
    expect(shared).not.toContain(`127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
});

describe('plan and validate over a fleet (D125)', () => {
  const command = (name: string, ...args: string[]) =>
    runCli([name, join(dir, 'experiment.yaml'), ...args], { env, cwd: dir });

  it.each([
    [
      'plan',
      ['--contexts', 'shop-east', '--context', 'shop-west'],
      '--context chooses one cluster and --contexts/--all-contexts several',
    ],
    [
      'plan',
      ['--contexts', 'shop-east,nope'],
      "context 'nope' is not in the kubeconfig (KUBECONFIG), which has 3 contexts",
    ],
    [
      'validate',
      ['--contexts', 'shop-east', '--all-contexts'],
      '--contexts and --all-contexts both choose the contexts',
    ],
    [
      'validate',
      ['--contexts', 'nope'],
      "context 'nope' is not in the kubeconfig (KUBECONFIG), which has 3 contexts",
    ],
  ])('%s %j is refused before any request: %s', async (name, args, message) => {
    const before = requests;
    const out = await command(name, ...args);
    expect(out.stderr).toContain(message);
    expect(out.code).not.toBe(0);
    expect(requests - before).toBe(0);
  });

  it('validate checks every context, names each by its place, and says why a run would be refused', async () => {
    const out = await command('validate', '--all-contexts');
    expect(out.code).toBe(3);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe('experiment syntax and semantic look valid');
    expect(
      lines
        .slice(1)
        .map((l) => l.replace(/: a run would be refused: .*does not accept the credentials.*/, '')),
    ).toEqual(['context 1', 'context 2', 'context 3']);
    for (const name of NAMES) expect(out.stdout + out.stderr).not.toContain(name);
  });
});
