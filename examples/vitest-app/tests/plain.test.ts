// #region plain
import { chaosCluster } from '@chaoskit/vitest';
import { createChaos, withFault } from '@chaoskit/vitest/plain';
import { afterEach, expect, test } from 'vitest';

// Elsewhere: createChaos({ kubeconfigPath, context }), or createChaos() for kubectl's cluster.
const chaos = createChaos(chaosCluster());
// What a test left in place (a fault, a namespace), named and undone: the test fails on it.
afterEach(async () => expect(await chaos.settle({ namespaces: true })).toEqual([]));

const route = { destination: { host: 'reviews', subset: 'v1' } };

test('withFault reverts a fault however its body ends (no fixture: node:test, jest)', async () => {
  await using ns = await chaos.testNamespace('shop');
  await using _reviews = await chaos.createCustomObject({
    group: 'networking.istio.io',
    version: 'v1',
    plural: 'virtualservices',
    ns: ns.name,
    resource: {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'reviews' },
      spec: { hosts: ['reviews'], http: [{ route: [route] }] },
    },
  });
  const failing = withFault(
    chaos.addAbortFault({ virtualServiceName: 'reviews', ns: ns.name, httpStatus: 500, routes: [route] }),
    async (abort) => {
      expect(abort.result.spec.http?.[0]?.fault).toMatchObject({ abort: { httpStatus: 500 } });
      throw new Error('body failed'); // the abort is reverted all the same
    },
  );
  await expect(failing).rejects.toThrow('body failed');
  const reviews = { group: 'networking.istio.io', version: 'v1', plural: 'virtualservices', name: 'reviews' };
  const { spec } = (await chaos.probe.getCustomObject({ ...reviews, ns: ns.name })) as { spec?: unknown };
  expect(spec).toEqual({ hosts: ['reviews'], http: [{ route: [route] }] });
});
// #endregion
