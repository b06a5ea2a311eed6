// Mirrors k8s.io/apimachinery/pkg/labels (Parse, NewRequirement, Requirement.Matches) so that a
// selector refused here is one the apiserver would refuse too, and the other way round.

/** Operator names as apimachinery's `selection.Operator` spells them. */
export type LabelOperator = 'exists' | '!' | '=' | '==' | '!=' | 'in' | 'notin' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Empty for exists/!, one value for =, ==, !=, gt, lt; sorted and distinct for in/notin. */
  values: string[];
}

export class LabelSelectorError extends Error {
  /** 0-based index into the selector text. */
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.name = 'LabelSelectorError';
    this.position = position;
  }
}

type TokenKind = 'id' | 'in' | 'notin' | '!' | '=' | '==' | '!=' | '>' | '<' | '(' | ')' | ',' | 'end';

interface Token {
  kind: TokenKind;
  text: string;
  pos: number;
}

const SYMBOLS = new Set(['!', '=', '==', '!=', '>', '<', '(', ')', ',']);
const SPECIAL = new Set(['=', '!', '(', ')', ',', '>', '<']);
// Only these four: the apiserver's lexer knows no other whitespace.
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && WHITESPACE.has(text.charAt(i))) i++;
    if (i >= text.length) {
      tokens.push({ kind: 'end', text: '', pos: text.length });
      return tokens;
    }
    const pos = i;
    if (SPECIAL.has(text.charAt(i))) {
      // Longest run of special characters that still forms an operator, as the apiserver's lexer.
      let end = i + 1;
      while (end < text.length && SYMBOLS.has(text.slice(pos, end + 1))) end++;
      const symbol = text.slice(pos, end);
      tokens.push({ kind: symbol as TokenKind, text: symbol, pos });
      i = end;
      continue;
    }
    while (i < text.length && !SPECIAL.has(text.charAt(i)) && !WHITESPACE.has(text.charAt(i))) i++;
    const word = text.slice(pos, i);
    tokens.push({ kind: word === 'in' || word === 'notin' ? word : 'id', text: word, pos });
  }
}

const OPERATORS: Partial<Record<TokenKind, LabelOperator>> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: 'in',
  notin: 'notin',
  '>': 'gt',
  '<': 'lt',
};

class Parser {
  private readonly tokens: Token[];
  private index = 0;

  constructor(private readonly text: string) {
    this.tokens = lex(text);
  }

  // Outside the operator slot, `in` and `notin` are ordinary words (`in=x`, `k in (in)`).
  private peek(asValue = true): Token {
    const token = this.tokens[Math.min(this.index, this.tokens.length - 1)]!;
    return asValue && (token.kind === 'in' || token.kind === 'notin') ? { ...token, kind: 'id' } : token;
  }

  private next(asValue = true): Token {
    const token = this.peek(asValue);
    if (token.kind !== 'end') this.index++;
    return token;
  }

  private fail(token: Token, expected: string): never {
    const what = token.kind === 'end' ? 'end of selector' : `'${token.text}'`;
    throw new LabelSelectorError(
      `unexpected ${what} at position ${token.pos}: expected ${expected}`,
      token.pos,
    );
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    if (this.peek().kind === 'end') return requirements;
    for (;;) {
      const start = this.peek();
      if (start.kind !== 'id' && start.kind !== '!') this.fail(start, "a label key or '!'");
      requirements.push(this.requirement());
      const after = this.next();
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') this.fail(after, "',' or the end of the selector");
      const following = this.peek();
      if (following.kind !== 'id' && following.kind !== '!')
        this.fail(following, "a label key or '!' after ','");
    }
  }

  private requirement(): LabelRequirement {
    let token = this.next();
    const negated = token.kind === '!';
    if (negated) token = this.next();
    if (token.kind !== 'id') this.fail(token, 'a label key');
    const key = token.text;
    checkKey(key, token.pos);
    if (negated) return { key, operator: '!', values: [] };
    const lookahead = this.peek();
    if (lookahead.kind === 'end' || lookahead.kind === ',') return { key, operator: 'exists', values: [] };

    const opToken = this.next(false);
    const operator = OPERATORS[opToken.kind];
    if (!operator) this.fail(opToken, 'an operator (=, ==, !=, in, notin, >, <)');
    if (operator === 'in' || operator === 'notin') {
      return { key, operator, values: this.valueSet(key, opToken.text) };
    }
    const value = this.exactValue(key, opToken.text);
    if ((operator === 'gt' || operator === 'lt') && !isInt64(value.text)) {
      throw new LabelSelectorError(
        `invalid value '${value.text}' at position ${value.pos}: '${opToken.text}' needs an integer`,
        value.pos,
      );
    }
    return { key, operator, values: [value.text] };
  }

