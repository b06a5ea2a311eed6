import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { registry } from '@chaoskit/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { load } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { experimentSchema } from './experiment-schema.js';
import { ACTIVITY_PACKAGES, loadPackage } from './resolve-activity.js';

const examples = fileURLToPath(new URL('../../../examples/experiments/', import.meta.url));
let validate: ReturnType<Ajv2020['compile']>;
beforeAll(async () => {
  for (const pkg of ACTIVITY_PACKAGES) await loadPackage(pkg);
  validate = new Ajv2020({ strict: false, allErrors: true }).compile(experimentSchema(registry.list()));
});

describe('the experiment JSON Schema', () => {
  it('covers every installed activity', () => {
    const schema = experimentSchema(registry.list()) as {
      $defs: { activity: { anyOf: Array<{ properties?: { provider?: { anyOf: unknown[] } } }> } };
    };
    expect(schema.$defs.activity.anyOf[1]!.properties!.provider!.anyOf.length).toBe(
      registry.list().length + 2,
    );
    expect(registry.list().length).toBeGreaterThanOrEqual(56);
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
