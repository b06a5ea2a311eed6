import { argumentSignatures, expectAsDeclared, refusals, scratchFiles } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import {
  activities,
  createStatefulsetActivity,
  removeStatefulsetActivity,
  scaleStatefulsetActivity,
} from './index.js';

const files = scratchFiles('chaoskit-statefulset-');

const refusal = refusals(isChaosError);
// The arguments of both availability probes (fully and not fully available), as in 0.25.1.
const availabilityProbe = ['name*', 'ns="default"', 'label_selector=null', 'timeout=30'];

describe('the statefulset activities of chaostoolkit-kubernetes 0.25.1', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('declares every operation with its arguments and defaults as in 0.25.1 (D77: remove_statefulset needs a name)', () => {
    expect(argumentSignatures(activities)).toMatchObject({
      'chaoscluster.statefulset.actions.create_statefulset': ['spec_path*', 'ns="default"'],
      'chaoscluster.statefulset.actions.remove_statefulset': ['name*', 'ns="default"', 'label_selector=null'],
      'chaoscluster.statefulset.actions.scale_statefulset': ['name*', 'replicas*', 'ns="default"'],
      'chaoscluster.statefulset.probes.statefulset_fully_available': availabilityProbe,
      'chaoscluster.statefulset.probes.statefulset_not_fully_available': availabilityProbe,
    });
    for (const a of activities) {
      expect(a.kind).toBe(a.module.endsWith('.actions') ? 'action' : 'probe');
      expect(a.rbac.some((r) => r.apiGroups.join() === 'apps' && r.resources.join() === 'statefulsets')).toBe(
        true,
      );
    }
  });
});

describe('argument checks', () => {
  it('create_statefulset reads its file while validating: one apps/v1 StatefulSet, in ns', () => {
    const write = (name: string, doc: unknown) => files.write(name, JSON.stringify(doc));
    const sts = (namespace?: string) => ({
      kind: 'StatefulSet',
      metadata: { name: 'db', ...(namespace ? { namespace } : {}) },
      spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: {} },
    });
    const args = createStatefulsetActivity.validate({ spec_path: write('db.json', sts()) });
    expect(args.spec_path.body.apiVersion).toBe('apps/v1');
    expect(
      refusal(() =>
        createStatefulsetActivity.validate({ spec_path: write('d.json', { ...sts(), kind: 'Deployment' }) }),
      ).message,
    ).toMatch(
      /expected a \.json, \.yaml or \.yml file holding one apps\/v1 StatefulSet; the document is a "Deployment", not a StatefulSet/,
    );
    expect(
      refusal(() =>
        createStatefulsetActivity.validate({ spec_path: write('o.json', sts('other')), ns: 'shop' }),
      ).argument,
    ).toBe('ns');
  });

  it('scale_statefulset and remove_statefulset take an object name; replicas are whole and not negative', () => {
    expect(refusal(() => scaleStatefulsetActivity.validate({ name: 'db', replicas: -1 })).argument).toBe(
      'replicas',
    );
    expect(refusal(() => scaleStatefulsetActivity.validate({ name: 'DB', replicas: 1 })).argument).toBe(
      'name',
    );
    expect(refusal(() => removeStatefulsetActivity.validate({})).argument).toBe('name');
    expect(
      refusal(() => removeStatefulsetActivity.validate({ name: 'db', label_selector: 'app in ({name}' }))
        .argument,
    ).toBe('label_selector');
  });
});
