// What the commands of one chaoskit process share: the logger their options set up, and the exit
// code their actions leave.
import { redact, unmaskedMessage } from '@chaoskit/core/runner';
import { createLogger, type Logger } from '../output/log.js';
import { terminalText } from '../output/terminal.js';

export const session: {
  /** The lines of a command: stderr, --verbose, --json and --log-file (log.ts). */
  logger: Logger;
  /** What the process exits with (D89). */
  exitCode: number;
} = { logger: createLogger(), exitCode: 0 };

/**
 * Says what went wrong on stderr — the user's own values that select their cluster shown, as
 * they need them to fix it; credentials masked — and, masked as every log is, in --log-file
 * (D90). Its control characters are escaped (it may hold what the cluster or the command line
 * said). Returns the exit code to leave.
 */
export function fail(err: unknown, code = 1): number {
  const message = unmaskedMessage(err);
  process.stderr.write(`chaoskit: ${terminalText(redact(message, { showTargets: true }))}\n`);
  session.logger.toFile('error', `chaoskit: ${message}`);
  return code;
}
