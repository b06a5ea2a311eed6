import { isChaosError, redact, redactValue, Safety, secretsFor, substitute } from '@chaoskit/core';
import type { Activity, Prepared } from './experiment.js';

export interface PlannedActivity {
  phase: 'method' | 'rollbacks';
  name: string;
  /** `module.func` of a python provider; the provider type otherwise. */
  activity: string;
  /** What the activity would touch, as it returned it from the server-side dry run. */
  output?: unknown;
  /** Why it was not planned, or what the dry run refused. */
  note?: string;
  failed?: boolean;
  logs: string[];
}

/**
 * `chaoskit plan`: resolves every action's selection against the cluster and sends each of its
 * mutations as a server-side dry run (`dryRun=All`): the server checks them (RBAC, admission,
 * disruption budgets) and nothing changes. Probes are not run; process and http providers
 * cannot be dry-run and are listed as such.
 */
export async function planExperiment(
  prepared: Prepared,
  log: (line: string) => void = () => {},
): Promise<PlannedActivity[]> {
  const { experiment, configuration, secrets } = prepared;
  const planned: PlannedActivity[] = [];
  // The run's rails: what a run would refuse, the plan shows refused.
  const safety = new Safety(prepared.rails);
  const phases: Array<[PlannedActivity['phase'], Activity[]]> = [
    ['method', experiment.method],
    ['rollbacks', experiment.rollbacks ?? []],
  ];
  const byName = new Map([...experiment.method].map((a) => [a.name, a]));
  for (const [phase, activities] of phases) {
    for (const declared of activities) {
      const activity = declared.ref ? (byName.get(declared.ref) ?? declared) : declared;
      const provider = activity.provider;
      const entry: PlannedActivity = {
        phase,
        name: String(activity.name ?? activity.ref),
        activity: String(provider?.type),
        logs: [],
      };
      planned.push(entry);
      if (activity.type === 'probe') {
        entry.note = 'probe: not run by plan';
        continue;
      }
      const target = prepared.activities.get(activity);
      if (provider?.type !== 'python' || !target) {
        entry.note = `${provider?.type} provider: cannot be dry-run, not run`;
        continue;
      }
      entry.activity = target.qualifiedName;
      log(`${phase}: ${entry.name} (${target.qualifiedName})`);
      try {
        entry.output = redactValue(
          await target.call(substitute(provider.arguments ?? {}, configuration, secrets), {
            secrets: provider.secrets ? secretsFor(secrets, provider.secrets) : {},
            configuration,
            dryRun: true,
            safety,
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
    }
  }
  return planned;
}
