// @chaoskit/vitest: chaos inside the tests you already write. `test` gives each test a `chaos`
// object on the run's cluster; its faults revert when disposed, and a test that leaves one in
// place fails, naming it (and it is undone).

import { test as base } from 'vitest';
import { type Chaos, createChaos } from './chaos.js';
import { chaosCluster } from './cluster.js';
import './matchers.js';

export { expect } from 'vitest';
export type { Actions, Probes } from './catalogue.js';
export type { Chaos, ChaosMembers, ChaosOptions, SettleOptions } from './chaos.js';
export { chaosCluster, meshTraffic, meshUnavailable } from './cluster.js';
export type { Duration } from './duration.js';
export type { Fault } from './fault.js';
export type { ChaosCluster } from './global-setup.js';
export type { RecoverOptions } from './matchers.js';
export type { TestNamespace } from './namespace.js';
export type { ProbeCall } from './probe.js';
export { errorRateOf, sendTraffic, type TrafficOptions, type TrafficSample } from './traffic.js';
export { withFault } from './with-fault.js';

/** vitest's `test`, with `chaos` on the run's cluster. */
export const test = base.extend<{ chaos: Chaos }>({
  chaos: async ({ task }, use) => {
    const chaos = createChaos({ ...chaosCluster(), title: task.name });
    await use(chaos);
    const left = await chaos.settle({ namespaces: true });
    if (left.length)
      throw new Error(
        `the test left faults or namespaces in place (now reverted or deleted; dispose each with \`await using\`):\n  ${left.join('\n  ')}`,
      );
  },
});

export const it = test;
