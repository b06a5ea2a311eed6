import { refusals } from '@chaoskit/cluster/testing';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { z } from 'zod';
import { InvalidArgument, isChaosError } from '../errors/errors.js';
import { clearSecretsForTests, registerSecret } from '../errors/redact.js';
import type { Safety, SafetyOptions } from '../rails/safety.js';
import { camelCase, defineActivity } from './define-activity.js';
import { accepting, describeSchema } from './describe-schema.js';
import { renderValue } from './render-value.js';

afterEach(() => clearSecretsForTests());

// 0.25.1's terminate_pods, as an activity package would declare it.
const terminatePods = defineActivity({
  name: 'terminate_pods',
  kind: 'action',
  module: 'chaoscluster.pod.actions',
  doc: 'Terminates selected pods gracefully.',
  args: {
    label_selector: z.string().nullable().default(null).describe('Label query selecting pods.'),
    name_pattern: z.string().nullable().default(null).describe('Regular expression on pod names.'),
    all: z.boolean().default(false).describe('Affect every matching pod.'),
    rand: z.boolean().default(false).describe('Pick pods at random.'),
    mode: z.enum(['fixed', 'percentage']).default('fixed').describe('How qty is read.'),
    qty: z.int().min(1).default(1).describe('Number or percentage of pods.'),
    grace_period: z.int().default(-1).describe('Grace period in seconds; negative for the default.'),
    ns: z.string().default('default').describe('Namespace.'),
    order: z.enum(['alphabetic', 'oldest']).default('alphabetic').describe('Order of the pods.'),
  },
  rbac: [{ apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete'] }],
  check: (args) =>
    args.mode === 'percentage' && args.qty > 100
      ? { argument: 'qty', accepted: "an integer from 1 to 100 when mode is 'percentage'" }
      : undefined,
  run: async (args, ctx) => ({ args, secrets: ctx.secrets }),
});

/** What a definition needs beyond its name and arguments, for the activities of one test. */
const base = {
  kind: 'action' as const,
  module: 'chaoscluster.pod.actions',
  doc: 'd',
  rbac: [],
  run: () => 1,
};

const scaleDeployment = defineActivity({
  name: 'scale_deployment',
  kind: 'action',
  module: 'chaoscluster.deployment.actions',
  doc: 'Scales the deployment up or down.',
  args: {
    name: z.string().describe('Deployment name.'),
    replicas: z.int().min(0).describe('Wanted replicas.'),
    ns: z.string().default('default').describe('Namespace.'),
  },
  rbac: [{ apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['patch'] }],
  run: (args) => args.replicas,
});

const addAbortFault = defineActivity({
  name: 'add_abort_fault',
  kind: 'action',
  module: 'chaosmesh.fault.actions',
  doc: 'Aborts requests early.',
  args: {
    virtual_service_name: z.string().min(1).describe('Virtual service.'),
    http_status: z.int().min(100).max(599).describe('HTTP status to return.'),
    routes: z
      .array(
        z.strictObject({ destination: z.strictObject({ host: z.string(), subset: z.string().optional() }) }),
      )
      .describe('Routes to change.'),
    percentage: z
      .union([z.number().min(0).max(100), z.object({ value: z.number() })])
      .nullable()
      .default(null)
      .describe('Share of requests.'),
    fixed_delay: accepting(z.string().regex(/^\d+(ms|s|m|h)$/), "a duration such as '5s'")
      .optional()
      .describe('Delay.'),
  },
  rbac: [{ apiGroups: ['networking.istio.io'], resources: ['virtualservices'], verbs: ['get', 'update'] }],
  run: () => ({}),
});

const invalid = refusals<InvalidArgument>(isChaosError);

describe('defineActivity: derived names', () => {
  it('derives the qualified and camelCase names', () => {
    expect(terminatePods.qualifiedName).toBe('chaoscluster.pod.actions.terminate_pods');
    expect(terminatePods.camelName).toBe('terminatePods');
    expect(terminatePods.kind).toBe('action');
    expect(terminatePods.deprecated).toBe(false);
    // `get` is added where objects change: the run's record reads their before-image.
    expect(terminatePods.rbac).toEqual([
      { apiGroups: [''], resources: ['pods'], verbs: ['list', 'delete', 'get'] },
    ]);
  });

  it.each([
    ['label_selector', 'labelSelector'],
    ['grace_period_seconds', 'gracePeriodSeconds'],
    ['ns', 'ns'],
    ['delete_pods_with_local_storage', 'deletePodsWithLocalStorage'],
    ['resource_as_yaml_file', 'resourceAsYamlFile'],
  ])('camelCase(%s) = %s', (snake, camel) => {
    expect(camelCase(snake)).toBe(camel);
  });

  it('documents every argument from the schema', () => {
    const byName = Object.fromEntries(terminatePods.arguments.map((a) => [a.name, a]));
    expect(byName.qty).toEqual({
      name: 'qty',
      camelName: 'qty',
      required: false,
      default: 1,
      description: 'Number or percentage of pods.',
      accepted: 'an integer at least 1',
    });
    expect(byName.label_selector).toMatchObject({ default: null, accepted: 'a string or null' });
    const name = scaleDeployment.arguments.find((a) => a.name === 'name');
    expect(name).toMatchObject({ required: true, accepted: 'a string' });
    expect(name && 'default' in name).toBe(false);
  });
});

describe('validate', () => {
  it('applies the defaults', () => {
    expect(terminatePods.validate({})).toEqual({
      label_selector: null,
      name_pattern: null,
      all: false,
      rand: false,
      mode: 'fixed',
      qty: 1,
      grace_period: -1,
      ns: 'default',
      order: 'alphabetic',
    });
    expect(terminatePods.validate(undefined).ns).toBe('default');
    expect(terminatePods.validate(null).ns).toBe('default');
  });

  it.each<[string, () => unknown, string | undefined, RegExp, RegExp]>([
    [
      'unknown argument',
      () => terminatePods.validate({ labelselector: 'app=x' }),
      'labelselector',
      /one of the known arguments 'label_selector', 'name_pattern', 'all'/,
      /unknown argument; did you mean 'label_selector'\?/,
    ],
    [
      'runner-injected name given as an argument',
      () => terminatePods.validate({ secrets: ['k8s'] }),
      'secrets',
      /one of the known arguments/,
      /given by the runner/,
    ],
    [
      'missing required argument',
      () => scaleDeployment.validate({ replicas: 2 }),
      'name',
      /^a string$/,
      /nothing: the argument is required/,
    ],
    [
      'wrong type',
      () => scaleDeployment.validate({ name: 'web', replicas: '2' }),
      'replicas',
      /^an integer at least 0$/,
      /the string '2'/,
    ],
    [
      'not an integer',
      () => scaleDeployment.validate({ name: 'web', replicas: 1.5 }),
      'replicas',
      /an integer/,
      /the number 1.5/,
    ],
    [
      'below the minimum',
      () => terminatePods.validate({ qty: 0 }),
      'qty',
      /^an integer at least 1$/,
      /the number 0/,
    ],
    [
      'enum',
      () => terminatePods.validate({ mode: 'some' }),
      'mode',
      /^one of 'fixed', 'percentage'$/,
      /the string 'some'/,
    ],
    [
      'out of range',
      () => addAbortFault.validate({ virtual_service_name: 'r', http_status: 700, routes: [] }),
      'http_status',
      /^an integer from 100 to 599$/,
      /the number 700/,
    ],
    [
      'union',
      () =>
        addAbortFault.validate({
          virtual_service_name: 'r',
          http_status: 500,
          routes: [],
          percentage: 'all',
        }),
      'percentage',
      /^a number from 0 to 100, a mapping with key 'value' \(a number\) or null$/,
      /the string 'all'/,
    ],
    [
      'nested element',
      () =>
        addAbortFault.validate({
          virtual_service_name: 'r',
          http_status: 500,
          routes: [{ destination: { host: 5 } }],
        }),
      'routes',
      /^a string at routes\[0\]\.destination\.host$/,
      /the number 5/,
    ],
    [
      'nested unknown key',
      () =>
        addAbortFault.validate({
          virtual_service_name: 'r',
          http_status: 500,
          routes: [{ destination: { host: 'a', sub: 'v2' } }],
        }),
      'routes',
      /at routes\[0\]\.destination$/,
      /the unknown key 'sub'/,
    ],
    [
      'empty string',
      () => addAbortFault.validate({ virtual_service_name: '', http_status: 500, routes: [] }),
      'virtual_service_name',
      /^a non-empty string$/,
      /the string ''/,
    ],
    [
      'accepted text set by the definition',
      () =>
        addAbortFault.validate({
          virtual_service_name: 'r',
          http_status: 500,
          routes: [],
          fixed_delay: '5 sec',
        }),
      'fixed_delay',
      /^a duration such as '5s'$/,
      /the string '5 sec'/,
    ],
    [
      'cross-argument check',
      () => terminatePods.validate({ mode: 'percentage', qty: 150 }),
      'qty',
      /when mode is 'percentage'/,
      /the number 150/,
    ],
    [
      'arguments not a mapping',
      () => terminatePods.validate(['a']),
      undefined,
      /a mapping of argument names/,
      /the list \["a"\]/,
    ],
  ])('%s', (_case, call, argument, accepted, received) => {
    const error = invalid(call);
    expect(error.argument).toBe(argument);
    expect(error.accepted).toMatch(accepted);
    expect(error.received).toMatch(received);
    expect(error.message).toContain(`${error.activity}: `);
    expect(error.activity).toMatch(
      /^chaos(cluster|mesh)\.[a-z.]+\.(terminate_pods|scale_deployment|add_abort_fault)$/,
    );
    if (argument) expect(error.message).toContain(`argument '${argument}'`);
  });

  it('writes a complete message', () => {
    const error = invalid(() => terminatePods.validate({ qty: 0 }));
    expect(error.message).toBe(
      "chaoscluster.pod.actions.terminate_pods: argument 'qty': expected an integer at least 1 (got the number 0)",
    );
  });

  it('reports every bad argument at once, one line each, the first in the fields', () => {
    const error = invalid(() => terminatePods.validate({ qty: 'two', grace: 5, mode: 'some' }));
    expect(error.argument).toBe('grace');
    expect(error.lines).toEqual([
      expect.stringMatching(
        /^chaoscluster\.pod\.actions\.terminate_pods: argument 'grace': expected one of the known arguments .* \(got an unknown argument; did you mean 'grace_period'\?\)$/,
      ),
      expect.stringMatching(
        /argument 'mode': expected one of 'fixed', 'percentage' .*\(got the string 'some'\)$/,
      ),
      "chaoscluster.pod.actions.terminate_pods: argument 'qty': expected an integer at least 1 (got the string 'two')",
    ]);
    expect(error.message).toBe(error.lines.join('\n'));
  });

  it('never shows a secret that was received', () => {
    registerSecret('s3cr3t-token-value');
    const error = invalid(() => scaleDeployment.validate({ name: 'web', replicas: 's3cr3t-token-value' }));
    expect(error.received).toBe("the string '***'");
    expect(error.message).not.toContain('s3cr3t');
  });

  it('shortens long values', () => {
    const error = invalid(() =>
      scaleDeployment.validate({ name: 'x'.repeat(500), replicas: 'y'.repeat(500) }),
    );
    expect(error.received?.length).toBeLessThan(120);
  });
});

describe('call', () => {
  it('does not run when the arguments are invalid', async () => {
    const run = vi.fn();
    const activity = defineActivity({
      ...base,
      name: 'delete_pods',
      args: { name: z.string().describe('Pod name label.') },
      run,
    });
    await expect(activity.call({ name: 3 })).rejects.toBeInstanceOf(InvalidArgument);
    await expect(activity.fn({ name: 3 as unknown as string })).rejects.toBeInstanceOf(InvalidArgument);
    expect(run).not.toHaveBeenCalled();
  });

  it('passes validated arguments and the context', async () => {
    const result = await terminatePods.call({ qty: 2 }, { secrets: { CLUSTER_CONTEXT: 'kind' } });
    expect(result.args.qty).toBe(2);
    expect(result.args.order).toBe('alphabetic');
    expect(result.secrets).toEqual({ CLUSTER_CONTEXT: 'kind' });
  });

  it('redacts what the activity logs', async () => {
    const lines: string[] = [];
    const activity = defineActivity({
      name: 'get_nodes',
      kind: 'probe',
      module: 'chaoscluster.node.probes',
      doc: 'Lists nodes.',
      args: {},
      rbac: [],
      run: (_args, ctx) => {
        ctx.log(`token is ${String(ctx.secrets.CLUSTER_API_KEY)}`);
        return ctx.configuration;
      },
    });
    const result = await activity.call(undefined, {
      secrets: { CLUSTER_API_KEY: 'abcdefgh-api-key' },
      configuration: { a: 1 },
      log: (line) => lines.push(line),
    });
    expect(lines).toEqual(['token is ***']);
    expect(result).toEqual({ a: 1 });
    await expect(activity.call({ x: 1 })).rejects.toThrow(/expected no argument at all/);
  });

  it('stops before running when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(
      scaleDeployment.call({ name: 'a', replicas: 1 }, { signal: controller.signal }),
    ).rejects.toThrow('stop');
  });
});

