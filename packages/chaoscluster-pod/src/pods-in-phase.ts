import { phaseProbe } from './phase-probe.js';

export const podsInPhaseActivity = phaseProbe(
  'pods_in_phase',
  'Returns true when every pod matching the label selector is in the given phase; raises ActivityFailed naming each pod that is not (or saying that no pod matched).',
);

export const podsInPhase = podsInPhaseActivity.fn;
