// `${name}` substitution in activity arguments, pauses, tolerances…, as Chaos Toolkit
// (chaostoolkit-lib 1.45.0) does it, except D66 (docs/decisions.md).
// The engine follows Python's `string.Template.safe_substitute`, with Chaos Toolkit's typed twist.

type Secrets = Record<string, Record<string, unknown>> | null | undefined;
type Configuration = Record<string, unknown> | null | undefined;

const NAME = '[_a-zA-Z][_a-zA-Z0-9]*';
// `$$` (escape), `$name`, `${name}`; anything else after `$` is left as it is.
const PLACEHOLDER = new RegExp(`\\$(?:(\\$)|(${NAME})|\\{(${NAME})\\})`, 'g');
const WHOLE = new RegExp(`^\\$\\{(${NAME})\\}$`);

interface Found {
  value: unknown;
}

/**
 * The value of `name`: configuration first, then each secret group's mapping in declaration
 * order (every group, not only those an activity lists). Case-sensitive.
 */
function lookup(name: string, configuration: Configuration, secrets: Secrets): Found | undefined {
  if (configuration && Object.hasOwn(configuration, name) && configuration[name] !== undefined) {
    return { value: configuration[name] };
  }
  for (const group of Object.values(secrets ?? {})) {
    if (group && typeof group === 'object' && Object.hasOwn(group, name) && group[name] !== undefined) {
      return { value: group[name] };
    }
  }
  return undefined;
}

/**
 * How a value is written inside a longer string. D66 (docs/decisions.md): unlike Chaos Toolkit,
 * which uses Python's `str()` (`True`, `None`, `{'a': 1}`): chaoskit writes what a JSON user
 * expects — strings as they are, numbers and booleans as `String()` does (`true`), `null`, and
 * lists and mappings as JSON (`{"a":1}`).
 */
export function renderForSubstitution(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

/**
 * Replaces `${name}` and `$name` in every string of `value` (recursing into lists and into
 * mapping values; keys are left alone) with configuration or secret values.
 *
 * - a string that is exactly `${name}` becomes the value itself, with its type (`"${n}"` → 8);
 * - otherwise the value is written into the string (see `renderForSubstitution`);
 * - `$$` is a literal `$`; unknown names, and `$` before anything that is not a name, stay as
 *   they are.
 *
 * The input is never mutated; non-string scalars and non-plain objects are returned as they are.
 */
export function substitute(value: unknown, configuration?: Configuration, secrets?: Secrets): unknown {
  if (typeof value === 'string') return substituteString(value, configuration, secrets);
  if (Array.isArray(value)) return value.map((item) => substitute(item, configuration, secrets));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = substitute(inner, configuration, secrets);
    return out;
  }
  return value;
}

function substituteString(text: string, configuration: Configuration, secrets: Secrets): unknown {
  if (!text.includes('$')) return text;
  const whole = WHOLE.exec(text);
  if (whole?.[1] !== undefined) {
    const found = lookup(whole[1], configuration, secrets);
    if (found) return found.value;
  }
  return text.replace(PLACEHOLDER, (match, escaped?: string, bare?: string, braced?: string) => {
    if (escaped !== undefined) return '$';
    const found = lookup((bare ?? braced) as string, configuration, secrets);
    return found ? renderForSubstitution(found.value) : match;
  });
}

/**
 * The names of the `${name}` references (braced form only: a bare `$word` is too often meant
 * literally) in `value` that neither the configuration nor any secret group defines, each
 * once, in order of appearance. The runner refuses an experiment when this is not empty.
 */
export function findUndefinedReferences(
  value: unknown,
  configuration?: Configuration,
  secrets?: Secrets,
): string[] {
  const missing = new Set<string>();
  const visit = (node: unknown): void => {
    if (typeof node === 'string') {
      for (const match of node.matchAll(PLACEHOLDER)) {
        const braced = match[3];
        if (braced !== undefined && !lookup(braced, configuration, secrets)) missing.add(braced);
      }
    } else if (Array.isArray(node)) {
      for (const item of node) visit(item);
    } else if (isPlainObject(node)) {
      for (const inner of Object.values(node)) visit(inner);
    }
  };
  visit(value);
  return [...missing];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
