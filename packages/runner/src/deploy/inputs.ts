// What `chaoskit deploy` checks before any request: the schedule as Kubernetes' CronJob
// controller reads it, the names the objects will carry, and the namespaces the experiment's
// activities act in (where its Role is bound).

import type { AnyActivity } from '@chaoskit/core';
import { InvalidArgumentError } from 'commander';
import { activitiesOf, isObject } from '../experiment/raw.js';
import { terminalValue } from '../output/terminal.js';

type Json = Record<string, unknown>;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A namespace name (a DNS-1123 label); what it refuses is shown back escaped and cut short. */
export function checkNamespace(value: string, option = '-n/--namespace'): string {
  if (value.length <= 63 && DNS_LABEL.test(value)) return value;
  const shown = terminalValue(value.length > 70 ? `${value.slice(0, 70)}…` : value);
  throw new InvalidArgumentError(
    `${option} '${shown}' is not a namespace name: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters`,
  );
}

/** A Secret's name (a DNS-1123 subdomain). */
export function checkSecretName(value: string): string {
  if (value.length <= 253 && DNS_SUBDOMAIN.test(value)) return value;
  throw new InvalidArgumentError(
    `--env-from-secret '${value}' is not a Secret name: lower-case letters, digits, '-' and '.', at most 253 characters`,
  );
}

/**
 * The longest experiment name: `chaoskit-<name>` names a CronJob, whose Jobs' names add 11
 * characters and must stay within 63.
 */
export const MAX_NAME = 52 - 'chaoskit-'.length;

/** An experiment's name in the cluster (its chaoskit.io/experiment label), as `what` gives it. */
export function checkName(name: string, what: string): string {
  if (name.length <= MAX_NAME && DNS_LABEL.test(name)) return name;
  throw new InvalidArgumentError(
    `${what} '${name}' is not an experiment's name in the cluster: lower-case letters, digits and '-', starting and ending with a letter or digit, at most ${MAX_NAME} characters`,
  );
}

/** The experiment's name in the cluster: --name, else the file's name made a DNS label. */
export function experimentName(file: string, given?: string): string {
  if (given !== undefined) return checkName(given, '--name');
  const base = (file.split(/[\\/]/).pop() ?? '').replace(/\.(json|ya?ml)$/i, '');
  const name = base
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, MAX_NAME)
    .replace(/^-+|-+$/g, '');
  if (!name)
    throw new InvalidArgumentError(`the file name '${file}' gives no experiment name: give one with --name`);
  return name;
}

// The fields of a schedule, as the CronJob controller (robfig/cron's standard parser) takes them.
const FIELDS: Array<{ name: string; min: number; max: number; names?: string[] }> = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];
const MACROS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

function fieldProblem(text: string, field: (typeof FIELDS)[number]): string | undefined {
  const value = (v: string) => {
    const named = field.names?.indexOf(v.toLowerCase()) ?? -1;
    if (named >= 0) return named + field.min;
    return /^\d+$/.test(v) ? Number(v) : Number.NaN;
  };
  for (const item of text.split(',')) {
    const [range = '', step, extra] = item.split('/');
    if (extra !== undefined || (step !== undefined && !/^[1-9]\d*$/.test(step))) return item;
    if (range === '*' || range === '?') continue;
    const [from = '', to, more] = range.split('-');
    if (more !== undefined) return item;
    const low = value(from);
    const high = to === undefined ? low : value(to);
    if (!(low >= field.min && high <= field.max && low <= high)) return item;
  }
  return undefined;
}

/** A CronJob schedule: five fields (minute hour day-of-month month day-of-week) or a macro. */
export function checkSchedule(schedule: string): string {
  const accepted = `five fields 'minute hour day-of-month month day-of-week' (*/5 * * * *, 0 3 * * mon-fri), or ${MACROS.join(', ')}`;
  const text = schedule.trim();
  if (MACROS.includes(text)) return text;
  if (/^(CRON_)?TZ=/.test(text))
    throw new InvalidArgumentError(
      `--schedule '${schedule}': a time zone is not accepted in it; ${accepted}`,
    );
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    throw new InvalidArgumentError(`--schedule '${schedule}' has ${fields.length} field(s); ${accepted}`);
  fields.forEach((f, i) => {
    const field = FIELDS[i]!;
    const bad = fieldProblem(f, field);
    if (bad !== undefined)
      throw new InvalidArgumentError(
        `--schedule '${schedule}': '${bad}' is not a ${field.name} (${field.min}-${field.max}${field.names ? ` or ${field.names[0]}-${field.names.at(-1)}` : ''}, *, ranges a-b, lists a,b, steps /n); ${accepted}`,
      );
  });
  return text;
}

/**
 * The namespaces the experiment's chaoskit activities act in: each one's `ns` as written (or
 * a configuration value it names), else `namespace`, where the run's `-n` puts it. A namespace
 * the file cannot say (an environment value) is refused: the Role would be bound elsewhere.
 */
export function namespacesActedIn(
  raw: Json,
  activities: ReadonlyMap<string, AnyActivity>,
  namespace: string,
): string[] {
  const configuration = isObject(raw.configuration) ? raw.configuration : {};
  const found = new Set<string>();
  for (const activity of activitiesOf(raw)) {
    const provider = activity.provider;
    if (!isObject(provider) || provider.type !== 'python') continue;
    const target = activities.get(`${String(provider.module)}.${String(provider.func)}`);
    if (!target?.arguments.some((a) => a.name === 'ns')) continue;
    const given = isObject(provider.arguments) ? provider.arguments.ns : undefined;
    const ref = typeof given === 'string' ? /^\$\{([^}]+)\}$/.exec(given)?.[1] : undefined;
    const value = ref !== undefined ? configuration[ref] : (given ?? namespace);
    if (typeof value !== 'string' || value.includes('${'))
      throw new InvalidArgumentError(
        `activity '${String(activity.name)}': its ns (${JSON.stringify(given)}) is known only when the run resolves it, and deploy binds the experiment's Role in each namespace it acts in: write the namespace in the experiment, or leave ns out to act in the deployment's namespace (-n)`,
      );
    found.add(checkNamespace(value, `activity '${String(activity.name)}', ns`));
  }
  if (found.size === 0) found.add(namespace);
  return [...found].sort();
}
