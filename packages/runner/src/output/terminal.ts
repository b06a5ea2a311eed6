// What chaoskit prints to a terminal of what it read from the cluster (annotations, titles,
// reasons, records): never a control sequence. Anyone who may write an object may put escape
// sequences in it, which a terminal would obey (move the cursor, rewrite the lines above, set
// the window title); they are shown escaped instead (`\x1b`), so that the text is still seen.

// C0 controls but tab and line feed, DEL, and C1 controls (one of which, U+009B, starts a
// sequence on its own).
// biome-ignore lint/suspicious/noControlCharactersInRegex: what is escaped
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Single values also lose their line breaks: a value must not make a line of its own.
// biome-ignore lint/suspicious/noControlCharactersInRegex: what is escaped
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const escaped = (c: string) => {
  const code = c.charCodeAt(0);
  return code > 0xff
    ? `\\u${code.toString(16).padStart(4, '0')}`
    : `\\x${code.toString(16).padStart(2, '0')}`;
};

/** Text made of lines chaoskit composed, holding what the cluster said: its control characters escaped. */
export const terminalText = (text: string): string => text.replace(CONTROL, escaped);

/** One value read from the cluster, on one line: control characters and line breaks escaped. */
export const terminalValue = (value: string): string => value.replace(CONTROL_OR_BREAK, escaped);
