// An experiment as its file declares it, before validation: any key may hold anything.

type Json = Record<string, unknown>;

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
