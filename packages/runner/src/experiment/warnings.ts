// What an experiment declares that chaoskit does not act on: said once, by name, by `validate`,
// `plan` and `run` — never ignored silently (Chaos Toolkit warns too, and chaoskit must not be
// quieter than the tool it replaces).

import { activitiesOf, isObject } from './raw.js';

type Json = Record<string, unknown>;

/** The warnings of an experiment: others' extensions, `dry` keys. */
export function experimentWarnings(experiment: Json): string[] {
  const warnings: string[] = [];
  const extensions = Array.isArray(experiment.extensions) ? experiment.extensions : [];
  const names = new Set(
    extensions
      .filter(isObject)
      .map((e) => e.name)
      .filter((n): n is string => typeof n === 'string' && n !== 'chaoskit'),
  );
  for (const name of names)
    warnings.push(
      `extension '${name}' is not chaoskit's: it is kept in the journal and otherwise ignored (chaoskit reads only its own extension, 'chaoskit': the safety rails)`,
    );
  const dry = [
    ...('dry' in experiment ? ['the experiment'] : []),
    ...activitiesOf(experiment)
      .filter((a) => 'dry' in a)
      .map((a) => `activity '${String(a.name ?? a.ref)}'`),
  ];
  if (dry.length)
    warnings.push(
      `'dry' in ${dry.join(', ')} has no effect, as in Chaos Toolkit: a dry run is asked on the command line (run --dry probes|actions|activities|pause)`,
    );
  return warnings;
}
