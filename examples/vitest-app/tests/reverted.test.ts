// A fault is reverted when its handle is disposed, even when the code after it throws.
// #region reverted
import { expect, test } from '@chaoskit/vitest';

const route = { destination: { host: 'reviews', subset: 'v1' } };

test('a fault reverts when the code after it throws', async ({ chaos }) => {
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
  const reviews = {
    group: 'networking.istio.io',
    version: 'v1',
    plural: 'virtualservices',
    name: 'reviews',
    ns: ns.name,
  };
  // What a revert must give back: the spec, the labels and the annotations (chaoskit's marks).
  const content = async () => {
    const { metadata, spec } = (await chaos.probe.getCustomObject(reviews)) as {
      metadata?: Record<string, unknown>;
      spec?: unknown;
    };
    return { labels: metadata?.labels, annotations: metadata?.annotations, spec };
  };
  const before = await content();

  const failing = async () => {
    await using abort = await chaos.addAbortFault({
      virtualServiceName: 'reviews',
      ns: ns.name,
      httpStatus: 503,
      routes: [route],
    });
    expect(abort.result.spec.http?.[0]?.fault).toMatchObject({ abort: { httpStatus: 503 } });
    throw new Error('what the test checks next fails');
  };
  await expect(failing()).rejects.toThrow('what the test checks next fails');
  // The VirtualService is back as it was: the abort is gone, and so is chaoskit's mark.
  expect(await content()).toEqual(before);
});
// #endregion
