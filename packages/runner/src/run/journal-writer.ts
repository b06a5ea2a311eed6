// The journal writer: the journal is written each time an activity returns, so a crash loses
// at most the one under way, and once more when the run ends. Where it goes is the sink's
// (a file for `chaoskit run`, a ConfigMap with --journal-to-cluster); what is written is redacted.

import { redact, redactValue } from '@chaoskit/core/runner';
import type { JournalPlace, RunEventType, RunListener } from './events.js';
import type { Journal } from './journal.js';

/** The journal's text: JSON, redacted. */
function journalText(journal: Journal): string {
  return `${JSON.stringify(redactValue(journal), null, 2)}\n`;
}

export interface JournalWriter {
  readonly listener: RunListener;
  /** The last write, once the run has ended: its text, or why it failed. */
  finished(): Promise<string>;
}

export interface JournalWriterOptions {
  /** Where the sink writes (the events say it): the file, unless told. */
  to?: JournalPlace;
  /** Moments written besides each activity's return and the end (the start, an interruption). */
  also?: readonly RunEventType[];
}

/** The sink takes the redacted text, and the journal it is of (for what it may say beside it). */
export function journalWriter(
  sink: (text: string, journal: Journal) => Promise<unknown>,
  { to = 'file', also = [] }: JournalWriterOptions = {},
): JournalWriter {
  const moments = new Set<RunEventType>(['activity-returned', 'run-ended', ...also]);
  let journal: Journal | undefined;
  // Background activities end at any time: one write at a time, in order.
  let writing: Promise<unknown> = Promise.resolve();
  let last: Promise<string> | undefined;
  const listener: RunListener = async (event, emit) => {
    if (event.type === 'run-started') journal = event.journal;
    if (!journal || !moments.has(event.type)) return;
    const final = event.type === 'run-ended';
    const current = journal;
    const written = writing
      .catch(() => undefined)
      .then(async () => {
        const text = journalText(current);
        await sink(text, current);
        return text;
      });
    if (final) last = written;
    writing = written.then(
      (text) => emit({ type: 'journal-written', text, final, to }),
      (err: unknown) => emit({ type: 'journal-failed', message: redact((err as Error).message), to }),
    );
    await writing;
  };
  return {
    listener,
    finished: () => last ?? Promise.reject(new Error('the run has not ended: its journal is not complete')),
  };
}
