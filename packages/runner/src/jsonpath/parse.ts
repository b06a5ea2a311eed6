// jsonpath2's grammar (0.4.5, JSONPath.g4), parsed by recursive descent: the paths it accepts
// and no others. An error says what is wrong and, when the fix is plain, carries the path with
// it fixed, so that validation can offer the path to write instead.

import {
  bracketName,
  JsonPathSyntaxError,
  KEYWORDS,
  nameStart,
  replace,
  type Token,
  tokenize,
} from './lex.js';
import {
  CALL_NAMES,
  type CallName,
  type Comparison,
  type Literal,
  type Operand,
  type Path,
  type Selector,
  type Step,
  type Test,
} from './syntax.js';

const COMPARISONS = new Set<string>(['=', '!=', '<', '<=', '>', '>=']);

/** The path as jsonpath2 reads it; throws JsonPathSyntaxError where jsonpath2 refuses it. */
export function parseJsonPath(path: string): Path {
  return new Parser(path).root();
}

class Parser {
  private readonly tokens: Token[];
  private i = 0;

  constructor(private readonly path: string) {
    this.tokens = tokenize(path);
  }

  private get next(): Token {
    return this.tokens[this.i] as Token;
  }

  /** Whether the next token is `kind` (a call, so that TypeScript narrows nothing across takes). */
  private is(kind: Token['kind']): boolean {
    return this.next.kind === kind;
  }

  private take(): Token {
    return this.tokens[this.i++] as Token;
  }

  private error(problem: string, token = this.next, fixed?: string): JsonPathSyntaxError {
    return new JsonPathSyntaxError(`${problem} (at character ${token.at + 1})`, token.at, fixed);
  }

  private found(token = this.next): string {
    return token.kind === 'end' ? 'the end of the path' : `'${token.text}'`;
  }

  private expect(kind: Token['kind'], what = `'${kind}'`): Token {
    if (this.next.kind !== kind) throw this.unexpected(what);
    return this.take();
  }

  /** An error for the next token, with the fix for the usual slips of other dialects. */
  private unexpected(what: string): JsonPathSyntaxError {
    const token = this.next;
    const name = nameStart(this.tokens.slice(0, this.i), token.at);
    if (name && token.kind === 'number' && token.text.startsWith('-')) {
      // `.node-0`: the name goes on with what reads as a negative number.
      const { problem, fixed } = bracketName(this.path, name);
      return this.error(problem, token, fixed);
    }
    return this.error(`expected ${what}, found ${this.found(token)}`, token);
  }

  root(): Path {
    const first = this.next;
    if (first.kind !== '$') {
      const text = this.path.trimStart();
      const fixed =
        first.kind === '@'
          ? replace(this.path, first.at, 1, '$')
          : first.kind === '.' || first.kind === '..' || first.kind === '['
            ? `$${text}`
            : first.kind === 'name'
              ? `$.${text}`
              : undefined;
      throw this.error(`a JSON path starts with '$', found ${this.found(first)}`, first, fixed);
    }
    this.take();
    const steps = this.steps();
    if (this.next.kind !== 'end') throw this.unexpected("'.', '..', '[' or the end of the path");
    return { from: '$', steps };
  }

  private steps(): Step[] {
    const steps: Step[] = [];
    for (;;) {
      const token = this.next;
      if (token.kind === '..') {
        this.take();
        steps.push({
          descend: true,
          selectors: this.next.kind === '[' ? this.brackets() : [this.bareword()],
          at: token.at,
        });
      } else if (token.kind === '.') {
        this.take();
        steps.push({ descend: false, selectors: [this.bareword()], at: token.at });
      } else if (token.kind === '[') {
        steps.push({ descend: false, selectors: this.brackets(), at: token.at });
      } else {
        return steps;
      }
    }
  }

