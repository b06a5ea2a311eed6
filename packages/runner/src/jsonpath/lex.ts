// jsonpath2's tokens, as its ANTLR lexer cuts them: the longest match wins, and a keyword
// (`and`, `true`…) beats a name of the same length, so `$.true` is refused as jsonpath2
// refuses it. Anything no token matches is an error, with the fix when there is an obvious one.

export type TokenKind =
  | '$'
  | '@'
  | '..'
  | '.'
  | '*'
  | '['
  | ']'
  | '('
  | ')'
  | '{'
  | '}'
  | ':'
  | ','
  | '?'
  | '='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'and'
  | 'or'
  | 'not'
  | 'true'
  | 'false'
  | 'null'
  | 'name'
  | 'string'
  | 'number'
  | 'end';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Where it starts in the path (UTF-16 index). */
  at: number;
}

/** Why a path is not jsonpath2's: what is wrong, where, and the path with it fixed if known. */
export class JsonPathSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
    readonly fixed?: string,
  ) {
    super(message);
    this.name = 'JsonPathSyntaxError';
  }
}

export const KEYWORDS = new Set<TokenKind>(['and', 'or', 'not', 'true', 'false', 'null']);
const PUNCTUATION = [
  '..',
  '!=',
  '<=',
  '>=',
  '$',
  '@',
  '.',
  '*',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  ':',
  ',',
  '?',
  '=',
  '<',
  '>',
];
const WHITESPACE = /[ \t\n\r]/;
const NAME = /[_A-Za-z][_A-Za-z0-9]*/y;
// NUMBER: '-'? ('0' | [1-9][0-9]*) ('.' [0-9]+)? ([Ee] [+-]? ('0' | [1-9][0-9]*))? — each
// optional part only when complete, as the lexer falls back to the longest token it matched.
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[Ee][+-]?(?:0|[1-9][0-9]*))?/y;
// A string: JSON's escapes only, no raw control character.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters a string may not hold
const STRING = /"(?:\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4})|[^"\\\u0000-\u001f])*"/y;
/** What may follow `.` in a name a user meant, up to the next token of the path. */
const WORD = /[^\s.[\]()=<>!,:?"'$@*{}&|]+/y;
/** A character that reads as part of a name (`kwok-node`, `名前`, `a/b`), not as an operator. */
const NAME_LIKE = /[-/\p{L}\p{M}\p{N}\p{Extended_Pictographic}]/u;

const sticky = (pattern: RegExp, text: string, at: number): string | undefined => {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
};

export function tokenize(path: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < path.length) {
    const c = path[at] as string;
    if (WHITESPACE.test(c)) {
      at++;
      continue;
    }
    const text =
      sticky(NAME, path, at) ??
      sticky(NUMBER, path, at) ??
      sticky(STRING, path, at) ??
      PUNCTUATION.find((p) => path.startsWith(p, at));
    if (text === undefined) throw unknownCharacter(path, at, tokens);
    tokens.push({ kind: kindOf(text), text, at });
    at += text.length;
  }
  tokens.push({ kind: 'end', text: '', at: path.length });
  return tokens;
}

function kindOf(text: string): TokenKind {
  if (/^[_A-Za-z]/.test(text)) return KEYWORDS.has(text as TokenKind) ? (text as TokenKind) : 'name';
  if (/^-?[0-9]/.test(text)) return 'number';
  return text.startsWith('"') ? 'string' : (text as TokenKind);
}

export const replace = (path: string, at: number, length: number, by: string) =>
  path.slice(0, at) + by + path.slice(at + length);

function unknownCharacter(path: string, at: number, tokens: Token[]): JsonPathSyntaxError {
  const c = String.fromCodePoint(path.codePointAt(at) ?? 0);
  const error = (problem: string, fixed?: string) =>
    new JsonPathSyntaxError(`${problem} (at character ${at + 1})`, at, fixed);
  // A name after `.` goes on with a character names cannot hold (`kwok-node`, `名前`).
  const name = nameStart(tokens, at);
  if (name && NAME_LIKE.test(c)) {
    const { problem, fixed } = bracketName(path, name);
    return error(problem, fixed);
  }
  if (c === "'") {
    const close = path.indexOf("'", at + 1);
    return error(
      'jsonpath2 strings are in double quotes',
      close < 0 ? undefined : replace(path, at, close - at + 1, JSON.stringify(path.slice(at + 1, close))),
    );
  }
  if (c === '"') {
    const bad = /\\(?!["\\/bfnrt]|u[0-9A-Fa-f]{4})/.exec(path.slice(at));
    return error(
      bad
        ? `'${path.slice(at + bad.index, at + bad.index + 2)}' is not an escape jsonpath2 takes (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`
        : 'a string is not closed (or holds a control character)',
    );
  }
  for (const [written, word] of [
    ['&&', 'and'],
    ['||', 'or'],
    ['!', 'not'],
  ] as const) {
    if (!path.startsWith(written, at)) continue;
    // A word needs spaces around it where the operator had none (but not inside parentheses).
    const before = path[at - 1] ?? ' ';
    const after = path[at + written.length] ?? ' ';
    const by = `${WHITESPACE.test(before) || before === '(' ? '' : ' '}${word}${WHITESPACE.test(after) || after === ')' ? '' : ' '}`;
    return error(`jsonpath2 writes '${word}', not '${written}'`, replace(path, at, written.length, by));
  }
  return error(`jsonpath2 has no '${c}' here`);
}

/**
 * The `.` or `..` and where the name starts that the token at `at` would continue — right
 * after the dot, or a name just after it with nothing between — else undefined.
 */
export function nameStart(tokens: readonly Token[], at: number): { dot: Token; start: number } | undefined {
  const last = tokens.at(-1);
  if (last?.kind === '.' || last?.kind === '..') return { dot: last, start: at };
  const before = tokens.at(-2);
  return last?.kind === 'name' &&
    last.at + last.text.length === at &&
    (before?.kind === '.' || before?.kind === '..')
    ? { dot: before, start: last.at }
    : undefined;
}

/** The name a user meant after a dot, and the path with it in brackets instead. */
export function bracketName(path: string, { dot, start }: { dot: Token; start: number }) {
  const word = sticky(WORD, path, start) ?? (path[start] as string);
  // `.kwok-node` becomes `["kwok-node"]`, `..kwok-node` becomes `..["kwok-node"]`.
  const from = dot.kind === '.' ? dot.at : start;
  return {
    problem:
      `a name after '.' is letters, digits and _ only: '${word}' is written in brackets, ["${word}"]` +
      (word.includes('/')
        ? ' (a key that holds dots, such as kubernetes.io/hostname, goes in the brackets whole)'
        : ''),
    fixed: replace(path, from, start + word.length - from, `["${word}"]`),
  };
}
