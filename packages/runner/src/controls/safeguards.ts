// Chaos Toolkit's safeguards control (chaostoolkit-addons' chaosaddons.controls.safeguards),
// run natively (D127): the Python module is not loaded; its `arguments.probes` are chaoskit
// probes (any provider) checked against their tolerance — before the experiment (neither
// `background` nor `frequency`), once in the background (`background: true`), or every
// `frequency` seconds — and the first one out of tolerance interrupts the run.

import type { Activity } from '../experiment/format.js';
import { experimentFormat, formatProblems } from '../experiment/format.js';
import { isObject } from '../experiment/raw.js';
import type { DeclaredControl } from './declared.js';

export const SAFEGUARDS_MODULE = 'chaosaddons.controls.safeguards';

type Json = Record<string, unknown>;

/** A safeguard probe: an activity (or a reference to one), its tolerance, and when it runs. */
export type SafeguardProbe = Activity & { background?: boolean; frequency?: number };

export const isSafeguards = (control: DeclaredControl): boolean =>
  control.provider?.type === 'python' && control.provider.module === SAFEGUARDS_MODULE;

/**
 * The experiment's safeguards controls (those of its top-level `controls`, where Chaos Toolkit
 * calls `before_experiment_control`), but those skipped by name.
 */
export function safeguardControls(experiment: Json, skipped: readonly string[] = []): DeclaredControl[] {
  const top = Array.isArray(experiment.controls) ? experiment.controls : [];
  return top.filter(
    (c): c is DeclaredControl =>
      isObject(c) &&
      typeof c.name === 'string' &&
      isSafeguards(c as unknown as DeclaredControl) &&
      !skipped.includes(c.name),
  );
}

const probesOf = (control: DeclaredControl): unknown =>
  isObject(control.provider?.arguments) ? control.provider.arguments.probes : undefined;

/** Every safeguard probe of the experiment's safeguards controls, in declaration order. */
export function safeguardProbes(experiment: Json, skipped: readonly string[] = []): SafeguardProbe[] {
  return safeguardControls(experiment, skipped).flatMap((control) => {
    const probes = probesOf(control);
    return Array.isArray(probes) ? (probes.filter(isObject) as SafeguardProbe[]) : [];
  });
}

/**
 * What chaosaddons' validate_control refuses, and what chaoskit cannot run: no probes; a probe
 * that is not a valid probe (the experiment format's rules, as for a steady-state probe, which
 * must have a tolerance too); a `frequency` that is not a number of seconds above 0; a
 * `background` that is not a boolean. `check` adds what the provider says of its arguments.
 */
export async function safeguardProblems(
  experiment: Json,
  skipped: readonly string[],
  check: (probe: Json, where: string) => Promise<string[]>,
): Promise<string[]> {
  const problems: string[] = [];
  for (const control of safeguardControls(experiment, skipped)) {
    const probes = probesOf(control);
    const label = `safeguards control '${control.name}'`;
    if (!Array.isArray(probes) || probes.length === 0) {
      problems.push(`${label}: arguments.probes must list at least one probe`);
      continue;
    }
    // The format's rules, as a steady-state hypothesis's probes have them (a tolerance each).
    const parsed = experimentFormat().safeParse({
      title: 't',
      description: 'd',
      'steady-state-hypothesis': { title: 'h', probes },
      method: [],
    });
    if (!parsed.success)
      problems.push(
        ...formatProblems({ 'steady-state-hypothesis': { probes } }, parsed.error).map(
          (p) => `${label}: ${p.replace(/^steady-state[- ]/, 'safeguard ')}`,
        ),
      );
    for (const [index, probe] of probes.entries()) {
      if (!isObject(probe)) continue;
      const where = `${label}: safeguard probe ${typeof probe.name === 'string' ? `'${probe.name}'` : `#${index + 1}`}`;
      if (probe.type !== undefined && probe.type !== 'probe' && !('ref' in probe))
        problems.push(`${where}: a safeguard must be a probe, not ${JSON.stringify(probe.type)}`);
      if ('ref' in probe) continue;
      if (!('tolerance' in probe)) problems.push(`${where}: a safeguard probe must have a tolerance`);
      const { frequency, background } = probe;
      if (
        frequency !== undefined &&
        !(typeof frequency === 'number' && frequency > 0 && Number.isFinite(frequency))
      )
        problems.push(`${where}: frequency is the seconds between two checks, a number above 0`);
      if (background !== undefined && typeof background !== 'boolean')
        problems.push(`${where}: background is true or false`);
      problems.push(...(await check(probe, where)));
    }
  }
  return problems;
}
