import { type AnyActivity, isApiError, isChaosError, KubeClient, Safety } from '@chaoskit/core';
import { connectionFor, createClusterClient, redact, redactValue } from '@chaoskit/core/runner';
import type { Step } from '../experiment/format.js';
import { referable, resolveStep } from '../experiment/refs.js';
import type { Prepared } from '../prepare/prepare.js';
import { argumentsOf, invokeActivity } from '../run/invoke.js';

export interface PlannedActivity {
  phase: 'hypothesis' | 'method' | 'rollbacks';
  name: string;
  /** `module.func` of a python provider; the provider type otherwise. */
  activity: string;
  /** What the activity would touch, as it returned it from the server-side dry run. */
  output?: unknown;
  /** Why it was not planned, or what the dry run refused. */
  note?: string;
  failed?: boolean;
  /** A hypothesis probe's tolerance: what a run checks its result against. */
  tolerance?: unknown;
  /** What a run would not say but the plan can: a namespace the activity names is not there. */
  warnings?: string[];
  logs: string[];
}

/**
 * `chaoskit plan`: lists the hypothesis's probes, resolves every action's selection against the
 * cluster and sends each of its mutations as a server-side dry run (`dryRun=All`): the server
 * checks them (RBAC, admission, disruption budgets) and nothing changes. Probes are not run;
 * process and http providers cannot be dry-run and are listed as such. The activities' lines
 * say what would happen (core's plan wording). `env` chooses the cluster (a fleet's context);
 * default the process's.
 */
export async function planExperiment(
  prepared: Prepared,
  log: (line: string) => void = () => {},
  env?: NodeJS.ProcessEnv,
): Promise<PlannedActivity[]> {
  const { experiment, configuration } = prepared;
  const planned: PlannedActivity[] = [];
  // The run's rails: what a run would refuse, the plan shows refused.
  const safety = new Safety(prepared.rails);
  const phases: Array<[PlannedActivity['phase'], Step[]]> = [
    ['hypothesis', experiment['steady-state-hypothesis']?.probes ?? []],
    ['method', experiment.method],
    ['rollbacks', experiment.rollbacks ?? []],
  ];
  // What a step's `ref` names, as a run resolves it.
  const refs = referable(experiment);
  const missing = missingNamespaces(env);
  for (const [phase, steps] of phases) {
    for (const declared of steps) {
      const activity = resolveStep(refs, declared);
      if (!activity) {
        planned.push({
          phase,
          name: String(declared.name ?? declared.ref),
          activity: 'reference',
          note: `referenced activity '${String(declared.ref)}' could not be found in the experiment`,
          failed: true,
          logs: [],
        });
        continue;
      }
      const provider = activity.provider;
      const entry: PlannedActivity = { phase, name: activity.name, activity: provider.type, logs: [] };
      planned.push(entry);
      const target = prepared.activities.get(activity);
      if (target) entry.activity = target.qualifiedName;
      const { args, secrets: activitySecrets } = argumentsOf(activity, prepared);
      const warn = (line: string) => {
        entry.warnings = [...(entry.warnings ?? []), line];
        log(`  warning: ${line}`);
      };
      if (activity.type === 'probe') {
        if ('tolerance' in declared || 'tolerance' in activity)
          entry.tolerance = declared.tolerance ?? activity.tolerance;
        entry.note =
          phase === 'hypothesis'
            ? `probe: not run by plan; a run checks it before and after the method against tolerance ${JSON.stringify(entry.tolerance)}`
            : 'probe: not run by plan';
        if (target) for (const line of await missing(target, args, activitySecrets, 'to look at')) warn(line);
        continue;
      }
      if (provider.type !== 'python' || !target) {
        entry.note = `${provider.type} provider: cannot be dry-run, not run`;
        continue;
      }
      log(`${phase}: ${entry.name} (${target.qualifiedName})`);
      try {
        entry.output = redactValue(
          await invokeActivity(target, args, {
            secrets: activitySecrets,
            configuration,
            dryRun: true,
            safety,
            ...(env ? { env } : {}),
            log: (line) => {
              entry.logs.push(redact(line));
              log(`  ${redact(line)}`);
            },
          }),
        );
      } catch (err) {
        entry.failed = true;
        entry.note = redact(
          isChaosError(err) ? `${err.code}: ${err.message}` : String((err as Error).message ?? err),
        );
      }
      for (const line of await missing(target, args, activitySecrets, 'to act on')) warn(line);
    }
  }
  return planned;
}

/**
 * The namespaces an activity's arguments name (its `ns`, given or by default) that are not in
 * the cluster: an action there finds nothing and returns an empty selection without a word.
 * Asked once per namespace and cluster; a namespace the identity may not read is not reported.
 */
function missingNamespaces(env: NodeJS.ProcessEnv | undefined) {
  const known = new Map<string, Promise<boolean>>();
  const exists = (ns: string, secrets: Record<string, unknown>) => {
    const key = `${JSON.stringify(secrets)}\n${ns}`;
    let found = known.get(key);
    if (!found) {
      found = Promise.resolve()
        .then(() =>
          new KubeClient(connectionFor(createClusterClient(secrets, env ? { env } : {}))).request({
            method: 'GET',
            path: `/api/v1/namespaces/${encodeURIComponent(ns)}`,
          }),
        )
        .then(
          () => true,
          (err: unknown) => !isApiError(err, 'NotFound'),
        );
      known.set(key, found);
    }
    return found;
  };
  return async (
    target: AnyActivity,
    args: unknown,
    secrets: Record<string, unknown>,
    purpose: string,
  ): Promise<string[]> => {
    let namespaces: Array<{ argument: string; namespace: string }>;
    try {
      const validated = target.validate(args);
      // An action's: those it would change; a probe's: the namespace it reads.
      namespaces =
        target.kind === 'action'
          ? target.targetNamespaces(validated)
          : typeof validated.ns === 'string'
            ? [{ argument: 'ns', namespace: validated.ns }]
            : [];
    } catch {
      return []; // refused arguments are said by the call itself
    }
    const lines: string[] = [];
    for (const { argument, namespace } of namespaces) {
      if (!(await exists(namespace, secrets)))
        lines.push(`namespace '${namespace}' (${argument}) does not exist: nothing there ${purpose}`);
    }
    return lines;
  };
}

/** The plan as `chaoskit plan` prints it: one block per activity. */
export function formatPlan(plan: readonly PlannedActivity[]): string {
  return plan
    .map((p) =>
      [
        `${p.phase} · ${p.name} · ${p.activity}${p.failed ? ' · WOULD FAIL' : ''}`,
        `  ${p.note ?? JSON.stringify(p.output)}`,
        ...(p.warnings ?? []).map((w) => `  warning: ${w}`),
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
}
