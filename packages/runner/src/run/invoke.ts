// Calling an activity. `invokeActivity` is the one place a chaoskit activity's call context is
// built — for `run`, `plan` (its dry runs), `call` and the conformance kit —, so what every call
// must carry (rails, the run's record, its signal, later a trace) is added once.

import type { AnyActivity, ResultOf, Safety } from '@chaoskit/core';
import {
  type ResolvedSecrets,
  type RunLedger,
  type RunNotes,
  secretsFor,
  substitute,
} from '@chaoskit/core/runner';
import { resolveActivity } from '../activities/resolve-activity.js';
import type { Activity } from '../experiment/format.js';
import type { Json, Prepared } from '../prepare/prepare.js';
import { runHttp } from '../providers/http.js';
import { runProcess } from '../providers/process.js';

/** What a call is given besides its arguments. */
export interface Invocation {
  /** The merged secrets of the groups the activity lists (`provider.secrets`). */
  secrets?: Record<string, unknown>;
  /** The experiment's resolved configuration. */
  configuration?: Json;
  /** Where its lines go (redacted first). */
  log?: (line: string) => void;
  /** The rails (the run's own object: its confirmation is asked once); core's defaults otherwise. */
  safety?: Safety;
  signal?: AbortSignal;
  /** The run's record: every change is written to it before it is made. */
  ledger?: RunLedger;
  /** The run's Events on the objects it changes. */
  notes?: RunNotes;
  /** `plan`: every change sent as a server-side dry run. */
  dryRun?: boolean;
  /** The environment the cluster is chosen from (a fleet run's context); default the process's. */
  env?: NodeJS.ProcessEnv;
}

/** Calls a chaoskit activity with its arguments (as given: validated by the activity). */
export function invokeActivity<A extends AnyActivity>(
  target: A,
  args: unknown,
  { secrets = {}, configuration, log, safety, signal, ledger, notes, dryRun, env }: Invocation = {},
): Promise<ResultOf<A>> {
  return target.call(args, {
    secrets,
    ...(configuration ? { configuration } : {}),
    ...(log ? { log } : {}),
    ...(safety ? { safety } : {}),
    ...(signal ? { signal } : {}),
    ...(ledger ? { ledger } : {}),
    ...(notes ? { notes } : {}),
    ...(dryRun ? { dryRun: true } : {}),
    ...(env ? { env } : {}),
  }) as Promise<ResultOf<A>>;
}

/** An experiment activity's arguments with `${name}` substituted, and the secrets of its groups. */
export function argumentsOf(
  activity: Activity,
  { configuration, secrets }: { configuration: Json; secrets: ResolvedSecrets },
): { args: unknown; secrets: Record<string, unknown> } {
  const provider = activity.provider;
  return {
    args: substitute(provider.arguments ?? {}, configuration, secrets),
    secrets: provider.secrets ? secretsFor(secrets, provider.secrets) : {},
  };
}

/** Runs an experiment's activity with its provider: a chaoskit activity, a process, a request. */
export async function callProvider(
  activity: Activity,
  prepared: Prepared,
  invocation: Omit<Invocation, 'secrets' | 'configuration'> = {},
): Promise<unknown> {
  const { configuration, secrets } = prepared;
  const { signal, env } = invocation;
  const provider = activity.provider;
  switch (provider.type) {
    case 'python': {
      // Not resolved beforehand only under --no-validation: the module's problem is this activity's failure.
      const target =
        prepared.activities.get(activity) ??
        (await resolveActivity(provider.module, provider.func).catch((err: Error) => {
          throw new Error(`module '${provider.module}' ${err.message}`);
        }));
      const bound = argumentsOf(activity, prepared);
      return invokeActivity(target, bound.args, { ...invocation, secrets: bound.secrets, configuration });
    }
    case 'process':
      return runProcess(provider, {
        configuration,
        secrets,
        ...(signal ? { signal } : {}),
        ...(env ? { env } : {}),
      });
    case 'http':
      return runHttp(provider, { configuration, secrets, ...(signal ? { signal } : {}) });
    default:
      throw new Error(`unknown provider type ${String((provider as { type?: unknown }).type)}`);
  }
}

/** A tolerance probe with the value to check among its arguments (Chaos Toolkit's `value`). */
export function withValue(probe: Activity, value: unknown): Activity {
  const args = probe.provider.arguments;
  if (
    probe.provider.type === 'python' ||
    (args !== undefined && (typeof args !== 'object' || Array.isArray(args)))
  )
    return probe;
  return { ...probe, provider: { ...probe.provider, arguments: { ...(args as Json), value } } };
}
