import { describe, expect, it } from 'vitest';
import { unhealthy } from './all-pods-healthy.js';

describe('all_pods_healthy', () => {
  const pod = (name: string, phase?: string) => ({
    metadata: { name },
    ...(phase ? { status: { phase } } : {}),
  });

  it('counts Running and Succeeded pods as healthy, any other phase (or none) as not', () => {
    expect(unhealthy(pod('a', 'Running'))).toBeUndefined();
    expect(unhealthy(pod('b', 'Succeeded'))).toBeUndefined();
    expect(unhealthy(pod('c', 'Failed'))).toBe('pod c is Failed');
    expect(unhealthy(pod('d', 'Pending'))).toBe('pod d is Pending, not Running or Succeeded');
    expect(unhealthy(pod('e'))).toBe('pod e is Unknown, not Running or Succeeded');
  });
});
