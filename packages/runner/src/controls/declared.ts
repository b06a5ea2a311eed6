// The controls an experiment declares, as its file declares them: at its top, on its hypothesis,
// on its activities.
import { activitiesOf, hypothesisOf, isObject, type Json } from '../experiment/raw.js';

export interface DeclaredControl {
  name: string;
  ref?: string;
  provider?: Json & { type?: unknown; module?: unknown; arguments?: unknown };
  scope?: 'before' | 'after';
  automatic?: boolean;
}

export const listOf = (value: unknown): DeclaredControl[] =>
  Array.isArray(value)
    ? (value.filter((c) => isObject(c) && typeof c.name === 'string') as DeclaredControl[])
    : [];

/** The experiment's own controls (its top-level `controls`), but those skipped by name. */
export const topControls = (experiment: Json, skipped: readonly string[]): DeclaredControl[] =>
  listOf(experiment.controls).filter((c) => !skipped.includes(c.name));

/** Every control the experiment declares, in Chaos Toolkit's order: experiment, hypothesis, activities. */
export function declaredControls(experiment: Json): DeclaredControl[] {
  return [
    ...listOf(experiment.controls),
    ...listOf(hypothesisOf(experiment).controls),
    ...activitiesOf(experiment).flatMap((a) => listOf(a.controls)),
  ];
}
