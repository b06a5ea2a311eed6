import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isChaosError } from '@chaoskit/core';
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