describe('fn: the camelCase export', () => {
  it('converts camelCase options back and validates them the same way', async () => {
    const result = await terminatePods.fn({ labelSelector: 'app=web', gracePeriod: 5, secrets: { A: 'b' } });
    expect(result.args).toMatchObject({ label_selector: 'app=web', grace_period: 5, qty: 1 });
    expect(result.secrets).toEqual({ A: 'b' });
    expect(await scaleDeployment.fn({ name: 'web', replicas: 3 })).toBe(3);
  });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['a wrong type names the camelCase option', { gracePeriod: 'soon' }, 'gracePeriod', /an integer/],
    [
      'an unknown option lists camelCase names',
      { labelSelectr: 'a' },
      'labelSelectr',
      /'labelSelector'.*did you mean 'labelSelector'/,
    ],
    [
      'snake_case keys are not options',
      { label_selector: 'a' },
      'label_selector',
      /'labelSelector', 'namePattern'/,
    ],
    ['cross-argument check', { mode: 'percentage', qty: 101 }, 'qty', /when mode is 'percentage'/],
  ])('%s', async (_case, options, argument, text) => {
    const error = (await terminatePods.fn(options as never).catch((e: unknown) => e)) as InvalidArgument;
    expect(isChaosError(error, 'InvalidArgument')).toBe(true);
    expect(error.activity).toBe('chaoscluster.pod.actions.terminate_pods');
    expect(error.argument).toBe(argument);
    expect(error.message).toMatch(text);
  });

  it('ignores options given as undefined', async () => {
    const result = await terminatePods.fn({ labelSelector: undefined });
    expect(result.args.label_selector).toBeNull();
  });

  it('is typed from the schema', () => {
    /** What every activity's options hold beside its arguments. */
    type Injected = {
      secrets?: Record<string, unknown>;
      configuration?: Record<string, unknown>;
      signal?: AbortSignal;
      log?: (message: string) => void;
      dryRun?: boolean;
      safety?: Safety | SafetyOptions;
    };
    /** An activity's options: its arguments (camelCase) and the injected ones, as one object type. */
    type WithInjected<Args> = { [K in keyof (Args & Injected)]: (Args & Injected)[K] };
    type Options = Parameters<typeof scaleDeployment.fn>[0];
    expectTypeOf<Options>().toEqualTypeOf<
      WithInjected<{
        name: string;
        replicas: number;
        ns?: string | undefined;
      }>
    >();
    expectTypeOf(terminatePods.fn).parameter(0).toEqualTypeOf<
      | WithInjected<{
          labelSelector?: string | null | undefined;
          namePattern?: string | null | undefined;
          all?: boolean | undefined;
          rand?: boolean | undefined;
          mode?: 'fixed' | 'percentage' | undefined;
          qty?: number | undefined;
          gracePeriod?: number | undefined;
          ns?: string | undefined;
          order?: 'alphabetic' | 'oldest' | undefined;
        }>
      | undefined
    >();
    expectTypeOf(scaleDeployment.fn).returns.toEqualTypeOf<Promise<number>>();
    expectTypeOf(scaleDeployment.validate).returns.toEqualTypeOf<{
      name: string;
      replicas: number;
      ns: string;
    }>();
    // @ts-expect-error: a required option is missing
    void (() => scaleDeployment.fn({ name: 'x' }));
    // @ts-expect-error: experiment (snake_case) names are not options
    void (() => terminatePods.fn({ label_selector: 'x' }));
  });
});

