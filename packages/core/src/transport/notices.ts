// What a connection says when a server that answered before stops answering (a restart): heard
// by a command's log, once an outage.

import { errorCode } from '../errors/errors.js';
import { RETRY_BUDGET_MS } from './retry.js';

/** What a connection says when it starts retrying a server that stopped answering. */
export type ConnectionNotice = (line: string) => void;
const notices = new Set<ConnectionNotice>();

/** Hears, once an outage, that a server which answered before is retried (a command's log). */
export function onConnectionNotice(listener: ConnectionNotice): () => void {
  notices.add(listener);
  return () => notices.delete(listener);
}

/** Tells the listeners that the server at `origin` stopped answering and is being retried. */
export function notice(origin: string, failure: unknown): void {
  if (notices.size === 0) return;
  const code = errorCode(failure);
  const line = `the cluster at ${origin} stopped answering${code ? ` (${code})` : ''}; it answered before and may be restarting: its requests are retried for up to ${RETRY_BUDGET_MS / 1000} s`;
  for (const listener of notices) listener(line);
}
