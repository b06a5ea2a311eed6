// Running one command in one container over the exec WebSocket: the one place this package
// loads @kubernetes/client-node at run time (core's HTTP layer does not speak WebSockets), and
// only when exec_in_pods runs.

import { Writable } from 'node:stream';
import { Aborted, type ActivityContext, toApiError } from '@chaoskit/core';
import type { Exec } from '@kubernetes/client-node';
import { type ExecStatus, exitCodeOf } from './command.js';

/** How one command ended (or did not, within its time). */
export interface ExecOutcome {
  /** The command's exit code; null when it was still running at the timeout. */
  exit_code: number | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  /** The exec's status message ('' on success): why it failed, or that it timed out. */
  message: string;
}

export interface ExecTarget {
  namespace: string;
  pod: string;
  container: string;
}

/**
 * Runs `argv` in a container, collecting stdout and stderr apart; `timeoutSeconds` bounds it.
 * When the call's signal aborts, the exec connection is closed at once (the command stops with
 * it) and the promise rejects with Aborted.
 */
export type PodExec = (target: ExecTarget, argv: string[], timeoutSeconds: number) => Promise<ExecOutcome>;

/** The exec of the cluster `ctx` points at, built once per call of the activity. */
export async function podExec(ctx: Pick<ActivityContext, 'kubeConfig' | 'signal'>): Promise<PodExec> {
  const { Exec } = await import('@kubernetes/client-node');
  const exec = new Exec(await ctx.kubeConfig());
  return (target, argv, timeoutSeconds) => execIn(exec, target, argv, timeoutSeconds, ctx.signal);
}

/** What `Exec.exec` resolves to (a `ws` WebSocket), as far as it is used here. */
interface Socket {
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  terminate(): void;
}

function collector(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      callback();
    },
  });
}

/**
 * Until the status arrives or `timeoutSeconds` pass: the connection is then closed and the
 * command reported as timed out, with what it wrote so far.
 */
function execIn(
  exec: Exec,
  target: ExecTarget,
  argv: string[],
  timeoutSeconds: number,
  signal: AbortSignal | undefined,
): Promise<ExecOutcome> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
  return new Promise<ExecOutcome>((resolve, reject) => {
    let socket: Socket | undefined;
    let settled = false;
    const settle = (outcome: ExecOutcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const abort = () => {
      settle(new Aborted(signal?.reason));
      socket?.terminate();
    };
    const timer = setTimeout(() => {
      settle({
        exit_code: null,
        stdout: text(out),
        stderr: text(err),
        timed_out: true,
        message: `still running after ${timeoutSeconds} s (request_timeout); the exec connection was closed`,
      });
      socket?.terminate();
    }, timeoutSeconds * 1000);
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    const onStatus = (status: ExecStatus) => {
      const success = status.status === 'Success';
      settle({
        exit_code: exitCodeOf(status),
        stdout: text(out),
        stderr: text(err),
        timed_out: false,
        message: success ? '' : (status.message ?? status.reason ?? 'Failure'),
      });
    };
    exec
      .exec(
        target.namespace,
        target.pod,
        target.container,
        argv,
        collector(out),
        collector(err),
        null,
        false,
        onStatus,
      )
      .then(
        (ws) => {
          socket = ws as unknown as Socket;
          if (settled) {
            socket.terminate();
            return;
          }
          socket.on('error', (e) => settle(new Error(`exec connection failed: ${e.message}`)));
          socket.on('close', () =>
            settle(new Error("the exec connection closed before the command's exit status arrived")),
          );
        },
        (e: unknown) => settle(openError(e, target)),
      );
  });
}

/** The WebSocket upgrade refused ("Unexpected server response: 403") as an ApiError. */
function openError(e: unknown, target: ExecTarget): Error {
  const event = e as { message?: unknown; error?: { message?: unknown } };
  const message = String(event.message ?? event.error?.message ?? e);
  const status = /Unexpected server response: (\d{3})/.exec(message);
  const context = { verb: 'exec in', resource: 'pod', name: target.pod, namespace: target.namespace };
  if (status) return toApiError({ code: Number(status[1]), body: message }, context) as Error;
  return new Error(`exec in pod '${target.pod}' in namespace '${target.namespace}': ${message}`);
}
