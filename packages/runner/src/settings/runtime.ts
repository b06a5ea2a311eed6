// Which rollback and hypothesis strategies a run plays (D162): the command line's, else the
// experiment's `runtime`, else the settings file's, else default, as Chaos Toolkit picks them.
// `continously` is Chaos Toolkit's old spelling of `continuously`, taken with its warning.
import { InvalidArgumentError } from 'commander';
import {
  HYPOTHESIS_STRATEGIES,
  type HypothesisStrategy,
  ROLLBACK_STRATEGIES,
  type RollbackStrategy,
} from '../run/index.js';

type Json = Record<string, unknown>;

export const OLD_SPELLING = 'continously';

const isMapping = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `runtime.<phase>.strategy` of an experiment or settings file, if it says one. */
function said(runtime: unknown, phase: 'rollbacks' | 'hypothesis'): unknown {
  const part = isMapping(runtime) ? runtime[phase] : undefined;
  return isMapping(part) ? part.strategy : undefined;
}

function pick<T extends string>(
  accepted: readonly T[],
  sources: ReadonlyArray<[where: string, value: unknown]>,
  warn: (line: string) => void,
): T | undefined {
  for (const [where, value] of sources) {
    if (value === undefined) continue;
    if (value === OLD_SPELLING && accepted.includes('continuously' as T)) {
      warn(`${where} '${OLD_SPELLING}' is Chaos Toolkit's old spelling of 'continuously', taken as it`);
      return 'continuously' as T;
    }
    if (typeof value === 'string' && accepted.includes(value as T)) return value as T;
    throw new InvalidArgumentError(`${where} '${String(value)}' is not one of ${accepted.join(', ')}`);
  }
  return undefined;
}

/** The strategies of a run: given on the command line, else in the experiment's runtime, else in the settings'. */
export function runStrategies(
  given: { rollbackStrategy?: string; hypothesisStrategy?: string },
  experiment: Json,
  settings: Json | undefined,
  warn: (line: string) => void,
): { rollbackStrategy: RollbackStrategy; hypothesisStrategy: HypothesisStrategy } {
  const sources = (phase: 'rollbacks' | 'hypothesis', flag: string, value: unknown) =>
    [
      [flag, value],
      [`the experiment's runtime.${phase}.strategy`, said(experiment.runtime, phase)],
      [`the settings' runtime.${phase}.strategy`, said(settings?.runtime, phase)],
    ] as Array<[string, unknown]>;
  return {
    rollbackStrategy:
      pick(ROLLBACK_STRATEGIES, sources('rollbacks', '--rollback-strategy', given.rollbackStrategy), warn) ??
      'default',
    hypothesisStrategy:
      pick(
        HYPOTHESIS_STRATEGIES,
        sources('hypothesis', '--hypothesis-strategy', given.hypothesisStrategy),
        warn,
      ) ?? 'default',
  };
}
