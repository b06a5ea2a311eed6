// The Events a run posts on each object it changes (D134), so that `kubectl describe` shows the
// chaos: ChaosInjected after each real write of the run's activities, ChaosReverted after each of
// its rollbacks' writes (asReverting) and each restore of `chaoskit revert`. Posted after the
// write succeeded, beside the run (the write does not wait for its Event), as many at once as
// the write chain sends (the connection's pool, its throttle shared with the writes); never in
// plan mode or a dry run, never recorded, railed or reverted. Best-effort: a refusal or a slow
// server costs the Event, never the run, and is said once per run.

import pLimit, { type LimitFunction } from 'p-limit';
import { isApiError } from '../errors/errors.js';
import { redact } from '../errors/redact.js';
import type { ObjectRef } from '../record/entries.js';
import type { RevertEvents } from '../record/revert.js';
import { isReverting } from '../telemetry/telemetry.js';
import { MAX_CONNECTIONS } from '../transport/connection.js';
import { nameOf, type WriteOp } from '../transport/ops.js';
import type { Transport } from '../transport/transport.js';
import { type EventNote, eventNamespace, postEvent, type Regarding } from './event.js';

export const INJECTED = 'ChaosInjected';
export const REVERTED = 'ChaosReverted';

/** How long the end of a run waits for the Events still on their way, before it gives them up. */
export const NOTES_GRACE_MS = 15_000;

export interface RunNotesOptions {
  /** The run the Events name. */
  runId: string;
  /** Where the one warning of the run goes (an Event that could not be posted). */
  warn?: (line: string) => void;
  graceMs?: number;
}

type Obj = { kind?: string; metadata?: { uid?: string }; details?: { uid?: string } };
type Options = { preconditions?: { uid?: string }; deleteOptions?: { preconditions?: { uid?: string } } };

/** What a write's answer says of its object: the object itself, or a Status naming its uid. */
function answered(sent: unknown): { kind?: string | undefined; uid?: string | undefined } {
  const answer = (sent ?? {}) as Obj;
  return answer.kind !== undefined && answer.kind !== 'Status'
    ? { kind: answer.kind, uid: answer.metadata?.uid }
    : { uid: answer.details?.uid };
}

/** The object a write is about, as its answer (else its body, else what the caller read) names it. */
function regardingOf(op: WriteOp, sent: unknown): Regarding {
  const answer = answered(sent);
  const given = ('body' in op ? op.body : undefined) as Options | undefined;
  const uid =
    answer.uid ??
    given?.preconditions?.uid ??
    given?.deleteOptions?.preconditions?.uid ??
    ('before' in op ? (op.before as Obj | undefined)?.metadata?.uid : undefined);
  const namespace =
    op.namespace ??
    (op.verb === 'create'
      ? (op.body as { metadata?: { namespace?: string } })?.metadata?.namespace
      : undefined);
  return {
    apiVersion: op.type.apiVersion,
    kind: op.type.kind || (answer.kind ?? ''),
    name: nameOf(op) ?? '',
    ...(op.type.namespaced && namespace ? { namespace } : {}),
    ...(uid ? { uid } : {}),
  };
}

const DONE: Record<WriteOp['verb'], string> = {
  create: 'created',
  replace: 'replaced',
  patch: 'changed',
  delete: 'deleted',
  evict: 'evicted',
  subresource: 'changed',
};

const action = (verb: string) => verb.charAt(0).toUpperCase() + verb.slice(1);

/** The Events of one run, on every cluster it changes. */
export class RunNotes {
  readonly #byConnection = new Map<unknown, ClusterNotes>();
  readonly #pending = new Set<Promise<void>>();
  readonly #stop = new AbortController();
  #warned = false;

  constructor(readonly options: RunNotesOptions) {}

  get runId(): string {
    return this.options.runId;
  }

