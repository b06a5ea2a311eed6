// @chaoskit/vitest/plain: the same faults for runners without vitest (node:test, jest):
// `createChaos` on a cluster, `withFault(action, body)`, and `chaos.settle()` for an afterEach.

export type { Actions, Probes } from './catalogue.js';
export { type Chaos, type ChaosMembers, type ChaosOptions, createChaos } from './chaos.js';
export type { Fault } from './fault.js';
export type { TestNamespace } from './namespace.js';
export { type PollResult, type ProbeCall, poll } from './probe.js';
export type { ChaosTarget } from './target.js';
export { errorRateOf, sendTraffic, type TrafficOptions, type TrafficSample } from './traffic.js';
export { withFault } from './with-fault.js';