  /** After `.` or `..`: a name, a function call or `*`. */
  private bareword(): Selector {
    const token = this.next;
    if (token.kind === 'name') {
      this.take();
      return this.next.kind === '(' ? this.call(token) : { kind: 'name', name: token.text };
    }
    if (token.kind === '*') {
      this.take();
      return { kind: 'wildcard' };
    }
    const dot = this.tokens[this.i - 1] as Token;
    if (KEYWORDS.has(token.kind)) {
      const { fixed } = bracketName(this.path, { dot, start: token.at });
      throw this.error(
        `'${token.text}' is a jsonpath2 keyword: as a name it is written ["${token.text}"]`,
        token,
        fixed,
      );
    }
    if (token.kind === 'number' && dot.kind === '.') {
      throw this.error(
        `an index is written in brackets: [${token.text}]`,
        token,
        replace(this.path, dot.at, token.at + token.text.length - dot.at, `[${token.text}]`),
      );
    }
    throw this.unexpected("a name or '*'");
  }

  private call(name: Token): Selector {
    if (!(CALL_NAMES as readonly string[]).includes(name.text)) {
      throw this.error(`jsonpath2 has no function '${name.text}' (it has ${CALL_NAMES.join(', ')})`, name);
    }
    this.expect('(');
    const args: Operand[] = [];
    if (this.next.kind !== ')') {
      args.push(this.operand());
      while (this.next.kind === ',') {
        this.take();
        args.push(this.operand());
      }
    }
    this.expect(')', "',' or ')'");
    return { kind: 'call', name: name.text as CallName, args };
  }

  private brackets(): Selector[] {
    this.expect('[');
    const selectors = [this.subscript()];
    while (this.next.kind === ',') {
      this.take();
      selectors.push(this.subscript());
    }
    this.expect(']', "',' or ']'");
    return selectors;
  }

  /** One selector inside `[…]`. */
  private subscript(): Selector {
    const token = this.next;
    switch (token.kind) {
      case 'string':
        this.take();
        // jsonpath2 keeps what is between the quotes as written: no escape is decoded.
        return { kind: 'name', name: token.text.slice(1, -1) };
      case 'number': {
        const start = this.integer();
        return this.next.kind === ':' ? this.slice(start) : { kind: 'index', index: start };
      }
      case ':':
        return this.slice(undefined);
      case '*':
        this.take();
        return { kind: 'wildcard' };
      case '?': {
        this.take();
        if (this.next.kind !== '(') throw this.unexpected("'(': a filter is written [?( … )]");
        const open = this.take();
        const test = this.test();
        const close = this.expect(')', "')'");
        return { kind: 'filter', test, text: this.path.slice(open.at + 1, close.at).trim() };
      }
      case '$':
      case '@':
        return { kind: 'path', path: this.relative() };
      case 'name':
        this.take();
        if (this.next.kind === '(') return this.call(token);
        throw this.error(
          `a name in brackets is in double quotes: ["${token.text}"]`,
          token,
          replace(this.path, token.at, token.text.length, `"${token.text}"`),
        );
      case '(':
        throw this.error('jsonpath2 has no script expressions [( … )]; the last item is [-1]', token);
      default:
        if (KEYWORDS.has(token.kind)) {
          throw this.error(
            `'${token.text}' is a jsonpath2 keyword: as a name it is written ["${token.text}"]`,
            token,
            replace(this.path, token.at, token.text.length, `"${token.text}"`),
          );
        }
        throw this.unexpected("a name in double quotes, an index, a slice, '*', '?(' or a path");
    }
  }

  /** An index or a slice bound: a whole number, as jsonpath2's `int()` takes it. */
  private integer(): number {
    const token = this.expect('number', 'a whole number');
    if (/[.eE]/.test(token.text)) {
      throw this.error(`an index or a slice bound is a whole number, not ${token.text}`, token);
    }
    return Number(token.text);
  }

  private slice(start: number | undefined): Selector {
    this.expect(':');
    const end = this.is('number') ? this.integer() : undefined;
    let step: number | undefined;
    if (this.is(':')) {
      this.take();
      if (this.is('number')) step = this.integer();
    }
    return {
      kind: 'slice',
      ...(start === undefined ? {} : { start }),
      ...(end === undefined ? {} : { end }),
      ...(step === undefined ? {} : { step }),
    };
  }

