// exec_in_pods' command: the `cmd` argument turned into an argv (D6). Pure: unit-tested alone.

import { type ParseEntry, parse } from 'shell-quote';

/** Why a `cmd` cannot be run; its message says what is accepted instead. */
export class CommandError extends Error {
  override name = 'CommandError';
}

const SHELL_HINT = 'no shell runs the command: pass ["sh", "-c", "…"] to use one';

/** Refuses a quote left open (shell-quote would silently close it). */
function checkQuotes(text: string): void {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === '\\') {
      i++; // escapes the next character, outside quotes and inside double quotes
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    }
  }
  if (quote) throw new CommandError(`a command whose quotes are closed (a ${quote} is left open)`);
}

/**
 * The argv of `cmd`: a list is used as given; a string is split like a POSIX shell splits
 * words (quotes group, backslash escapes), without running one: `$VAR` stays literal text and
 * shell operators (| > && ; …) and comments are refused, since nothing would interpret them.
 */
export function parseCommand(cmd: string | readonly string[]): string[] {
  if (typeof cmd !== 'string') {
    if (cmd.length === 0 || cmd[0] === '')
      throw new CommandError('a non-empty command: a list whose first item is the program to run');
    return [...cmd];
  }
  if (cmd.trim() === '') throw new CommandError('a non-empty command');
  checkQuotes(cmd);
  let tokens: ParseEntry[];
  try {
    // Variables are not expanded: the text is kept as written, as no shell is involved.
    tokens = parse(cmd, (key) => `$${key}`) as ParseEntry[];
  } catch (err) {
    throw new CommandError(`a command a shell could split (${(err as Error).message})`);
  }
  const argv: string[] = [];
  for (const token of tokens) {
    if (token === undefined) continue;
    if (typeof token === 'string') argv.push(token);
    else if ('comment' in token) {
      throw new CommandError(`a command without a shell comment ('#' starts one); ${SHELL_HINT}`);
    } else if (token.op === 'glob') {
      argv.push((token as { pattern: string }).pattern); // no shell, so no expansion
    } else {
      throw new CommandError(`a command without shell operators ('${token.op}' is one); ${SHELL_HINT}`);
    }
  }
  if (argv.length === 0 || argv[0] === '') throw new CommandError('a non-empty command');
  return argv;
}
