// Pods of a Deployment are killed, and the Deployment recovers.
// #region pods
import { expect, test } from '@chaoskit/vitest';

test('pods killed, the Deployment recovers', async ({ chaos }) => {
  await using ns = await chaos.testNamespace('shop');
  // Created as a fault too: disposing it deletes the Deployment.
  await using web = await chaos.createDeployment({ specPath: 'tests/web.yaml', ns: ns.name });
  expect(web.result.name).toBe('web');
  const available = chaos.probe.deploymentFullyAvailable({ name: 'web', ns: ns.name });
  await expect(available).toHoldWithin('2m');

  await using killed = await chaos.terminatePods({ ns: ns.name, labelSelector: 'app=web', qty: 2 });
  expect(killed.result.pods).toHaveLength(2);
  await expect(available).toRecoverWithin('2m');
});
// #endregion
