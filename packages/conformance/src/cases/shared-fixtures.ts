import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDryRun, isMutation } from '@chaoskit/cluster';
import { type AnyActivity, isChaosError, type ResultOf, sleep } from '@chaoskit/core';
import { invokeActivity } from '@chaoskit/runner';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { dump } from 'js-yaml';
import type { Scenario } from '../case.js';
import type { CaseContext } from '../case-context.js';

// Fixtures several groups of cases use.

/** A temporary directory for spec and resource files, removed with the case; gives a writer. */
export async function fileWriter(t: CaseContext): Promise<(name: string, text: string) => Promise<string>> {
  const dir = await mkdtemp(join(tmpdir(), `chaoskit-${t.activity.name}-`));
  t.onCleanup(() => rm(dir, { recursive: true, force: true }));
  return async (name, text) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };
}

/**
 * Waits until the controller of a workload whose pods can never be scheduled (NO_SUCH_NODE) has
 * observed it and made its `replicas` pods (labelled app=<name>), all pending.
 */
export async function untilPending(
  t: CaseContext,
  workload: { noun: string; name: string; replicas: number },
  read: () => Promise<{ status?: { observedGeneration?: number } }>,
): Promise<void> {
  const { noun, name, replicas } = workload;
  await t.until(`${noun} ${name} observed, with ${replicas} pods pending`, async () => {
    const observed = ((await read()).status?.observedGeneration ?? 0) >= 1;
    return observed && (await t.podNames(`app=${name}`)).length === replicas;
  });
}

/**
 * A rolling update of a deployment or stateful set to pods of `nodeSelector` (null: none, any
 * node), as a merge patch: its controller replaces the pods with ones of the new template.
 */
export async function placeWorkload(
  t: CaseContext,
  workload: { kind: 'Deployment' | 'StatefulSet'; name: string },
  nodeSelector: Record<string, string> | null,
): Promise<void> {
  const patch = {
    name: workload.name,
    namespace: t.ns,
    body: { spec: { template: { spec: { nodeSelector } } } },
  };
  const options = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  if (workload.kind === 'Deployment') await t.apps.patchNamespacedDeployment(patch, options);
  else await t.apps.patchNamespacedStatefulSet(patch, options);
}

/**
 * Calls the case's probe on the workload (timeout 60 s) and, once it watches (a second later),
 * moves the workload's pods to `nodeSelector` (placeWorkload); gives the call, still pending.
 */
export async function probeWhilePlaced(
  t: CaseContext,
  workload: { kind: 'Deployment' | 'StatefulSet'; name: string },
  nodeSelector: Record<string, string> | null,
): Promise<{ waiting: Promise<unknown> }> {
  const waiting = t.call({ name: workload.name, ns: t.ns, timeout: 60 });
  await sleep(1000);
  await placeWorkload(t, workload, nodeSelector);
  return { waiting };
}

/** The refusals every scale activity shares, on an object `name` that must stay as it is. */
export async function expectScaleRefusals(t: CaseContext, name: string): Promise<void> {
  await t.expectRefused({ name, replicas: -1, ns: t.ns }, 'replicas');
  await t.expectRefused({ name, replicas: 1.5, ns: t.ns }, 'replicas');
  await t.expectRefused({ name, replicas: '3', ns: t.ns }, 'replicas');
  await t.expectRefused({ name, ns: t.ns }, 'replicas');
  await t.expectRefused({ replicas: 2, ns: t.ns }, 'name');
  await t.expectRefused({ name: 'Keep_It', replicas: 2, ns: t.ns }, 'name');
}

/** Asserts that `promise` rejects with ActivityFailed; returns the message. */
export async function activityFailure(promise: Promise<unknown>): Promise<string> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  assert.ok('error' in outcome, `expected ActivityFailed, got the result ${JSON.stringify(outcome)}`);
  assert.ok(
    isChaosError(outcome.error, 'ActivityFailed'),
    `expected ActivityFailed, got ${String(outcome.error)}`,
  );
  return (outcome.error as Error).message;
}

