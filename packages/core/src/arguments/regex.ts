// Regular expressions written by users and matched against cluster data (pod names, probe
// output) run on RE2, whose matching time is linear in the text: a pattern such as `(a+)+b`
// cannot spin on a long name the way a backtracking engine does (D72, docs/decisions.md).

import { RE2JS } from 're2js';

export interface Regex {
  /** Whether the pattern matches anywhere in `text` (a search, as RegExp.test). */
  test(text: string): boolean;
}

/** Compiles an RE2 pattern; throws an Error saying why it is not one. */
export function compileRegex(pattern: string): Regex {
  const compiled = RE2JS.compile(pattern);
  return { test: (text) => compiled.matcher(text).find() };
}

/** Why `pattern` is not an RE2 pattern (no backreferences, no lookaround), or undefined. */
export function regexProblem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
