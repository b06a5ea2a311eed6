// The decisions (docs/decisions.md), one by its number. The built command carries the file's
// text (the build defines CHAOSKIT_DECISIONS); run from the repository's own build, it is read
// there.
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';

declare const CHAOSKIT_DECISIONS: string | undefined;

const text = () =>
  typeof CHAOSKIT_DECISIONS === 'string'
    ? CHAOSKIT_DECISIONS
    : readFileSync(new URL('../../../../docs/decisions.md', import.meta.url), 'utf8');

/** The section of decision `which` (D79, d79, 79), from its heading to the next. */
export function decision(which: string): string {
  const number = /^[Dd]?(\d{1,4})$/.exec(which.trim())?.[1];
  if (!number)
    throw new InvalidArgumentError(
      `explain: argument '${which.slice(0, 20)}': a decision's number, such as D79`,
    );
  const all = text();
  const start = all.indexOf(`<a id="d${Number(number)}"></a>`);
  if (start < 0) throw new Error(`explain: there is no decision D${Number(number)}`);
  const from = all.indexOf('\n', start) + 1;
  const next = all.slice(from).search(/\n(<a id="d\d+"><\/a>|## )/);
  return all.slice(from, next < 0 ? undefined : from + next).trim();
}
