// Fixtures shared by the deprecated cases: calls that capture the deprecation warning (in the
// activity's log and on stderr), deployments, services and pods in a given phase.
import assert from 'node:assert/strict';
import { deprecationMessage, resetDeprecationWarnings } from '@chaoskit/chaoscluster-deprecated';
import { type AnyActivity, isChaosError, type ResultOf } from '@chaoskit/core';
import { invokeActivity } from '@chaoskit/runner';
import type { Scenario } from '../../case.js';
import type { CaseContext } from '../../case-context.js';

import { deploymentDoc, deploymentNames, stuckDeployment } from '../deployment/fixtures.js';
import { podInPhase } from '../pod/fixtures.js';
import { createService, serviceNames } from '../service/fixtures.js';

export { createService, deploymentDoc, deploymentNames, podInPhase, serviceNames, stuckDeployment };

import { activityFailure, fileWriter } from '../shared-fixtures.js';

export { activityFailure, fileWriter as specDir };

export type Outcome<R = unknown> = { value: R } | { error: unknown };

export interface WarnedCalls {
  outcomes: Outcome[];
  /** The activity's log lines that are its deprecation warning. */
  logged: string[];
  /** What was written to stderr that is its deprecation warning. */
  stderr: string[];
}

/**
 * Forgets the warnings already given in this process, then calls the case's activity once per
 * argument set, as an experiment would (the case identity), capturing its log and stderr.
 * Asserts that the deprecation warning, naming the replacement, was given exactly once in each.
 */
export function callsWarnedOnce<A extends AnyActivity>(
  t: CaseContext<A>,
  calls: Array<Record<string, unknown>>,
): Promise<Outcome<ResultOf<A>>[]>;
export function callsWarnedOnce<B extends AnyActivity>(
  t: CaseContext,
  calls: Array<Record<string, unknown>>,
  activity: B,
): Promise<Outcome<ResultOf<B>>[]>;
export async function callsWarnedOnce(
  t: CaseContext,
  calls: Array<Record<string, unknown>>,
  activity: AnyActivity = t.activity,
): Promise<Outcome[]> {
  const warning = deprecationMessage(activity.name, activity.deprecationNote ?? '');
  assert.ok(activity.deprecationNote, `${activity.qualifiedName} names its replacement`);
  resetDeprecationWarnings();
  const result: WarnedCalls = { outcomes: [], logged: [], stderr: [] };
  const write = process.stderr.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (String(chunk).includes(warning)) result.stderr.push(String(chunk));
    return (write as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    for (const args of calls) {
      result.outcomes.push(
        await invokeActivity(activity, args, {
          secrets: t.secrets,
          log: (line) => {
            if (line === warning) result.logged.push(line);
            t.log(`${activity.name}: ${line}`);
          },
        }).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        ),
      );
    }
  } finally {
    process.stderr.write = write;
  }
  assert.deepEqual(
    result.logged,
    [warning],
    `the activity logged its deprecation warning once in ${calls.length} calls`,
  );
  assert.deepEqual(
    result.stderr,
    [`chaoskit: warning: ${warning}\n`],
    'the warning was written to stderr once',
  );
  return result.outcomes;
}

/** The value of a call that succeeded. */
export function resultOf<R>(outcome: Outcome<R> | undefined): R {
  assert.ok(outcome && 'value' in outcome, `expected a result, got ${describe(outcome)}`);
  return outcome.value;
}

/**
 * The calls of a probe that holds (each returns true), with its deprecation warning said once
 * across them (callsWarnedOnce).
 */
export async function holdWarnedOnce(t: CaseContext, calls: Array<Record<string, unknown>>): Promise<void> {
  for (const outcome of await callsWarnedOnce(t, calls)) assert.equal(resultOf(outcome), true);
}

/**
 * A deprecated probe on a healthy deployment web (2 replicas): each of the calls `calls` gives
 * holds, with its deprecation warning said once (holdWarnedOnce).
 */
export function holdsOnHealthyWeb(
  name: string,
  calls: (t: CaseContext) => Array<Record<string, unknown>>,
): Scenario {
  return {
    name,
    async run(t) {
      await t.deploy('web', 2);
      await holdWarnedOnce(t, calls(t));
    },
  };
}

/** The message of a call that failed with ActivityFailed. */
export function failureOf(outcome: Outcome | undefined): string {
  assert.ok(outcome && 'error' in outcome, `expected ActivityFailed, got ${describe(outcome)}`);
  assert.ok(
    isChaosError(outcome.error, 'ActivityFailed'),
    `expected ActivityFailed, got ${String(outcome.error)}`,
  );
  return (outcome.error as Error).message;
}

function describe(outcome: Outcome | undefined): string {
  if (!outcome) return 'nothing';
  return 'value' in outcome ? `the result ${JSON.stringify(outcome.value)}` : String(outcome.error);
}
