import { redact } from '../errors/redact.js';

const MAX_RENDERED = 80;

/**
 * A value as shown in an error ("the string 'abc'", "the number 5"). Registered secrets are
 * masked before the text is shortened, so a cut can never leave a part of a secret visible.
 */
export function renderValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return `the string '${clip(redact(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n'))}'`;
    case 'number':
      return `the number ${value}`;
    case 'bigint':
      return `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return `${Array.isArray(value) ? 'the list' : 'the mapping'} ${clip(redact(safeJson(value)))}`;
    default:
      return `a ${typeof value}`;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function clip(text: string): string {
  return text.length <= MAX_RENDERED ? text : `${text.slice(0, MAX_RENDERED - 1)}…`;
}
