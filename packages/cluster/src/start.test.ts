import { describe, expect, it } from 'vitest';
import { start } from './start.js';

describe('start', () => {
  it('refuses the istiod mesh mode on providers other than local, before doing anything', async () => {
    await expect(start({ provider: 'k3s', mesh: 'istiod' })).rejects.toThrow(/local provider only, not k3s/);
    await expect(start({ provider: 'kubeconfig', context: 'any', mesh: { istiod: true } })).rejects.toThrow(
      /local provider only, not kubeconfig/,
    );
  });
});
