// An experiment as its file declares it, before validation: any key may hold anything.

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The steady-state hypothesis ({} when there is none). */
export function hypothesisOf(experiment: Json): Json {
  const hypothesis = experiment['steady-state-hypothesis'];
  return isObject(hypothesis) ? hypothesis : {};
}

/** The activities, in Chaos Toolkit's order: the hypothesis's probes, the method, the rollbacks. */
export function activitiesOf(experiment: Json): Json[] {
  const hypothesis = hypothesisOf(experiment);
  return [
    ...(Array.isArray(hypothesis.probes) ? hypothesis.probes : []),
    ...(Array.isArray(experiment.method) ? experiment.method : []),
    ...(Array.isArray(experiment.rollbacks) ? experiment.rollbacks : []),
  ].filter(isObject);
}

export type Phase = 'hypothesis' | 'method' | 'rollbacks';

const PHASE_WORDS: Record<Phase, string> = {
  hypothesis: 'steady-state probe',
  method: 'method activity',
  rollbacks: 'rollback',
};

/** How messages name an activity: "method activity 'kill'", or by its place ("rollback #2"). */
export function activityLabel(phase: Phase, activity: unknown, index: number): string {
  const name = isObject(activity) && typeof activity.name === 'string' && activity.name ? activity.name : '';
  return `${PHASE_WORDS[phase]} ${name ? `'${name}'` : `#${index + 1}`}`;
}

/** The list of activities of a phase, as declared (anything: validation says what is wrong). */
export function phaseList(experiment: Json, phase: Phase): unknown[] {
  const list = phase === 'hypothesis' ? hypothesisOf(experiment).probes : experiment[phase];
  return Array.isArray(list) ? list : [];
}

/** Every activity that is a mapping, with its phase and how messages name it. */
export function placedActivities(experiment: Json): Array<{ activity: Json; phase: Phase; where: string }> {
  return (['hypothesis', 'method', 'rollbacks'] as const).flatMap((phase) =>
    phaseList(experiment, phase).flatMap((activity, i) =>
      isObject(activity) ? [{ activity, phase, where: activityLabel(phase, activity, i) }] : [],
    ),
  );
}
