// A metadata-only page without its objects' managedFields, cut from the text before it is parsed:
// they are most of a pod's metadata, and parsing them only to drop them was most of the garbage
// (and of the peak memory) of reading 100,000 pods.

const KEY = '"managedFields":[';

/**
 * `body` (a JSON list of object metadata, as the apiserver writes it: no whitespace) without
 * any `"managedFields":[…]` member. In metadata, the only member of that name holding an array
 * is the real one (label and annotation values are strings). Text it does not recognise is
 * left as it is, and the caller drops what is left after parsing.
 */
export function withoutManagedFields(body: string): string {
  let at = body.indexOf(KEY);
  if (at < 0) return body;
  const kept: string[] = [];
  let from = 0;
  while (at >= 0) {
    const end = arrayEnd(body, at + KEY.length - 1);
    if (end < 0) break;
    // The member and one comma beside it: the one before, else the one after.
    let start = at;
    let next = end;
    if (body.charCodeAt(start - 1) === COMMA) start--;
    else if (body.charCodeAt(next) === COMMA) next++;
    kept.push(body.slice(from, start));
    from = next;
    at = body.indexOf(KEY, from);
  }
  kept.push(body.slice(from));
  return kept.join('');
}

const COMMA = 44;
const QUOTE = 34;
const BACKSLASH = 92;

/** The index after the array or object opening at `open`, following strings; -1 if unclosed. */
function arrayEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the string's closing quote, over its escapes.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === 91 || c === 123) depth++;
    else if ((c === 93 || c === 125) && --depth === 0) return i + 1;
  }
  return -1;
}
