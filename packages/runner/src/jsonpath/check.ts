// What `chaoskit validate` says of a tolerance's path: nothing when jsonpath2 reads it (and it
// can run), else what is wrong and the path to write instead — the fixes of each slip applied
// until the path reads.

import { JsonPathSyntaxError } from './lex.js';
import { parseJsonPath } from './parse.js';
import type { Path, Selector } from './syntax.js';

/** Why chaoslib would refuse `path` or fail on it, with the path to write instead; or undefined. */
export function jsonPathProblem(path: string): string | undefined {
  let parsed: Path;
  try {
    parsed = parseJsonPath(path);
  } catch (error) {
    if (!(error instanceof JsonPathSyntaxError)) throw error;
    const fixed = fix(error);
    return fixed ? `${error.message}; write instead: ${fixed.path}${filterNote(fixed)}` : error.message;
  }
  if ([...selectors(parsed)].some((s) => s.kind === 'slice' && s.step === 0)) {
    return 'a slice step of 0 selects nothing: chaoslib fails there (range() in Python takes no step 0); leave the step out or write 1';
  }
  return undefined;
}

/** The path with each slip fixed in turn, when that ends in a path jsonpath2 reads. */
function fix(error: JsonPathSyntaxError): { path: string; parsed: Path } | undefined {
  let candidate = error.fixed;
  // Each fix removes one slip; a path with more than a handful is left to its author.
  for (let n = 0; candidate !== undefined && n < 8; n++) {
    try {
      return { path: candidate, parsed: parseJsonPath(candidate) };
    } catch (next) {
      if (!(next instanceof JsonPathSyntaxError)) throw next;
      candidate = next.fixed;
    }
  }
  return undefined;
}

/**
 * A filter right after a name or an index tests that node itself in jsonpath2 — where
 * standard JSONPath tests its items. Said with the path that tests the items, in case those
 * were meant.
 */
function filterNote({ path, parsed }: { path: string; parsed: Path }): string {
  const step = parsed.steps.find(
    (s, i) =>
      i > 0 &&
      !s.descend &&
      s.selectors.some((x) => x.kind === 'filter') &&
      parsed.steps[i - 1]?.selectors.every((x) => x.kind === 'name' || x.kind === 'index'),
  );
  if (!step) return '';
  const node = path.slice(0, step.at).trim();
  return ` (a jsonpath2 filter tests the node it follows: if ${node} is a list, its items are tested by ${node}[*]${path.slice(step.at).trimStart()})`;
}

/** Every selector of a path, those inside filters and arguments too. */
function* selectors(path: Path): Generator<Selector> {
  for (const step of path.steps) {
    for (const selector of step.selectors) {
      yield selector;
      if (selector.kind === 'path') yield* selectors(selector.path);
      if (selector.kind === 'call')
        for (const arg of selector.args) if (arg.kind === 'path') yield* selectors(arg.path);
      if (selector.kind === 'filter') yield* testSelectors(selector.test);
    }
  }
}

function* testSelectors(test: Extract<Selector, { kind: 'filter' }>['test']): Generator<Selector> {
  switch (test.kind) {
    case 'and':
    case 'or':
      for (const t of test.tests) yield* testSelectors(t);
      return;
    case 'not':
      yield* testSelectors(test.test);
      return;
    case 'some':
      if (test.operand.kind === 'path') yield* selectors(test.operand.path);
      return;
    case 'compare':
      for (const operand of [test.left, test.right])
        if (operand.kind === 'path') yield* selectors(operand.path);
      return;
  }
}
