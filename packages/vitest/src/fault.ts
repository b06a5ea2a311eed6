// A fault: one action's run, with its own record of changes (a RunLedger, as `chaoskit run`
// keeps one), written before every change the action makes. Reverting reads that record back
// from the cluster and undoes it exactly as `chaoskit revert` does; settling says what of it is
// still in place and, when nothing is, removes the record, as a run's end does.

import type { AnyActivity } from '@chaoskit/core';
import {
  describeRef,
  LedgerKeys,
  newRunId,
  otherRunsOf,
  RunLedger,
  readRecord,
  readRecords,
  redact,
  revertRun,
} from '@chaoskit/core/runner';
import type { Catalogue } from './catalogue.js';

/** What an action returns: its result, and the way back. */
export interface Fault<R = unknown> extends AsyncDisposable {
  /** The action's result (what its camelCase export returns). */
  readonly result: R;
  /** The activity, `module.name`. */
  readonly activity: string;
  /** The id of the fault's record (`chaoskit status` lists it while it is in place). */
  readonly runId: string;
  /**
   * Undoes every change the action recorded, through its record; once is enough (later calls
   * wait for the first). Throws naming what could not be undone.
   */
  revert(): Promise<void>;
}

export interface FaultOptions {
  /** Where the record is kept. */
  ledgerNamespace: string;
  /** The record's title (the test's name). */
  title: string;
  /** After how long `chaoskit revert --expired` may undo a record left behind. */
  ttlSeconds?: number;
  log?: (line: string) => void;
}

/** One action's run and its record. */
export class FaultRun {
  readonly ledger: RunLedger;
  #reverting: Promise<void> | undefined;

  constructor(
    readonly activity: AnyActivity,
    readonly catalogue: Catalogue,
    readonly options: FaultOptions,
  ) {
    this.ledger = new RunLedger({
      runId: newRunId(),
      namespace: options.ledgerNamespace,
      ttlSeconds: options.ttlSeconds ?? 3600,
      title: `${options.title}: ${activity.qualifiedName}`,
      started: new Date().toISOString(),
    });
  }

  get runId(): string {
    return this.ledger.runId;
  }

  revert(): Promise<void> {
    this.#reverting ??= this.#revert();
    return this.#reverting;
  }

  async #revert(): Promise<void> {
    const namespace = this.options.ledgerNamespace;
    const left: string[] = [];
    for (const cluster of this.ledger.ledgers()) {
      // Nothing recorded but removed pods (their controllers replace them): no record to keep.
      if (cluster.touched().length === 0) {
        await cluster.discard();
        continue;
      }
      // The fault's own record, undone by the identity that wrote it.
      const kube = cluster.transport;
      const keys = new LedgerKeys(kube, cluster.writer());
      const found = await readRecord(kube, namespace, this.runId, keys);
      if (!found.run) {
        for (const p of found.problems) left.push(`${p.where}: ${p.problem}`);
        continue;
      }
      const current = await readRecords(kube, namespace, keys);
      const result = await revertRun(kube, found.run, otherRunsOf(current.runs), keys, {
        rulesOf: (name) => this.catalogue.rulesOf(name),
        log: (line) => this.options.log?.(redact(line)),
        settleRecord: true,
      });
      for (const o of [...result.refused, ...result.failed, ...result.beyond])
        left.push(`${describeRef(o.ref)}: ${o.detail ?? o.state}`);
    }
    if (left.length)
      throw new Error(
        `${this.activity.qualifiedName}: the revert of run ${this.runId} left in place (chaoskit revert ${this.runId} --ledger-namespace ${namespace} tries again):\n  ${left.join('\n  ')}`,
      );
  }

  /**
   * What of the fault is still in place, per its record, in words; when nothing is, the record
   * is removed (there is nothing to revert).
   */
  async settle(): Promise<string[]> {
    const left: string[] = [];
    for (const cluster of this.ledger.ledgers())
      for (const s of await cluster.settle()) left.push(`${describeRef(s.ref)}: ${s.what} (${s.state})`);
    return left;
  }
}

/** The handle of a run that completed with `result`. */
export function faultHandle<R>(run: FaultRun, result: R): Fault<R> {
  return {
    result,
    activity: run.activity.qualifiedName,
    runId: run.runId,
    revert: () => run.revert(),
    [Symbol.asyncDispose]: () => run.revert(),
  };
}

/**
 * Reverts after `err` ended what the fault was for, then throws `err`; a revert that fails too
 * is added to it (an AggregateError).
 */
export async function revertAndThrow(err: unknown, revert: () => Promise<void>): Promise<never> {
  await revert().catch((revertErr: unknown) => {
    throw new AggregateError(
      [err, revertErr],
      `${(err as Error).message}; and ${(revertErr as Error).message}`,
    );
  });
  throw err;
}
