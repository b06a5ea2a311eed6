import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { registry } from '@chaoskit/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { experimentFormat, experimentSchema, formatProblems } from './experiment-format.js';
import { installedActivities } from './resolve-activity.js';

const examples = fileURLToPath(new URL('../../../examples/experiments/', import.meta.url));
let validate: ReturnType<Ajv2020['compile']>;
const installed = () => [...registry.list(), ...registry.aliases()];
beforeAll(async () => {
  await installedActivities();
  validate = new Ajv2020({ strict: false, allErrors: true }).compile(experimentSchema(installed()));
});

describe('the experiment JSON Schema', () => {
  it('covers every installed activity and alias', () => {
    const schema = experimentSchema(installed()) as {
      $defs: { activity: { anyOf: Array<{ properties?: { provider?: { anyOf: unknown[] } } }> } };
    };
    expect(schema.$defs.activity.anyOf[1]!.properties!.provider!.anyOf.length).toBe(installed().length + 2);
    expect(registry.list().length).toBeGreaterThanOrEqual(66);
    expect(registry.aliases().length).toBeGreaterThanOrEqual(17);
  });

  it('accepts an alias as Chaos Toolkit names it, with the arguments of the activity it stands for', () => {
    const experiment = (args: Record<string, unknown>) => ({
      title: 't',
      description: 'd',
      method: [
        {
          type: 'probe',
          name: 'healthy',
          provider: { type: 'python', module: 'chaosk8s.probes', func: 'all_pods_healthy', arguments: args },
        },
      ],
    });
    expect(validate(experiment({ ns: 'shop' })), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(experiment({ ns: 'shop', name: 'web' }))).toBe(false);
  });

  it('accepts the example experiments', async () => {
    for (const file of await readdir(examples)) {
      const ok = validate(load(await readFile(`${examples}${file}`, 'utf8')));
      expect(ok, `${file}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
    }
  });

  it('refuses a wrong argument type and an unknown func, and accepts ${name} references and chaosk8s names', () => {
    const experiment = (provider: Record<string, unknown>) => ({
      title: 't',
      description: 'd',
      method: [{ type: 'action', name: 'a', provider: { type: 'python', ...provider } }],
    });
    expect(
      validate(
        experiment({
          module: 'chaoscluster.pod.actions',
          func: 'terminate_pods',
          arguments: { qty: 'three' },
        }),
      ),
    ).toBe(false);
    expect(validate(experiment({ module: 'chaoscluster.pod.actions', func: 'nuke_pods' }))).toBe(false);
    expect(
      validate(
        experiment({
          module: 'chaosk8s.pod.actions',
          func: 'terminate_pods',
          arguments: { qty: '${n}', ns: 'shop' },
        }),
      ),
    ).toBe(true);
  });
});

describe('the experiment format: keys', () => {
  const problems = (experiment: Record<string, unknown>) => {
    const format = experimentFormat();
    const parsed = format.safeParse(experiment);
    return parsed.success ? [] : formatProblems(experiment, parsed.error, format);
  };
  const kill = (extra: Record<string, unknown> = {}, provider: Record<string, unknown> = {}) => ({
    type: 'action',
    name: 'kill',
    provider: { type: 'python', module: 'chaoscluster.pod.actions', func: 'terminate_pods', ...provider },
    ...extra,
  });
  const experiment = (extra: Record<string, unknown> = {}) => ({
    title: 't',
    description: 'd',
    method: [kill()],
    ...extra,
  });

  it("recognises Chaos Toolkit's keys", () => {
    expect(
      problems(
        experiment({
          version: '1.0.0',
          tags: ['k8s'],
          contributions: { reliability: 'high' },
          extensions: [{ name: 'chaosiq' }],
          controls: [{ name: 'tracing', provider: { type: 'python', module: 'chaostracing.control' } }],
          runtime: { rollbacks: { strategy: 'always' } },
          method: [kill({ background: true, pauses: { after: 2 }, controls: [] })],
          rollbacks: [{ ref: 'kill' }],
        }),
      ),
    ).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'argument: for arguments:',
      experiment({ method: [kill({}, { argument: { ns: 'prod' } })] }),
      "method activity 'kill': provider: unknown key 'argument'; did you mean 'arguments'?",
    ],
    [
      'a top-level rollback:',
      experiment({ rollback: [kill()] }),
      "unknown key 'rollback'; did you mean 'rollbacks'?",
    ],
    [
      'pause: for pauses:',
      experiment({ method: [kill({ pause: { after: 1 } })] }),
      "method activity 'kill': unknown key 'pause'; did you mean 'pauses'?",
    ],
    [
      'a typo in a hypothesis',
      experiment({ 'steady-state-hypothesis': { title: 'x', probe: [] } }),
      "steady-state-hypothesis: unknown key 'probe'; did you mean 'probes'?",
    ],
  ])('refuses %s, with a did-you-mean', (_what, given, message) => {
    expect(problems(given).join('\n')).toContain(message);
  });
});