  private exactValue(key: string, op: string): { text: string; pos: number } {
    const token = this.peek();
    if (token.kind === 'end' || token.kind === ',') return { text: '', pos: token.pos };
    this.next();
    if (token.kind !== 'id') this.fail(token, `a value after '${op}'`);
    checkValue(key, token.text, token.pos);
    return { text: token.text, pos: token.pos };
  }

  // A literal port of the apiserver's parseValues/parseIdentifiersList, quirks included: `()`,
  // `(a,)` and `(a,,b)` hold the empty value, while `(a,,)` is refused.
  private valueSet(key: string, op: string): string[] {
    const open = this.next();
    if (open.kind !== '(') this.fail(open, `'(' after '${op}'`);
    const values = new Set<string>();
    const first = this.peek();
    if (first.kind === ')') {
      this.next();
      return [''];
    }
    if (first.kind !== 'id' && first.kind !== ',') this.fail(first, "a value, ',' or ')'");
    for (;;) {
      const token = this.next();
      if (token.kind === 'id') {
        checkValue(key, token.text, token.pos);
        values.add(token.text);
        const after = this.peek();
        if (after.kind === ')') break;
        if (after.kind !== ',') this.fail(after, "',' or ')'");
      } else if (token.kind === ',') {
        if (values.size === 0) values.add('');
        const after = this.peek();
        if (after.kind === ')') {
          values.add('');
          break;
        }
        if (after.kind === ',') {
          this.next();
          values.add('');
        }
      } else {
        this.fail(token, "a value or ','");
      }
    }
    this.next();
    return [...values].sort();
  }
}

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const NAME_RULE = "alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric";

function keyProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return "a key has at most one '/' (an optional DNS subdomain prefix, then a name)";
  const name = parts.length === 2 ? parts[1]! : key;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') return "the prefix before '/' must not be empty";
    if (prefix.length > 253) return 'the prefix must be at most 253 characters';
    if (!DNS_SUBDOMAIN.test(prefix))
      return "the prefix must be a lowercase DNS subdomain such as 'example.com'";
  }
  if (name === '') return 'the name must not be empty';
  if (name.length > 63) return 'the name must be at most 63 characters';
  if (!NAME.test(name)) return `the name must consist of ${NAME_RULE}`;
  return undefined;
}

function checkKey(key: string, pos: number): void {
  const problem = keyProblem(key);
  if (problem) throw new LabelSelectorError(`invalid label key '${key}' at position ${pos}: ${problem}`, pos);
}

function checkValue(key: string, value: string, pos: number): void {
  let problem: string | undefined;
  if (value.length > 63) problem = 'a value must be at most 63 characters';
  else if (value !== '' && !NAME.test(value)) problem = `a value must be empty or consist of ${NAME_RULE}`;
  if (problem) {
    throw new LabelSelectorError(
      `invalid value '${value}' for key '${key}' at position ${pos}: ${problem}`,
      pos,
    );
  }
}

const INT64_MAX = 2n ** 63n - 1n;

// Values already passed checkValue, so no sign can be present: digits only, within int64.
function isInt64(text: string): boolean {
  return /^[0-9]+$/.test(text) && BigInt(text) <= INT64_MAX;
}

/** Parses a label selector with the apiserver's grammar; the empty selector has no requirements. */
export function parseLabelSelector(text: string): LabelRequirement[] {
  return new Parser(text).parse();
}

function matchesOne(req: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, req.key);
  const value = has ? labels[req.key] : undefined;
  switch (req.operator) {
    case 'exists':
      return has;
    case '!':
      return !has;
    case '=':
    case '==':
    case 'in':
      return has && req.values.includes(value as string);
    case '!=':
    case 'notin':
      return !has || !req.values.includes(value as string);
    case 'gt':
    case 'lt': {
      if (!has || !/^[-+]?[0-9]+$/.test(value as string)) return false;
      const actual = BigInt(value as string);
      if (actual > INT64_MAX || actual < -INT64_MAX - 1n) return false;
      const bound = BigInt(req.values[0] ?? '0');
      return req.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

/** True when every requirement holds for `labels` (an empty list matches everything). */
export function matchesLabels(reqs: readonly LabelRequirement[], labels: Record<string, string>): boolean {
  return reqs.every((req) => matchesOne(req, labels));
}
