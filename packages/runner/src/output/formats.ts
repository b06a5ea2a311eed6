// The formats structured output is printed in (`-o json|yaml`, D163), and columns for people.
import { dump } from 'js-yaml';

export type Format = 'json' | 'yaml';
export const FORMATS: readonly Format[] = ['json', 'yaml'];

/**
 * JSON text with its C1 control characters escaped too: the same JSON, which no terminal obeys
 * (JSON escapes only C0 ones; what comes from the cluster may hold any, D160).
 */
export const terminalJson = (text: string): string =>
  text.replace(/[\u0080-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** `value` as the format prints it (keys whose value is undefined left out, as JSON leaves them). */
export const formatted = (value: unknown, format: Format): string =>
  format === 'json'
    ? `${terminalJson(JSON.stringify(value, null, 2))}\n`
    : // YAML writes every control character as an escape.
      dump(value, { lineWidth: -1, noRefs: true, skipInvalid: true });

/**
 * Kubernetes objects as kubectl prints several: multi-document YAML led by `notes` as comments,
 * or a v1 List in JSON (which has no comments: the notes go to stderr).
 */
export function printObjects(
  objects: readonly object[],
  format: Format,
  notes: readonly string[] = [],
): void {
  if (format === 'json') {
    for (const note of notes) process.stderr.write(`${note}\n`);
    process.stdout.write(formatted({ apiVersion: 'v1', kind: 'List', items: objects }, 'json'));
    return;
  }
  const comments = notes.flatMap((note) => note.split('\n').map((line) => `# ${line}\n`));
  process.stdout.write(comments.join('') + objects.map((o) => formatted(o, 'yaml')).join('---\n'));
}

/** Rows (a header first) in columns as wide as their widest cell, for people. */
export function columns(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map(
      (r) =>
        `${r
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()}\n`,
    )
    .join('');
}
