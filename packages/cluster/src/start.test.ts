import { describe, expect, it } from 'vitest';
import { start } from './start.js';

describe('start', () => {
  it("refuses the istiod mesh mode on a user's cluster, before doing anything", async () => {
    await expect(start({ provider: 'kubeconfig', context: 'any', mesh: { istiod: true } })).rejects.toThrow(
      /runs on the local and k3s providers, not kubeconfig/,
    );
    await expect(start({ provider: 'kubeconfig', context: 'any', mesh: 'istiod' })).rejects.toThrow(
      /chaoskit installs nothing into your cluster/,
    );
  });

  it('refuses a count of real nodes it cannot address, before starting anything', async () => {
    for (const realNodes of [-1, 1.5, 8])
      await expect(start({ provider: 'local', realNodes })).rejects.toThrow(
        `realNodes must be a whole number from 0 to 7, not ${realNodes}`,
      );
  });
});
