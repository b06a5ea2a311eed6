import { join } from 'node:path';
import { argumentSignatures, expectAsDeclared, refusals, scratchFiles } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import {
  activities,
  createDeploymentActivity,
  deleteDeploymentActivity,
  scaleDeploymentActivity,
} from './index.js';

const { dir, write } = scratchFiles('chaoskit-activities-');

const refusal = refusals(isChaosError);
// The arguments of both availability probes (fully and not fully available), as in 0.25.1.
const availabilityProbe = ['name*', 'ns="default"', 'label_selector=null', 'timeout=30'];

describe('the activities of chaostoolkit-kubernetes 0.25.1', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('declares every operation with its arguments and defaults, exactly as in 0.25.1', () => {
    expect(argumentSignatures(activities)).toMatchObject({
      'chaoscluster.deployment.actions.create_deployment': ['spec_path*', 'ns="default"'],
      'chaoscluster.deployment.actions.delete_deployment': [
        'name*',
        'ns="default"',
        'label_selector="name in ({name})"',
      ],
      'chaoscluster.deployment.actions.scale_deployment': ['name*', 'replicas*', 'ns="default"'],
      'chaoscluster.deployment.probes.deployment_available_and_healthy': [
        'name*',
        'ns="default"',
        'label_selector=null',
      ],
      'chaoscluster.deployment.probes.deployment_fully_available': availabilityProbe,
      'chaoscluster.deployment.probes.deployment_not_fully_available': availabilityProbe,
    });
    for (const a of activities) {
      expect(a.kind).toBe(a.module.endsWith('.actions') ? 'action' : 'probe');
      for (const arg of a.arguments) expect(arg.description, `${a.name}.${arg.name}`).toBeTruthy();
      expect(a.rbac.every((r) => r.apiGroups.join() === 'apps' && r.resources.join() === 'deployments')).toBe(
        true,
      );
    }
  });

  it('describes spec_path as a string in the JSON Schema, though run receives the parsed file', () => {
    const schema = createDeploymentActivity.jsonSchema() as {
      properties: Record<string, { type?: string }>;
      required: string[];
    };
    expect(schema.properties.spec_path?.type).toBe('string');
    expect(schema.required).toEqual(['spec_path']);
  });
});

describe('create_deployment validation (no cluster involved)', () => {
  const doc = (ns?: string) =>
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', ...(ns ? { namespace: ns } : {}) },
      spec: { selector: { matchLabels: { app: 'web' } } },
    });

  it('gives run the parsed document', () => {
    const path = write('ok.json', doc());
    const args = createDeploymentActivity.validate({ spec_path: path, ns: 'team' });
    expect(args.spec_path.format).toBe('json');
    expect(args.spec_path.body.metadata?.name).toBe('web');
    expect(args.ns).toBe('team');
  });

  it('refuses a bad file as a bad spec_path, with the reason and the path', () => {
    const missing = join(dir, 'missing.yaml');
    const err = refusal(() => createDeploymentActivity.validate({ spec_path: missing }));
    expect(err.argument).toBe('spec_path');
    expect(err.message).toBe(
      `chaoscluster.deployment.actions.create_deployment: argument 'spec_path': expected a .json, .yaml or .yml file holding one apps/v1 Deployment; no such file (got the string '${missing}')`,
    );
    expect(
      refusal(() => createDeploymentActivity.validate({ spec_path: write('a.txt', doc()) })).message,
    ).toMatch(/'\.txt' is neither/);
    expect(
      refusal(() => createDeploymentActivity.validate({ spec_path: write('b.yaml', 'a: [') })).message,
    ).toMatch(/not valid YAML/);
    expect(refusal(() => createDeploymentActivity.validate({ spec_path: 3 })).argument).toBe('spec_path');
    expect(refusal(() => createDeploymentActivity.validate({})).message).toMatch(/required/);
  });

  it('refuses a file whose namespace is not ns, naming ns; a file with the same namespace is fine', () => {
    const path = write('prod.json', doc('prod'));
    const err = refusal(() => createDeploymentActivity.validate({ spec_path: path }));
    expect(err.argument).toBe('ns');
    expect(err.message).toMatch(/expected 'prod', the namespace that the file at spec_path/);
    expect(err.message).toMatch(/got the string 'default'/);
    expect(createDeploymentActivity.validate({ spec_path: path, ns: 'prod' }).ns).toBe('prod');
  });
});

describe('argument checks of the other activities', () => {
  it('delete_deployment checks the selector once {name} is replaced', () => {
    expect(refusal(() => deleteDeploymentActivity.validate({ name: 'a b' })).argument).toBe('label_selector');
    expect(refusal(() => deleteDeploymentActivity.validate({ name: '' })).argument).toBe('name');
    expect(deleteDeploymentActivity.validate({ name: 'web', label_selector: 'app=x' }).label_selector).toBe(
      'app=x',
    );
  });

  it('scale_deployment takes a whole, non-negative number of replicas and a deployment name', () => {
    expect(refusal(() => scaleDeploymentActivity.validate({ name: 'web', replicas: -1 })).argument).toBe(
      'replicas',
    );
    expect(refusal(() => scaleDeploymentActivity.validate({ name: 'web', replicas: 1.5 })).argument).toBe(
      'replicas',
    );
    expect(refusal(() => scaleDeploymentActivity.validate({ name: 'Web!', replicas: 1 })).argument).toBe(
      'name',
    );
    expect(scaleDeploymentActivity.validate({ name: 'web', replicas: 0 }).replicas).toBe(0);
  });
});
