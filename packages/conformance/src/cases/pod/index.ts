import type { ConformanceCase } from '../../case.js';
import countPods from './count-pods.case.js';
import deletePods from './delete-pods.case.js';
import execInPods from './exec-in-pods.case.js';
import podIsNotAvailable from './pod-is-not-available.case.js';
import podsInConditions from './pods-in-conditions.case.js';
import podsInPhase from './pods-in-phase.case.js';
import podsNotInPhase from './pods-not-in-phase.case.js';
import readPodLogs from './read-pod-logs.case.js';
import terminatePods from './terminate-pods.case.js';

export const podCases: readonly ConformanceCase[] = [
  terminatePods,
  deletePods,
  execInPods,
  readPodLogs,
  countPods,
  podIsNotAvailable,
  podsInConditions,
  podsInPhase,
  podsNotInPhase,
];