/**
 * The ActivityFailed message of a probe that fails only once its whole timeout (seconds) has
 * passed: checks that it waited that long, and logs how long it took.
 */
export async function failureAfterTimeout(
  t: CaseContext,
  args: Record<string, unknown> & { timeout: number },
): Promise<string> {
  const started = Date.now();
  const message = await activityFailure(t.call(args));
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= args.timeout * 1000 - 100, `the probe waited its timeout (${elapsed} ms)`);
  t.log(`${t.activity.name} with timeout ${args.timeout} failed after ${elapsed} ms`);
  return message;
}

/**
 * The spec_path files a create_* activity refuses before any request, for objects of `kind`
 * (`doc(name)` makes one) beside the `good` file: a missing file, a name not .yaml, .yml or
 * .json, YAML and JSON that do not parse, a Service (another kind) and two documents in one file.
 */
export async function badSpecFiles(
  file: (name: string, text: string) => Promise<string>,
  good: string,
  kind: string,
  doc: (name: string) => object,
  ns: string,
): Promise<Array<[Record<string, unknown>, string]>> {
  const at = async (name: string, text: string) => ({ spec_path: await file(name, text), ns });
  return [
    [{ spec_path: `${good}.missing.yaml`, ns }, 'spec_path'],
    [await at('web.txt', dump(doc('web'))), 'spec_path'],
    [await at('bad.yaml', `kind: ${kind}\n  metadata: [oops\n`), 'spec_path'],
    [await at('bad.json', `{"kind": "${kind}",`), 'spec_path'],
    [await at('svc.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: s}\n'), 'spec_path'],
    [await at('two.yaml', `${dump(doc('a'))}---\n${dump(doc('b'))}`), 'spec_path'],
  ];
}

/**
 * For the fully-available probes: a workload of `noun` that never becomes available fails the
 * probe after its timeout, saying how many replicas are ready.
 */
export function neverAvailableScenario(
  noun: string,
  stuck: (t: CaseContext, name: string, replicas: number) => Promise<void>,
  decision = '',
): Scenario {
  return {
    name: `fails after the timeout when it never becomes available, saying how many replicas are ready${decision}`,
    async run(t) {
      await stuck(t, 'stuck', 3);
      const message = await failureAfterTimeout(t, { name: 'stuck', ns: t.ns, timeout: 2 });
      assert.equal(message, `${noun} 'stuck' failed to recover within 2s: 0 of 3 replicas ready`);
    },
  };
}

/**
 * Calls the activity in plan mode (`chaoskit plan`) with the case identity; returns its result
 * and its log lines, and asserts that each of its mutations was a server-side dry run.
 */
export function planCall<A extends AnyActivity>(
  t: CaseContext<A>,
  args: Record<string, unknown>,
): Promise<{ result: ResultOf<A>; lines: string[] }>;
export function planCall<B extends AnyActivity>(
  t: CaseContext,
  args: Record<string, unknown>,
  activity: B,
): Promise<{ result: ResultOf<B>; lines: string[] }>;
export async function planCall(
  t: CaseContext,
  args: Record<string, unknown>,
  activity: AnyActivity = t.activity,
): Promise<{ result: unknown; lines: string[] }> {
  const lines: string[] = [];
  const since = new Date(Date.now() - 1000);
  const audited = t.cluster.auditLogPath !== undefined;
  const before = new Set(audited ? (await t.requestsSince(since)).map((e) => e.auditID) : []);
  const result = await invokeActivity(activity, args, {
    secrets: t.secrets,
    dryRun: true,
    log: (line) => {
      lines.push(line);
      t.log(`${activity.name} (plan): ${line}`);
    },
  });
  if (audited) {
    const mutations = await t.until('the dry-run request in the audit log', async () => {
      const found = (await t.requestsSince(since)).filter((e) => !before.has(e.auditID) && isMutation(e));
      return found.length > 0 ? found : undefined;
    });
    for (const m of mutations) assert.ok(isDryRun(m), `${m.verb} ${m.requestURI} is not a dry run`);
  }
  return { result, lines };
}
