// What an experiment's keys mean beyond the values the format checks (D71, D94). Chaos Toolkit
// ignores a key it does not know, and so does chaoskit — saying so, as a warning. A key is
// refused only where ignoring it would change what runs: a near-miss of a key of its level
// (`argument:` would run the activity with its defaults, `rollback:` would never play),
// `arguments` outside the provider, a step that is both a reference and an activity.

import { nearMiss } from '@chaoskit/core/runner';
import { formatKeys } from './format.js';
import { hypothesisOf, isObject, placedActivities } from './raw.js';

type Json = Record<string, unknown>;

export interface KeyFindings {
  /** Keys whose being ignored would change what runs: the experiment is refused. */
  errors: string[];
  /** Keys Chaos Toolkit ignores, and chaoskit too. */
  warnings: string[];
}

const KEYS = formatKeys();

// Words people write for a key, too far from it to be a slip.
const SYNONYMS: Record<string, string> = {
  args: 'arguments',
  params: 'arguments',
  parameters: 'arguments',
  hypothesis: 'steady-state-hypothesis',
};

// What a reference step may carry that Chaos Toolkit does not apply there: the activity it runs
// brings its own.
const NOT_APPLIED_ON_REFERENCES = ['pauses', 'timeout', 'controls'];

/** The errors and warnings of an experiment's keys, each naming where the key is. */
export function keyFindings(experiment: Json): KeyFindings {
  const found: KeyFindings = { errors: [], warnings: [] };
  const ignored = (where: string, key: string, what: string, known: readonly string[]) =>
    found.warnings.push(
      `${where}unknown key '${key}' is ignored, as Chaos Toolkit ignores it (${what} takes ${known.join(', ')})`,
    );
  const typo = (where: string, key: string, meant: string) =>
    found.errors.push(
      `${where}unknown key '${key}'; did you mean '${meant}'? Chaos Toolkit would ignore it and run the experiment as if it were not there`,
    );
  /** Every key of `value` that `known` lacks: a typo when it is a near-miss of one, else ignored. */
  const check = (
    where: string,
    value: Json,
    known: readonly string[],
    what: string,
    special: (key: string) => boolean = () => false,
  ) => {
    for (const key of Object.keys(value)) {
      if (known.includes(key) || special(key)) continue;
      const meant = SYNONYMS[key] ?? nearMiss(key, known);
      if (meant && known.includes(meant)) typo(where, key, meant);
      else ignored(where, key, what, known);
    }
  };

  check('', experiment, KEYS.experiment, 'an experiment');
  const hypothesis = hypothesisOf(experiment);
  check('steady-state-hypothesis: ', hypothesis, KEYS.hypothesis, 'the hypothesis');

  for (const { activity, where } of placedActivities(experiment)) {
    const at = `${where}: `;
    const reference = 'ref' in activity;
    const ref = String(activity.ref);
    if (reference && 'provider' in activity)
      found.errors.push(
        `${at}a step is a reference (ref) or an activity (provider), not both: Chaos Toolkit would run '${ref}' and ignore this provider; remove one of them`,
      );
    if (reference)
      for (const key of NOT_APPLIED_ON_REFERENCES.filter((k) => k in activity))
        found.warnings.push(
          `${at}${key} on a reference step is not applied, as in Chaos Toolkit: the step runs '${ref}' with that activity's own ${key} (declare it there)`,
        );
    check(
      at,
      activity,
      reference ? [...KEYS.reference, 'provider'] : KEYS.activity,
      reference ? 'a reference step' : 'an activity',
      (key) => {
        if (key === 'arguments' || SYNONYMS[key] === 'arguments' || nearMiss(key, ['arguments'])) {
          found.errors.push(
            reference
              ? `${at}'${key}' on a reference step is ignored by Chaos Toolkit: the step runs '${ref}' with that activity's own arguments; give them there`
              : `${at}'${key}' belongs inside the provider: Chaos Toolkit ignores it here and would run the activity without these arguments; move it to provider.arguments`,
          );
          return true;
        }
        if (key === 'secrets') {
          found.warnings.push(
            `${at}'secrets' outside the provider is ignored, as Chaos Toolkit ignores it: an activity is given the secret groups its provider.secrets names`,
          );
          return true;
        }
        return false;
      },
    );
    const pauses = activity.pauses;
    if (isObject(pauses)) check(`${at}pauses: `, pauses, KEYS.pauses, 'pauses');
    const provider = activity.provider;
    const type = isObject(provider) ? provider.type : undefined;
    if (isObject(provider) && (type === 'python' || type === 'process' || type === 'http'))
      check(`${at}provider: `, provider, KEYS.provider[type], `a ${type} provider`);
  }
  return found;
}
