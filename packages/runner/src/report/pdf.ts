// `chaoskit report --export-format pdf` (D162): the HTML report printed to PDF by a Chromium
// (or Chrome) of the machine, headless — as Chaos Toolkit's needs pandoc and a LaTeX engine of
// the machine. The page loads nothing (its Content-Security-Policy forbids it) and runs no script.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/** The browser that prints: CHROMIUM_PATH, else the first of BROWSERS on the PATH. */
export function findBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => BROWSERS.map((name) => join(dir, name)));
  return [env.CHROMIUM_PATH, ...onPath].find((path) => {
    if (!path) return false;
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Prints `html` to the PDF file `path`. */
export async function printPdf(html: string, path: string): Promise<void> {
  const browser = findBrowser();
  if (!browser)
    throw new Error(
      'a PDF report is printed by Chromium, and none was found (apt-get install chromium, or set CHROMIUM_PATH); --export-format html writes the page to print',
    );
  const dir = await mkdtemp(join(tmpdir(), 'chaoskit-report-'));
  try {
    const page = join(dir, 'report.html');
    await writeFile(page, html);
    const target = resolve(path);
    // What is there is replaced, as any report is: gone first, so that a print that fails is seen.
    await rm(target, { force: true });
    await new Promise<void>((done, failed) => {
      execFile(
        browser,
        [
          '--headless',
          // Chromium refuses to run as root with its sandbox; the page runs no script and loads nothing.
          ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
          '--disable-gpu',
          `--user-data-dir=${join(dir, 'profile')}`,
          '--no-pdf-header-footer',
          `--print-to-pdf=${target}`,
          pathToFileURL(page).href,
        ],
        { timeout: 60_000 },
        (err, _stdout, stderr) =>
          err
            ? failed(new Error(`${browser} could not print the report: ${stderr.trim() || err.message}`))
            : done(),
      );
    });
    await stat(target).catch(() => {
      throw new Error(`${browser} wrote no PDF at ${path}`);
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
