// Journals for the report's tests: the real ones in fixtures/, and one whose every text is
// hostile (markup, Markdown, a script), as a journal's user text can be.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const fixturePath = (name: string): string =>
  fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

export const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(fixturePath(name), 'utf8'));

/** Text that would run a script, open a link or break a table if it were not escaped. */
export const HOSTILE = {
  title: '</title><script>document.title="pwned"</script> | *bold* [link](https://example.invalid)',
  action: '<img src=x onerror="document.title=\'pwned\'">',
  log: '<script>document.title="pwned"</script>`code` | cell',
  output: '<iframe src="https://example.invalid"></iframe> & &amp;',
};

/** The deviated Chaos Toolkit journal, its texts replaced by HOSTILE's. */
export function hostileJournal(): Record<string, unknown> {
  const journal = fixture('chaostoolkit-deviated.json') as {
    experiment: { title: string };
    run: Array<{ activity: { name: string }; logs?: string[]; output: unknown }>;
  };
  journal.experiment.title = HOSTILE.title;
  const action = journal.run[0]!;
  action.activity.name = HOSTILE.action;
  action.logs = [HOSTILE.log];
  action.output = { stdout: HOSTILE.output };
  return journal as unknown as Record<string, unknown>;
}
