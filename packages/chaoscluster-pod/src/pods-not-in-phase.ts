import { phaseProbe } from './phase-probe.js';

export const podsNotInPhaseActivity = phaseProbe(
  'pods_not_in_phase',
  'Returns true when no pod matching the label selector is in the given phase; raises ActivityFailed naming each pod that is (or saying that no pod matched).',
);

export const podsNotInPhase = podsNotInPhaseActivity.fn;
