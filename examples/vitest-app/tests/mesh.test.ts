// An abort written into a VirtualService is seen on real traffic: gRPC requests of a proxyless
// client that gets its routes from istiod. It needs istiod (CHAOSKIT_MESH=istiod starts one with
// the local cluster); without it the test is skipped and says why.
// #region mesh
import { errorRateOf, expect, meshTraffic, meshUnavailable, test } from '@chaoskit/vitest';

const REVIEWS = 'reviews.mesh.local';
const why = meshUnavailable();

test.skipIf(why)(
  `a mesh abort is seen on real traffic${why ? ` (skipped: ${why})` : ''}`,
  async ({ chaos }) => {
    // Backends behind the mesh host, and a client sending on route `all`.
    await using traffic = await meshTraffic({
      hosts: [{ name: REVIEWS }],
      routes: { all: { host: REVIEWS } },
    });
    const ns = traffic.namespace;
    const route = { destination: { host: REVIEWS, subset: 'v1' } };
    await using _routes = await chaos.createCustomObject({
      group: 'networking.istio.io',
      version: 'v1',
      plural: 'virtualservices',
      ns,
      resource: {
        apiVersion: 'networking.istio.io/v1',
        kind: 'VirtualService',
        metadata: { name: 'reviews' },
        spec: { hosts: [REVIEWS], http: [{ route: [route] }] },
      },
    });
    await traffic.waitFor('all', (stats) => stats.failures === 0);

    await using abort = await chaos.addAbortFault({
      virtualServiceName: 'reviews',
      ns,
      httpStatus: 503,
      routes: [route],
    });
    const during = await traffic.waitFor('all', (stats) => stats.failures === stats.requests);
    expect(errorRateOf(during.stats).errorRate).toBe(1);

    await abort.revert(); // before the end of the block: the traffic after it is checked too
    const after = await traffic.waitFor('all', (stats) => stats.failures === 0);
    expect(errorRateOf(after.stats).errorRate).toBe(0);
  },
);
// #endregion
