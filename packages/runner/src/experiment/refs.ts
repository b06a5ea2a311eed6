// A step's `ref` names an activity declared elsewhere in the experiment, as chaostoolkit-lib's
// activity cache has it: the method's and the hypothesis's activities declared in full, by
// name, the last of a name winning. One resolver for validation, `plan` and `run`.

import type { Activity, Step } from './format.js';
import { hypothesisOf, isObject } from './raw.js';

/** What a reference can name, by name; built once per experiment. */
export type Referable = ReadonlyMap<string, Activity>;

/** The activities a `ref` can name (read from the experiment as declared: any key may hold anything). */
export function referable(experiment: Record<string, unknown>): Referable {
  const found = new Map<string, Activity>();
  const probes = hypothesisOf(experiment).probes;
  for (const list of [experiment.method, probes]) {
    if (!Array.isArray(list)) continue;
    // A reference step may carry a name of its own: it cannot itself be referred to.
    for (const activity of list)
      if (isObject(activity) && typeof activity.name === 'string' && !('ref' in activity))
        found.set(activity.name, activity as Activity);
  }
  return found;
}

/** The activity a step runs: itself, or the one its `ref` names (undefined: none has that name). */
export function resolveStep(known: Referable, step: Step): Activity | undefined {
  // As chaostoolkit-lib: a step with a `ref` (any value but an empty one) runs what it names.
  return step.ref ? known.get(step.ref as string) : (step as Activity);
}
