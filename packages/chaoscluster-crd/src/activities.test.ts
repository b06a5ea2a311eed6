import { join } from 'node:path';
import { argumentSignatures, expectAsDeclared, refusals, scratchFiles } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import {
  activities,
  createClusterCustomObjectActivity,
  createCustomObjectActivity,
  patchCustomObjectActivity,
  replaceClusterCustomObjectActivity,
  replaceCustomObjectActivity,
} from './index.js';

const { dir, write: file } = scratchFiles('chaoskit-crd-');

const refusal = refusals(isChaosError);

const gvp = { group: 'ex.test', version: 'v1', plural: 'widgets' };
const widget = { apiVersion: 'ex.test/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 } };

describe('the activities of chaostoolkit-kubernetes 0.25.1', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('declares the twelve operations with their arguments and defaults, in 0.25.1 order', () => {
    const shape = argumentSignatures(activities);
    const type = ['group*', 'version*', 'plural*'];
    const body = ['resource=null', 'resource_as_yaml_file=null'];
    expect(shape).toMatchObject({
      'chaoscluster.crd.actions.create_custom_object': [...type, 'ns="default"', ...body],
      'chaoscluster.crd.actions.create_cluster_custom_object': [...type, ...body],
      'chaoscluster.crd.actions.delete_custom_object': [...type, 'name*', 'ns="default"'],
      'chaoscluster.crd.actions.delete_cluster_custom_object': [...type, 'name*'],
      'chaoscluster.crd.actions.patch_custom_object': [
        ...type,
        'name*',
        'ns="default"',
        'force=false',
        ...body,
      ],
      'chaoscluster.crd.actions.patch_cluster_custom_object': [...type, 'name*', 'force=false', ...body],
      'chaoscluster.crd.actions.replace_custom_object': [
        ...type,
        'name*',
        'ns="default"',
        'force=false',
        ...body,
      ],
      'chaoscluster.crd.actions.replace_cluster_custom_object': [...type, 'name*', 'force=false', ...body],
      'chaoscluster.crd.probes.get_custom_object': [...type, 'name*', 'ns="default"'],
      'chaoscluster.crd.probes.get_cluster_custom_object': [...type, 'name*'],
      'chaoscluster.crd.probes.list_custom_objects': [...type, 'ns="default"'],
      'chaoscluster.crd.probes.list_cluster_custom_objects': type,
    });
  });

  it('gives each activity its kind, documentation and only the verbs it needs', () => {
    const verbs = Object.fromEntries(activities.map((a) => [a.name, a.rbac.flatMap((r) => r.verbs)]));
    expect(verbs).toEqual({
      create_custom_object: ['create'],
      create_cluster_custom_object: ['create'],
      // get: the run's record reads what it deletes first.
      delete_custom_object: ['delete', 'get'],
      delete_cluster_custom_object: ['delete', 'get'],
      patch_custom_object: ['get', 'patch'],
      patch_cluster_custom_object: ['get', 'patch'],
      replace_custom_object: ['get', 'update'],
      replace_cluster_custom_object: ['get', 'update'],
      get_custom_object: ['get'],
      get_cluster_custom_object: ['get'],
      list_custom_objects: ['list'],
      list_cluster_custom_objects: ['list'],
    });
    for (const a of activities) {
      expect(a.kind).toBe(a.module.endsWith('.actions') ? 'action' : 'probe');
      expect(a.rbac.every((r) => r.apiGroups.join() === '*' && r.resources.join() === '*')).toBe(true);
      for (const arg of a.arguments) expect(arg.description, `${a.name}.${arg.name}`).toBeTruthy();
    }
  });

  it('describes resource as a mapping and resource_as_yaml_file as a path in the JSON Schema', () => {
    type Prop = { type?: string | string[]; anyOf?: Prop[] };
    const schema = createCustomObjectActivity.jsonSchema() as {
      properties: Record<string, Prop>;
      required: string[];
    };
    const types = (p: Prop | undefined): string[] =>
      p?.anyOf ? p.anyOf.flatMap(types) : [p?.type ?? []].flat();
    expect(schema.required).toEqual(['group', 'version', 'plural']);
    expect(types(schema.properties.resource)).toEqual(['object', 'null']);
    expect(types(schema.properties.resource_as_yaml_file)).toEqual(['string', 'null']);
  });
});

