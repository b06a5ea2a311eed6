import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { registry } from '@chaoskit/core/runner';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { installedActivities } from '../activities/resolve-activity.js';
import { experimentFormat, experimentSchema, formatProblems } from './format.js';

const examples = fileURLToPath(new URL('../../../../examples/experiments/', import.meta.url));
let validate: ReturnType<Ajv2020['compile']>;
const installed = () => [...registry.list(), ...registry.aliases()];
beforeAll(async () => {
  await installedActivities();
  validate = new Ajv2020({ strict: false, allErrors: true }).compile(experimentSchema(installed()));
  // Loading every activity package and compiling their schemas: seconds on a loaded machine.
}, 120_000);

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

describe('the experiment format: values', () => {
  const problems = (experiment: Record<string, unknown>) => {
    const parsed = experimentFormat().safeParse(experiment);
    return parsed.success ? [] : formatProblems(experiment, parsed.error);
  };

  it('names the key of every problem, never a bare zod message', () => {
    const found = problems({
      title: 't',
      description: 'd',
      contributions: 'high',
      method: [
        {
          type: 'action',
          name: 'kill',
          pauses: { before: -1, after: 'soon' },
          provider: { type: 'process', path: 'true' },
        },
      ],
    });
    expect(found).toEqual([
      'contributions must be a mapping (reliability: high, …)',
      "method activity 'kill': pauses.before must be a number of seconds, at most 86400 (a day), or a ${name} that resolves to one",
      "method activity 'kill': pauses.after must be a number of seconds, at most 86400 (a day), or a ${name} that resolves to one",
    ]);
  });
});
