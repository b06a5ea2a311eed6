// Fails on purpose: an assertion fails while a fault is in place, and the fault is reverted all
// the same. It expects the VirtualService `reviews` of namespace `shop` (chaoskit's packaging
// test creates it, runs this file, and compares the object before and after).
import { expect, test } from '@chaoskit/vitest';

test('an assertion fails while an abort is in place', async ({ chaos }) => {
  await using abort = await chaos.addAbortFault({
    virtualServiceName: 'reviews',
    ns: 'shop',
    httpStatus: 503,
    routes: [{ destination: { host: 'reviews', subset: 'v1' } }],
  });
  // Wrong on purpose: the abort is there.
  expect(abort.result.spec.http?.[0]?.fault).toBeUndefined();
});
