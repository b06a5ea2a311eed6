// Running one command in one container over the exec WebSocket (core's HTTP layer does not speak
// WebSockets): client-node's Exec, loaded only when an activity execs, with the call's own
// credentials. Here in core so that no activity holds a KubeConfig, from which anything could be
// written past the rails and the record (D171).

import { Writable } from 'node:stream';
import type { Exec, KubeConfig } from '@kubernetes/client-node';
import { Aborted, toApiError } from '../errors/errors.js';

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

/** The exec of the cluster `kubeConfig` points at, for one call of an activity (its signal). */
export async function podExec(
  kubeConfig: Promise<KubeConfig>,
  signal: AbortSignal | undefined,
): Promise<PodExec> {
  const { Exec } = await import('@kubernetes/client-node');
  const exec = new Exec(await kubeConfig);
  return (target, argv, timeoutSeconds) => execIn(exec, target, argv, timeoutSeconds, signal);
}

/** The status object the apiserver sends on the exec's status channel (a metav1.Status). */
export interface ExecStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: { causes?: Array<{ reason?: string; message?: string }> };
}

/**
 * The command's exit code: 0 on Success; the ExitCode cause a kubelet sends; else a trailing
 * "exit status N" in the message (kwok sends the code only so); else 1, as kubectl does.
 */
export function exitCodeOf(status: ExecStatus): number {
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find((c) => c.reason === 'ExitCode');
  if (cause?.message && /^\d+$/.test(cause.message.trim())) return Number(cause.message.trim());
  const match = /exit status (\d+)\s*$/.exec(status.message ?? '');
  if (match) return Number(match[1]);
  return 1;
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
