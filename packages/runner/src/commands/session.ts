// What the commands of one chaoskit process share: the logger their options set up, the exit code
// their actions leave, and what the command line typed that its errors may show back.
import { isChaosError } from '@chaoskit/core';
import { redact } from '@chaoskit/core/runner';
import { createLogger, type Logger } from '../log.js';
import { terminalText } from '../terminal.js';

export const session: {
  /** The lines of a command: stderr, --verbose, --json and --log-file (log.ts). */
  logger: Logger;
  /** What the process exits with (D89). */
  exitCode: number;
  /** What --context and --kubeconfig said on this command line: shown back in its errors (D90). */
  readonly typed: string[];
} = { logger: createLogger(), exitCode: 0, typed: [] };

/**
 * Says what went wrong on stderr (and in --log-file), its control characters escaped (it may
 * hold what the cluster or the command line said); returns the exit code to leave.
 */
export function fail(err: unknown, code = 1): number {
  const message = isChaosError(err) ? err.message : ((err as Error).message ?? String(err));
  process.stderr.write(`chaoskit: ${terminalText(redact(message, { show: session.typed }))}\n`);
  session.logger.toFile('error', `chaoskit: ${message}`);
  return code;
}
