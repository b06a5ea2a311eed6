import { podIsNotAvailableActivity, readPodLogsActivity } from '@chaoskit/chaoscluster-pod';
import { argumentSignatures, expectAsDeclared, refusals } from '@chaoskit/cluster/testing';
import { isChaosError } from '@chaoskit/core';
import { describe, expect, it } from 'vitest';
import { activities, aliases, serviceIsInitializedActivity } from './index.js';

const refusal = refusals(isChaosError);

describe('the service activities of chaostoolkit-kubernetes 0.25.1', () => {
  it('are every activity the package defines, in the modules its package.json declares', () =>
    expectAsDeclared(import.meta.url));

  it('declares every operation with its arguments and defaults as in 0.25.1', () => {
    expect(argumentSignatures(activities)).toMatchObject({
      'chaoscluster.service.actions.create_service_endpoint': ['spec_path*', 'ns="default"'],
      'chaoscluster.service.actions.delete_service': ['name*', 'ns="default"'],
      'chaoscluster.service.probes.service_is_initialized': [
        'name=null',
        'ns="default"',
        'label_selector=null',
      ],
    });
  });

  it('finds read_pod_logs and pod_is_not_available in its probes module, as service/probes.py imports them', () => {
    expect(aliases.map((a) => [a.qualifiedName, a.activity])).toEqual([
      ['chaoscluster.service.probes.pod_is_not_available', podIsNotAvailableActivity],
      ['chaoscluster.service.probes.read_pod_logs', readPodLogsActivity],
    ]);
  });

  it('service_is_initialized checks the name, and the selector once {name} is filled in (D75)', () => {
    expect(refusal(() => serviceIsInitializedActivity.validate({ name: 'Web_1' })).argument).toBe('name');
    expect(
      refusal(() => serviceIsInitializedActivity.validate({ label_selector: 'name={name}' })).argument,
    ).toBe('name');
    expect(
      refusal(() => serviceIsInitializedActivity.validate({ name: 'web', label_selector: 'a in ({name}' }))
        .argument,
    ).toBe('label_selector');
    expect(serviceIsInitializedActivity.validate({}).name).toBe(null);
  });
});