describe('the body: resource or resource_as_yaml_file', () => {
  it('takes resource as given', () => {
    const args = createCustomObjectActivity.validate({ ...gvp, resource: widget });
    expect(args.resource).toEqual(widget);
    expect(args.resource_as_yaml_file).toBeNull();
    expect(args.ns).toBe('default');
  });

  it('reads the file as YAML whatever its extension, JSON included', () => {
    for (const [name, text] of [
      ['w.yaml', 'apiVersion: ex.test/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  size: 1\n'],
      ['w.json', JSON.stringify(widget)],
      ['w.txt', JSON.stringify(widget)],
    ] as const) {
      const path = file(name, text);
      const args = createCustomObjectActivity.validate({ ...gvp, resource_as_yaml_file: path });
      expect(args.resource_as_yaml_file).toEqual({ path, body: widget });
    }
  });

  it('refuses both, neither, and bad files, naming the argument', () => {
    const good = file('good.yaml', JSON.stringify(widget));
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ ...gvp, resource: widget, resource_as_yaml_file: good }, 'resource', /not both/],
      [{ ...gvp }, 'resource', /exactly one of them/],
      [{ ...gvp, resource_as_yaml_file: join(dir, 'missing.yaml') }, 'resource_as_yaml_file', /no such file/],
      [
        { ...gvp, resource_as_yaml_file: file('bad.yaml', 'a: [b\n') },
        'resource_as_yaml_file',
        /not valid YAML/,
      ],
      [{ ...gvp, resource_as_yaml_file: file('list.yaml', '- a\n') }, 'resource_as_yaml_file', /a list/],
      [
        { ...gvp, resource_as_yaml_file: file('two.yaml', 'a: 1\n---\nb: 2\n') },
        'resource_as_yaml_file',
        /2 documents/,
      ],
      [{ ...gvp, resource: { kind: 'Widget' } }, 'resource', /no apiVersion/],
      [{ ...gvp, resource: [widget] }, 'resource', /a mapping/],
      [{ ...gvp, resource: { ...widget, apiVersion: 'ex.test/v2' } }, 'resource', /apiVersion 'ex.test\/v1'/],
      [{ ...gvp, resource: { ...widget, metadata: {} } }, 'resource', /metadata.name/],
      [{ ...gvp, resource: { ...widget, metadata: { name: 'w1', namespace: 'other' } } }, 'ns', /'other'/],
      [{ ...gvp, resource_as_yaml_file: 42 }, 'resource_as_yaml_file', /string/],
      [{ ...gvp, resource: widget, group: 'Not A Group' }, 'group', /API group/],
      [{ ...gvp, resource: widget, resources: widget }, 'resources', /did you mean 'resource'/],
    ];
    for (const [args, argument, accepted] of cases) {
      const err = refusal(() => createCustomObjectActivity.validate(args));
      expect(err.argument, JSON.stringify(args)).toBe(argument);
      expect(err.message).toMatch(accepted);
    }
  });

  it('shows the path, not the parsed file, when a file is refused across arguments', () => {
    const path = file('v2.yaml', JSON.stringify({ ...widget, apiVersion: 'ex.test/v2' }));
    const err = refusal(() => createCustomObjectActivity.validate({ ...gvp, resource_as_yaml_file: path }));
    expect(err.message).toContain(path);
  });

  it('accepts a generateName on create, and no namespace on the cluster variant', () => {
    const generated = { ...widget, metadata: { generateName: 'w-' } };
    expect(createCustomObjectActivity.validate({ ...gvp, resource: generated }).resource).toEqual(generated);
    expect(() => createClusterCustomObjectActivity.validate({ ...gvp, resource: widget, ns: 'x' })).toThrow(
      /'ns'/,
    );
  });

  it('patch and replace: the object name is the name argument', () => {
    const args = { ...gvp, name: 'w1', resource: { ...widget, metadata: {} } };
    expect(patchCustomObjectActivity.validate(args).name).toBe('w1');
    const err = refusal(() => patchCustomObjectActivity.validate({ ...args, name: 'w2', resource: widget }));
    expect(err.argument).toBe('resource');
    expect(err.message).toMatch(/named 'w2'/);
  });

  it('replace without force needs the resourceVersion it replaces', () => {
    const args = { ...gvp, name: 'w1', resource: widget };
    for (const activity of [replaceCustomObjectActivity, replaceClusterCustomObjectActivity]) {
      const err = refusal(() => activity.validate(args));
      expect(err.argument).toBe('force');
      expect(err.message).toMatch(/metadata.resourceVersion/);
      expect(activity.validate({ ...args, force: true }).force).toBe(true);
      const versioned = { ...widget, metadata: { name: 'w1', resourceVersion: '12' } };
      expect(activity.validate({ ...args, resource: versioned }).force).toBe(false);
    }
  });
});
