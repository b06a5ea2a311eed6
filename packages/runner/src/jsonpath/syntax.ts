// A parsed jsonpath2 path. The shapes follow jsonpath2 0.4.5's grammar (JSONPath.g4) and the
// tree its parser builds, not standard JSONPath's: a filter tests the node it follows, `and`
// binds more loosely than `or`, names in quotes are taken as written (no escapes decoded).

/** `$…` from the document's root, `@…` from the node under test. */
export interface Path {
  from: '$' | '@';
  steps: Step[];
}

/** One `.name`, `[…]` or `..x`: its selectors, in order; `descend` for `..`. */
export interface Step {
  descend: boolean;
  selectors: Selector[];
  /** Where it starts in the path. */
  at: number;
}

export type CallName = 'charAt' | 'entries' | 'keys' | 'length' | 'substring' | 'values';
export const CALL_NAMES: readonly CallName[] = ['charAt', 'entries', 'keys', 'length', 'substring', 'values'];

export type Selector =
  | { kind: 'name'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'slice'; start?: number; end?: number; step?: number }
  | { kind: 'wildcard' }
  /** `[?(…)]`: the node itself when the test holds. */
  | { kind: 'filter'; test: Test; text: string }
  /** `[$.x]`, `[@.x]`: each value the path finds, used as an index (int) or a name (string). */
  | { kind: 'path'; path: Path }
  | { kind: 'call'; name: CallName; args: Operand[] };

/** A literal written in the path; `float` when written with a fraction or an exponent. */
export interface Literal {
  kind: 'value';
  value: unknown;
  float?: boolean;
}
export type Operand = { kind: 'path'; path: Path } | Literal;

export type Comparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type Test =
  | { kind: 'and' | 'or'; tests: Test[] }
  | { kind: 'not'; test: Test }
  | { kind: 'compare'; op: Comparison; left: Operand; right: Operand }
  /** A lone operand: a path that finds something, a literal Python takes as true. */
  | { kind: 'some'; operand: Operand };
