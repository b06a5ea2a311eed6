import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { containersOf, DEFAULT_CONTAINER_ANNOTATION, defaultContainer, hasContainer } from './containers.js';

const pod = (containers: string[], annotated?: string): V1Pod => ({
  metadata: {
    name: 'p',
    ...(annotated ? { annotations: { [DEFAULT_CONTAINER_ANNOTATION]: annotated } } : {}),
  },
  spec: { containers: containers.map((name) => ({ name })) },
});

describe('defaultContainer', () => {
  it('is the first container when there is no annotation', () => {
    expect(defaultContainer(pod(['app', 'sidecar']))).toBe('app');
  });

  it('is the container the default-container annotation names', () => {
    expect(defaultContainer(pod(['app', 'sidecar'], 'sidecar'))).toBe('sidecar');
  });

  it('falls back to the first when the annotation names no container of the pod (as kubectl)', () => {
    expect(defaultContainer(pod(['app', 'sidecar'], 'gone'))).toBe('app');
  });

  it('is undefined for a pod without containers', () => {
    expect(defaultContainer({ metadata: { name: 'p' } })).toBeUndefined();
  });
});

describe('hasContainer', () => {
  it('matches container names exactly', () => {
    expect(hasContainer(pod(['app']), 'app')).toBe(true);
    expect(hasContainer(pod(['app']), 'App')).toBe(false);
  });
});

describe('containersOf', () => {
  it('takes container_name where the pod has it, else the default container, and says why a pod is left out', () => {
    const pods = [pod(['app', 'sidecar'], 'sidecar'), { metadata: { name: 'bare' } }];
    expect(containersOf(pods, null)).toEqual({
      targets: [{ pod: pods[0], container: 'sidecar' }],
      skipped: ['pod bare has no container; skipped'],
    });
    expect(containersOf([pod(['app'])], 'sidecar')).toEqual({
      targets: [],
      skipped: ['pod p has no container named sidecar; skipped'],
    });
  });
});