  /** `$…` or `@…` inside a filter, a call or brackets. */
  private relative(): Path {
    const from = this.take().kind as '$' | '@';
    return { from, steps: this.steps() };
  }

  // expression: andExpression; andExpression: orExpression ('and' andExpression)?;
  // orExpression: notExpression ('or' orExpression)? — so `or` binds tighter than `and`.
  private test(): Test {
    return this.chain('and', () => this.chain('or', () => this.notTest()));
  }

  /** `operand (kind operand)*`, one test when there is one operand. */
  private chain(kind: 'and' | 'or', operand: () => Test): Test {
    const tests = [operand()];
    while (this.is(kind)) {
      this.take();
      tests.push(operand());
    }
    return tests.length === 1 ? (tests[0] as Test) : { kind, tests };
  }

  private notTest(): Test {
    const token = this.next;
    if (token.kind === 'not') {
      this.take();
      const test = this.notTest();
      return test.kind === 'not' ? test.test : { kind: 'not', test };
    }
    if (token.kind === '(') {
      this.take();
      const test = this.test();
      this.expect(')', "')'");
      return test;
    }
    const left = this.operand();
    if (!COMPARISONS.has(this.next.kind)) return { kind: 'some', operand: left };
    const op = this.take().kind as Comparison;
    return { kind: 'compare', op, left, right: this.operand() };
  }

  /** A path from `$` or `@`, or a JSON value. */
  private operand(): Operand {
    const token = this.next;
    if (token.kind === '$' || token.kind === '@') return { kind: 'path', path: this.relative() };
    const previous = this.tokens[this.i - 1];
    if (
      token.kind === '=' &&
      previous &&
      COMPARISONS.has(previous.kind) &&
      previous.at + previous.text.length === token.at
    ) {
      // `==`, `===`, `!==`: the operator goes on with '='s jsonpath2 does not take.
      const extra = (/^=+/.exec(this.path.slice(token.at)) as RegExpExecArray)[0].length;
      throw this.error(
        `jsonpath2 compares with '${previous.text}', not '${previous.text}${'='.repeat(extra)}'`,
        token,
        replace(this.path, token.at, extra, ''),
      );
    }
    return this.value();
  }

  private value(): Literal {
    const token = this.take();
    switch (token.kind) {
      case 'string':
        return { kind: 'value', value: token.text.slice(1, -1) };
      case 'number':
        return /[.eE]/.test(token.text)
          ? { kind: 'value', value: Number(token.text), float: true }
          : { kind: 'value', value: Number(token.text) };
      case 'true':
      case 'false':
        return { kind: 'value', value: token.kind === 'true' };
      case 'null':
        return { kind: 'value', value: null };
      case '{':
        return { kind: 'value', value: this.object() };
      case '[':
        return { kind: 'value', value: this.array() };
      default:
        this.i--;
        throw this.unexpected(
          'a path from $ or @, or a value (a string in double quotes, a number, true, false, null)',
        );
    }
  }

  private object(): Record<string, unknown> {
    const object: Record<string, unknown> = {};
    if (this.next.kind === '}') {
      this.take();
      return object;
    }
    do {
      const key = this.expect('string', 'a name in double quotes');
      this.expect(':');
      // defineProperty: a name such as `__proto__` is a key like any other.
      Object.defineProperty(object, key.text.slice(1, -1), {
        value: this.value().value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } while (this.next.kind === ',' && this.take());
    this.expect('}', "',' or '}'");
    return object;
  }

  private array(): unknown[] {
    const array: unknown[] = [];
    if (this.next.kind === ']') {
      this.take();
      return array;
    }
    do array.push(this.value().value);
    while (this.next.kind === ',' && this.take());
    this.expect(']', "',' or ']'");
    return array;
  }
}