describe('jsonSchema', () => {
  it('is draft 2020-12 with defaults, descriptions and no unknown arguments', () => {
    const schema = terminatePods.jsonSchema();
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'chaoscluster.pod.actions.terminate_pods',
      description: 'Terminates selected pods gracefully.',
      type: 'object',
      additionalProperties: false,
      properties: {
        qty: { type: 'integer', minimum: 1, default: 1, description: 'Number or percentage of pods.' },
        mode: { enum: ['fixed', 'percentage'], default: 'fixed' },
        label_selector: { default: null },
      },
    });
    expect(schema.required).toBeUndefined();
    expect(scaleDeployment.jsonSchema().required).toEqual(['name', 'replicas']);
    expect(scaleDeployment.jsonSchema()).not.toHaveProperty('deprecated');
  });

  it('marks deprecated activities', () => {
    const old = defineActivity({
      ...base,
      name: 'kill_microservice',
      module: 'chaoscluster.actions',
      args: { name: z.string().describe('Name.') },
      deprecated: 'use chaoscluster.deployment.actions.delete_deployment',
    });
    expect(old.deprecated).toBe(true);
    expect(old.deprecationNote).toMatch(/delete_deployment/);
    expect(old.jsonSchema().deprecated).toBe(true);
  });
});

describe('describeSchema', () => {
  it.each<[string, z.core.$ZodType, string]>([
    ['integer range', z.int().min(1).max(100), 'an integer from 1 to 100'],
    ['exclusive bound', z.number().gt(0), 'a number greater than 0'],
    ['upper bound', z.number().lte(5), 'a number at most 5'],
    ['enum', z.enum(['fixed', 'percentage']), "one of 'fixed', 'percentage'"],
    ['string', z.string(), 'a string'],
    ['regex', z.string().regex(/^a+$/), 'a string matching /^a+$/'],
    ['boolean', z.boolean(), 'a boolean (true or false)'],
    ['list of strings', z.array(z.string()), 'a list of strings'],
    ['string or list', z.union([z.string(), z.array(z.string())]), 'a string or a list of strings'],
    ['non-empty list', z.array(z.int()).min(1), 'a non-empty list of integers'],
    ['mapping of strings', z.record(z.string(), z.string()), 'a mapping from strings to strings'],
    ['any mapping', z.record(z.string(), z.unknown()), 'a mapping'],
    [
      'list of mappings',
      z.array(z.record(z.string(), z.string())),
      'a list of mappings from strings to strings',
    ],
    ['literal', z.literal('v1'), "'v1'"],
    ['nullable default', z.string().nullable().default(null), 'a string or null'],
  ])('%s', (_case, schema, text) => {
    expect(describeSchema(schema)).toBe(text);
  });
});

