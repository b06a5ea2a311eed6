// A run, as chaostoolkit-lib's Runner lays it out: the hypothesis before the method (the gate),
// the method (with the hypothesis alongside, by strategy), the hypothesis after it (the
// deviation check), then the rollbacks; what the run left in place, from its record; the end.
// Each phase is a function over the run's state; what happens is said as events (events.ts).
// The run, each phase and each activity is a span (telemetry/, D130).

import { Safety } from '@chaoskit/core';
import { describeRef, type RunLedger, redact, substitute } from '@chaoskit/core/runner';
import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { referable } from '../experiment/refs.js';
import type { Prepared } from '../prepare/prepare.js';
import { inSpan } from '../telemetry/telemetry.js';
import { controlEvents } from './control-events.js';
import { emitter } from './events.js';
import { afterMethod, gate, hypothesisOf } from './hypothesis.js';
import { type Interruption, iso, type Journal, newJournal } from './journal.js';
import { runMethod } from './method.js';
import { runMetrics } from './metrics.js';
import { runRollbacks } from './rollbacks.js';
import { safeguards } from './safeguards.js';
import { checkInterrupt, fatal, Interrupted, type RunOptions, type RunState } from './state.js';

export function runExperiment(prepared: Prepared, options: RunOptions = {}): Promise<Journal> {
  const { experiment, configuration, secrets } = prepared;
  const title = String(substitute(experiment.title, configuration, secrets));
  const attributes = {
    'chaoskit.experiment': redact(title),
    ...(options.ledger ? { 'chaoskit.run_id': options.ledger.runId } : {}),
    'chaoskit.dry_run': options.dry ?? false,
  };
  return inSpan('run', attributes, async (span) => {
    const journal = await play(prepared, options, title, span);
    span.setAttributes({
      'chaoskit.outcome': journal.status ?? 'completed',
      'chaoskit.deviated': journal.deviated,
    });
    if (journal.status === 'failed' || journal.status === 'aborted')
      span.setStatus({ code: SpanStatusCode.ERROR, message: `the run ${journal.status}` });
    return journal;
  });
}

async function play(prepared: Prepared, options: RunOptions, title: string, span: Span): Promise<Journal> {
  const { experiment } = prepared;
  const started = performance.now();
  const { dry, ledger } = options;
  const journal = newJournal({ ...experiment, title, ...(dry ? { dry } : {}) }, ledger?.runId);
  // A control's InterruptExecution, or a guard, stops the run as Ctrl-C does.
  const byControl = new AbortController();
  const state: RunState = {
    prepared,
    options,
    journal,
    emit: emitter([...(options.listeners ?? []), runMetrics, controlEvents(prepared, byControl)]),
    signal: options.signal ? AbortSignal.any([options.signal, byControl.signal]) : byControl.signal,
    interruptedByControl: byControl.signal,
    safety: new Safety({ ...prepared.rails, ...(options.confirm ? { confirm: options.confirm } : {}) }),
    refs: referable(experiment),
    unconfirmed: false,
  };
  const { emit } = state;
  // The halt lever and the experiment's safeguards: each may interrupt the run until its rollbacks.
  const guards = [...(options.guards ?? []), ...[safeguards(state)].filter((g) => g !== undefined)];
  const interrupt = (interruption: Interruption) => {
    if (state.signal.aborted) return;
    journal.interrupted_by = interruption;
    span.addEvent('guard breached', {
      'chaoskit.guard': interruption.by,
      'chaoskit.guard.name': redact(interruption.name),
      'chaoskit.guard.reason': redact(interruption.reason),
    });
    byControl.abort(new Interrupted(interruption.reason));
    void emit({ type: 'interrupted', by: 'guard', interruption }).catch(() => undefined);
  };
  try {
    await emit({
      type: 'run-started',
      title,
      journal,
      hypothesis: hypothesisOf(state) !== undefined,
      ...(dry ? { dry } : {}),
    });
    for (const guard of guards) await guard.start(interrupt);
    checkInterrupt(state.signal);
    if (await gate(state)) {
      await runMethod(state);
      checkInterrupt(state.signal);
      if (journal.status !== 'aborted') await afterMethod(state);
    }
  } catch (err) {
    await fatal(state, err);
  }
  for (const guard of guards) guard.stop();
  journal.status ??= 'completed';
  await runRollbacks(state);
  if (ledger) await settle(state, ledger);
  await options.notes?.settled();
  journal.end = iso();
  journal.duration = (performance.now() - started) / 1000;
  await emit({ type: 'run-ended', journal });
  return journal;
}

/**
 * What the run's changes left in place, per its record: nothing, and the record goes (there is
 * nothing to revert); otherwise the record stays for `chaoskit revert`.
 */
async function settle(state: RunState, ledger: RunLedger): Promise<void> {
  const left: string[] = [];
  try {
    for (const cluster of ledger.ledgers())
      for (const s of await cluster.settle()) left.push(`${describeRef(s.ref)} (${s.what})`);
  } catch (err) {
    await state.emit({ type: 'left-in-place-unchecked', message: redact((err as Error).message) });
    return;
  }
  if (!left.length) return;
  state.journal.left_in_place = left;
  await state.emit({ type: 'left-in-place', changes: left, runId: ledger.runId });
}
