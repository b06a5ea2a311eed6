// The types of `chaos`: each action takes its activity's options and its handle's result is the
// activity's result; a wrong argument is a compile error (`npm run typecheck` checks the
// `@ts-expect-error` lines: each must be an error). Nothing here reaches a cluster.

import type { terminatePodsActivity } from '@chaoskit/chaoscluster-pod';
import type { addAbortFaultActivity } from '@chaoskit/chaosmesh-fault';
import type { ResultOf } from '@chaoskit/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { Chaos, Fault, ProbeCall } from './index.js';

describe('the types of chaos', () => {
  it("give each handle its activity's result", () => {
    expectTypeOf<Awaited<ReturnType<Chaos['terminatePods']>>>().toEqualTypeOf<
      Fault<ResultOf<typeof terminatePodsActivity>>
    >();
    expectTypeOf<Awaited<ReturnType<Chaos['addAbortFault']>>['result']>().toEqualTypeOf<
      ResultOf<typeof addAbortFaultActivity>
    >();
    expectTypeOf<ReturnType<Chaos['probe']['deploymentFullyAvailable']>>().toEqualTypeOf<ProbeCall<true>>();
  });

  it('refuse wrong arguments, unknown names and a probe used as an action', () => {
    const never = (_: () => unknown) => undefined;
    const chaos = {} as Chaos;
    never(() => {
      // @ts-expect-error httpStatus is a number
      void chaos.addAbortFault({ virtualServiceName: 'reviews', httpStatus: '503', routes: [] });
      // @ts-expect-error virtualServiceName is required
      void chaos.addAbortFault({ httpStatus: 503, routes: [] });
      // @ts-expect-error no such argument
      void chaos.terminatePods({ ns: 'a', podName: 'x' });
      // @ts-expect-error no such action
      void chaos.terminatePod({ ns: 'a' });
      // @ts-expect-error a probe is not an action
      void chaos.deploymentFullyAvailable({ name: 'web' });
      // @ts-expect-error an action is not a probe
      void chaos.probe.terminatePods({});
    });
  });
});