describe('renderValue', () => {
  it.each<[unknown, string]>([
    [undefined, 'nothing'],
    [null, 'null'],
    ['a', "the string 'a'"],
    ["it's", "the string 'it\\'s'"],
    [3, 'the number 3'],
    [true, 'true'],
    [[1, 'a'], 'the list [1,"a"]'],
    [{ a: 1 }, 'the mapping {"a":1}'],
  ])('%j', (value, text) => {
    expect(renderValue(value)).toBe(text);
  });
});

describe('definition mistakes are caught at definition time', () => {
  it.each<[string, () => unknown, RegExp]>([
    ['camelCase name', () => defineActivity({ ...base, name: 'terminatePods', args: {} }), /snake_case/],
    [
      'undocumented argument',
      () => defineActivity({ ...base, name: 'a', args: { ns: z.string() } }),
      /describe/,
    ],
    [
      'reserved argument',
      () => defineActivity({ ...base, name: 'a', args: { secrets: z.string().describe('x') } }),
      /injected/,
    ],
    ['module', () => defineActivity({ ...base, name: 'a', module: 'pod', args: {} }), /module/],
    [
      'bad rbac',
      () =>
        defineActivity({
          ...base,
          name: 'a',
          args: {},
          rbac: [{ apiGroups: [''], resources: 'pods', verbs: [] } as never],
        }),
      /RBAC/,
    ],
  ])('%s', (_case, define, message) => {
    expect(define).toThrow(message);
  });
});
