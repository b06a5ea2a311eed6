// `chaoskit validate` as users run it: every problem said at once, each naming the activity, the
// argument and what is accepted, and nothing said that is not a problem.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './testing/test-cli.js';

let dir: string;
// The command starts a few times per test: on 2 shared cores, that takes seconds.
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-validation-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let count = 0;
async function validate(experiment: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env) {
  const file = join(dir, `experiment-${count++}.yaml`);
  await writeFile(file, dump(experiment));
  const { code, stderr } = await runCli(['validate', file], { env });
  // One problem: "chaoskit: …"; more: the count, then one a line ("…").
  const lines = stderr.split('\n');
  const listed = lines.filter((l) => l.startsWith('- ')).map((l) => l.slice(2));
  const single = lines.filter((l) => l.startsWith('chaoskit: ') && !/^chaoskit: \d+ problems:$/.test(l));
  return { code, problems: listed.length ? listed : single.map((l) => l.slice('chaoskit: '.length)), stderr };
}

const python = (name: string, func: string, args: Record<string, unknown>, extra = {}) => ({
  type: func.includes('count') ? 'probe' : 'action',
  name,
  provider: {
    type: 'python',
    module: func.includes('count') ? 'chaosk8s.pod.probes' : 'chaosk8s.pod.actions',
    func,
    arguments: args,
    ...extra,
  },
});

describe('chaoskit validate', () => {
  it('reports every argument problem of an activity, not only the first', async () => {
    const { code, problems } = await validate({
      title: 't',
      description: 'd',
      'steady-state-hypothesis': {
        title: 'web is there',
        probes: [
          {
            ...python('pods', 'count_pods', { label_selector: 'app=web', phase: 'running', ns: 7 }),
            tolerance: 3,
          },
        ],
      },
      method: [
        python('kill', 'terminate_pods', { label_selector: 'app=web', grace: 5, qty: 'two', ns: 'shop' }),
      ],
    });
    expect(code).toBe(1);
    expect(problems).toEqual([
      "steady-state probe 'pods': chaoscluster.pod.probes.count_pods: argument 'phase': expected one of 'Pending', 'Running', 'Succeeded', 'Failed', 'Unknown' or null (got the string 'running')",
      expect.stringMatching(
        /^steady-state probe 'pods': chaoscluster\.pod\.probes\.count_pods: argument 'ns': expected .*\(got the number 7\)$/,
      ),
      "method activity 'kill': chaoscluster.pod.actions.terminate_pods: argument 'grace': expected one of the known arguments 'label_selector', 'name_pattern', 'all', 'rand', 'seed', 'mode', 'qty', 'order', 'ns', 'grace_period' (got an unknown argument; did you mean 'grace_period'?)",
      "method activity 'kill': chaoscluster.pod.actions.terminate_pods: argument 'qty': expected an integer at least 0 (got the string 'two')",
    ]);
  });

  it('names the field of every problem: no bare message of the schema library', async () => {
    const { problems, stderr } = await validate({
      title: 't',
      description: 'd',
      method: [
        { ...python('kill', 'terminate_pods', { label_selector: 'app=web' }), pauses: { before: -1 } },
      ],
    });
    expect(stderr).not.toMatch(/Too small|Invalid input|expected number to be/);
    expect(problems).toEqual([
      "method activity 'kill': pauses.before must be a number of seconds, at most 86400 (a day), or a ${name} that resolves to one",
    ]);
  });

  it('says a missing environment variable once, without false lines about the secrets that use it', async () => {
    const env = { ...process.env };
    delete env.CHAOSKIT_VALIDATION_NOT_SET;
    const { code, stderr } = await validate(
      {
        title: 't',
        description: 'd',
        secrets: { k8s: { token: { type: 'env', key: 'CHAOSKIT_VALIDATION_NOT_SET' }, user: 'me' } },
        method: ['kill', 'kill-again'].map((name) =>
          python(name, 'terminate_pods', { label_selector: 'app=web', ns: '${user}' }, { secrets: ['k8s'] }),
        ),
      },
      env,
    );
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      "chaoskit: secret 'token' of group 'k8s' refers to environment variable 'CHAOSKIT_VALIDATION_NOT_SET', which is not set",
    );
  });

  it('still refuses a secret group nobody declares when another secret cannot be resolved', async () => {
    const { problems } = await validate({
      title: 't',
      description: 'd',
      secrets: { k8s: { token: { type: 'env', key: 'CHAOSKIT_VALIDATION_NOT_SET' } } },
      method: [python('kill', 'terminate_pods', { label_selector: 'app=web' }, { secrets: ['k9s'] })],
    });
    expect(problems).toEqual([
      "secret 'token' of group 'k8s' refers to environment variable 'CHAOSKIT_VALIDATION_NOT_SET', which is not set",
      "method activity 'kill': the activity asks for secret group 'k9s', which the experiment's secrets do not declare (declared: 'k8s')",
    ]);
  });
});