  /** The Events on the cluster `transport` reaches (sent without the call's signal: a run's, not a call's). */
  for(transport: Transport): ClusterNotes {
    let notes = this.#byConnection.get(transport.connection);
    if (!notes) {
      notes = new ClusterNotes(this, transport.withSignal(this.#stop.signal));
      this.#byConnection.set(transport.connection, notes);
    }
    return notes;
  }

  /** Posts in the background; `settled` waits for it. */
  track(post: Promise<void>): void {
    const tracked = post.finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }

  /** Says the first failure of the run; the others are the same story. */
  failed(note: EventNote, err: unknown): void {
    if (this.#warned || this.#stop.signal.aborted) return;
    this.#warned = true;
    const where = `namespace '${eventNamespace(note.regarding)}'`;
    this.options.warn?.(
      redact(
        isApiError(err, 'Forbidden')
          ? `the identity may not create events (events create) in ${where}: the run goes on, and the objects it changes there get no ${note.reason} Event (kubectl describe shows none); chaoskit rbac lists that right`
          : `could not post the ${note.reason} Event on ${note.regarding.kind || 'the object'} '${note.regarding.name}' in ${where}: ${(err as Error).message}; the run goes on, and other Events may be missing too`,
      ),
    );
  }

  /**
   * Waits for the Events still on their way, at most `graceMs`: the ones the server has not
   * taken by then are given up (said once), so that a slow server does not hold the run's end.
   */
  async settled(): Promise<void> {
    if (this.#pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.options.graceMs ?? NOTES_GRACE_MS);
    });
    const all = (async () => {
      while (this.#pending.size) await Promise.allSettled([...this.#pending]);
      return false;
    })();
    const gaveUp = await Promise.race([all, late]);
    clearTimeout(timer);
    if (!gaveUp) return;
    const left = this.#pending.size;
    if (!this.#warned)
      this.options.warn?.(
        `${left} Event(s) on the changed objects were not posted in time (a slow API server): given up, the run's changes are as it says`,
      );
    this.#warned = true;
    this.#stop.abort();
  }
}

/** The Events of one run on one cluster; a revert (record/revert.ts) posts its ChaosReverted through them. */
export class ClusterNotes implements RevertEvents {
  readonly #limit: LimitFunction = pLimit(MAX_CONNECTIONS);

  constructor(
    readonly run: RunNotes,
    readonly transport: Transport,
  ) {}

  #post(note: EventNote): void {
    this.run.track(
      this.#limit(() => postEvent(this.transport, note)).catch((err: unknown) => this.run.failed(note, err)),
    );
  }

  /** A write of the run's activity was made: ChaosInjected, or ChaosReverted in its rollbacks. */
  changed(op: WriteOp, sent: unknown, activity: string): void {
    const reverted = isReverting();
    const done = op.verb === 'subresource' ? `${op.subresource} created` : DONE[op.verb];
    this.#post({
      regarding: regardingOf(op, sent),
      reason: reverted ? REVERTED : INJECTED,
      type: 'Normal',
      action: reverted ? 'Rollback' : action(op.verb),
      message: `chaoskit run ${this.run.runId}: ${done} by ${reverted ? 'rollback ' : ''}activity ${activity}`,
    });
  }

  /** `chaoskit revert` undid the run's change to this object (`sent`: the undo's answer). */
  reverted(
    ref: ObjectRef,
    how: 'deleted' | 'created again' | 'restored',
    sent: unknown,
    activities: readonly string[],
  ): void {
    const answer = answered(sent);
    const uid = answer.uid ?? ref.uid;
    this.#post({
      regarding: {
        apiVersion: ref.apiVersion,
        kind: answer.kind ?? '',
        name: ref.name,
        ...(ref.namespace ? { namespace: ref.namespace } : {}),
        ...(uid ? { uid } : {}),
      },
      reason: REVERTED,
      type: 'Normal',
      action: 'Revert',
      message: `chaoskit revert of run ${this.run.runId}: ${how} (changed by ${activities.join(', ') || 'the run'})`,
    });
  }
}
