import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/test-cli.js';
import { TIMELINE_SERIES } from './charts.js';
import { findBrowser } from './pdf.js';
import { fixturePath, HOSTILE, hostileJournal } from './test-journals.js';

// In the fixtures' directory: the page names the journals as given.
const chaoskit = (...args: string[]) => runCli(args, { cwd: dirname(fixturePath('README.md')) });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaoskit-report-cli-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// Each test starts the CLI (and a browser): seconds on a busy 2-core machine.
describe('chaoskit report', { timeout: 60_000 }, () => {
  it('writes the HTML page and the Markdown file, and says where', async () => {
    const result = await chaoskit(
      'report',
      fixturePath('chaostoolkit-completed.json'),
      fixturePath('chaoskit-drain-a-node.json'),
      '--output',
      join(dir, 'two.html'),
      '--markdown',
      join(dir, 'two.md'),
    );
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(
      `report of 2 journal(s) written to ${join(dir, 'two.html')} and ${join(dir, 'two.md')}\n`,
    );
    expect(await readFile(join(dir, 'two.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(await readFile(join(dir, 'two.md'), 'utf8')).toMatch(/^# Chaos report: 2 runs\n/);
  });

  it('refuses a file that is not a journal, naming it and what it lacks', async () => {
    const experiment = fixturePath('chaostoolkit-experiment.json');
    const result = await chaoskit('report', experiment, '--output', join(dir, 'none.html'));
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `chaoskit: ${experiment}: not a journal of Chaos Toolkit or chaoskit: it has no 'run' list (the activities of the method)\n`,
    );
    const missing = await chaoskit('report', join(dir, 'missing.json'));
    expect(missing).toMatchObject({
      code: 1,
      stderr: `chaoskit: ${join(dir, 'missing.json')}: no such file\n`,
    });
    expect((await chaoskit('report')).code).toBe(2);
  });
});

const chromiumPath = findBrowser();

describe.skipIf(!chromiumPath)(
  `the HTML report in Chromium${chromiumPath ? '' : ' (skipped: no Chromium found: apt-get install chromium, or set CHROMIUM_PATH)'}`,
  { timeout: 60_000 },
  () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: chromiumPath! });
    }, 60_000);
    afterAll(() => browser?.close());

    /** Opens the page; returns it with every URL the browser requested. */
    async function open(file: string): Promise<{ page: Page; requested: string[] }> {
      const page = await browser.newPage({ viewport: { width: 1100, height: 1500 } });
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      await page.goto(pathToFileURL(file).href);
      return { page, requested };
    }

    /** The bars ECharts drew for one series of a chart (its SSR output marks each with its series). */
    const bars = (page: Page, chart: string, series: number) =>
      page.locator(`${chart} svg path[ecmeta_ssr_type="chart"][ecmeta_series_index="${series}"]`);
    const widths = (page: Page, chart: string, series: number) =>
      bars(page, chart, series).evaluateAll((els) =>
        els.map((e) => (e as unknown as { getBBox(): { width: number } }).getBBox().width),
      );
    /** The text of SVG elements (an SVG element has no rendered text of its own). */
    const texts = (page: Page, selector: string) =>
      page.locator(selector).evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    /** What the page shows of each element: its rendered text (not the inside of a closed <details>). */
    const shown = (page: Page, selector: string) =>
      page.locator(selector).evaluateAll((els) =>
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what this test checks
        els.map((e) => (e as unknown as { innerText: string }).innerText),
      );
    const first = async (page: Page, selector: string) => (await shown(page, selector))[0];
    /** The rendered text of each cell of each row. */
    const cells = async (page: Page, rows: string) => {
      const count = await page.locator(rows).count();
      return Promise.all(
        Array.from({ length: count }, (_, i) => shown(page, `${rows}:nth-child(${i + 1}) > td`)),
      );
    };

    it('two Chaos Toolkit journals: the comparison, each run, its timeline chart, statuses and probes', async () => {
      const html = join(dir, 'report.html');
      const result = await chaoskit(
        'report',
        'chaostoolkit-completed.json',
        'chaostoolkit-deviated.json',
        '--output',
        html,
      );
      expect(result.code).toBe(0);
      const { page, requested } = await open(html);
      // Nothing but the file itself: no script, style sheet, font or image from elsewhere.
      expect(requested).toEqual([pathToFileURL(html).href]);
      expect(await first(page, 'h1')).toBe('Chaos report: 2 runs');

      // The comparison table: one row per journal.
      const runs = await cells(page, '#comparison-runs tbody tr');
      expect(runs.map((r) => [r[0], r[2], r[3], r[5], r[6]])).toEqual([
        ['chaostoolkit-completed.json', 'completed', 'met → met', '7', '0'],
        ['chaostoolkit-deviated.json', 'completed deviated', 'met → not met', '8', '1'],
      ]);
      const activities = await cells(page, '#comparison-activities tbody tr');
      expect(activities.map((r) => r.join(' | '))).toContain(
        'method | wait-for-the-cache-to-refill | – | 505 ms failed',
      );
      expect(activities).toHaveLength(10); // the whole run, then 9 activities

      // The comparison chart: a bar per run for the whole run and each activity it ran.
      const comparison = 'figure[data-chart="comparison"]';
      expect(await bars(page, comparison, 0).count()).toBe(1 + 7);
      expect(await bars(page, comparison, 1).count()).toBe(1 + 8);
      for (const series of [0, 1])
        expect(Math.min(...(await widths(page, comparison, series)))).toBeGreaterThan(0);
      const legend = await texts(page, `${comparison} svg text`);
      expect(legend).toEqual(
        expect.arrayContaining(['chaostoolkit-completed.json', 'chaostoolkit-deviated.json']),
      );

      // Each run's timeline: one bar per activity, in the series of its status.
      const succeeded = TIMELINE_SERIES.indexOf('succeeded');
      const failed = TIMELINE_SERIES.indexOf('failed');
      const timeline = (run: number) => `#run-${run} figure[data-chart="timeline"]`;
      expect(await bars(page, timeline(1), succeeded).count()).toBe(7);
      expect(await bars(page, timeline(1), failed).count()).toBe(0);
      expect(await bars(page, timeline(2), succeeded).count()).toBe(7);
      expect(await bars(page, timeline(2), failed).count()).toBe(1);
      expect(await bars(page, timeline(2), failed).getAttribute('fill')).toBe('#c62828');
      // 505 ms against a few milliseconds: the long bar is long, the short ones still visible.
      const [failedWidth] = await widths(page, timeline(2), failed);
      const shortest = Math.min(...(await widths(page, timeline(2), succeeded)));
      expect(shortest).toBeGreaterThan(0);
      expect(failedWidth!).toBeGreaterThan(20 * shortest);
      expect(await texts(page, `${timeline(2)} svg text`)).toEqual(
        expect.arrayContaining(['succeeded', 'failed', 'method · wait-for-the-cache-to-refill', '505 ms']),
      );

      // Statuses as text.
      expect(await first(page, '#run-2 dl.summary dd')).toBe('completed deviated');
      const steps = await cells(page, '#run-2 table.timeline tbody tr');
      expect(steps[4]).toEqual([
        '5',
        'method',
        'wait-for-the-cache-to-refill',
        'action',
        'process sleep',
        '+1.034 s',
        '505 ms',
        'failed',
        'chaoslib.exceptions.ActivityFailed: process activity took too long to complete',
      ]);
      // The probes' values and tolerances; the journal's markup is text.
      const probes = await cells(page, '#run-2 table.probes tbody tr');
      expect(probes.at(-1)).toEqual([
        'hypothesis after',
        'status-file-says-ok',
        'stdout: "<b>degraded</b> & \\"quoted\\"\\n"',
        '{"type":"regex","pattern":"^ok","target":"stdout"}',
        'not met',
      ]);
      expect(await page.locator('#run-2 table.probes b').count()).toBe(0);
      // What the actions touched: the process's output.
      expect(await first(page, '#run-1 article.touched')).toContain("removed '/tmp/ctk/work/cache/a'");

      // The pictures in the package README: CHAOSKIT_REPORT_SCREENSHOTS=<directory> keeps them.
      const shots = process.env.CHAOSKIT_REPORT_SCREENSHOTS ?? dir;
      await page.screenshot({ path: join(shots, 'report-comparison.png') });
      const run = (await page.locator('#run-2').boundingBox())!;
      await page.screenshot({
        path: join(shots, 'report-run.png'),
        fullPage: true,
        clip: { x: 0, y: run.y, width: 1100, height: Math.min(run.height, 1500) },
      });
    });

    it("a journal's hostile text stays text: no script runs, no element of its own, nothing loaded", async () => {
      const journal = join(dir, 'hostile.json');
      await writeFile(journal, JSON.stringify(hostileJournal()));
      const html = join(dir, 'hostile.html');
      expect((await chaoskit('report', journal, '--output', html)).code).toBe(0);
      const { page, requested } = await open(html);
      expect(requested).toEqual([pathToFileURL(html).href]);
      expect(await page.title()).toBe(`Chaos report: ${HOSTILE.title}`);
      expect(await page.locator('script, img, iframe').count()).toBe(0);
      expect(await first(page, 'h2')).toBe(HOSTILE.title);
      const steps = await cells(page, '#run-1 table.timeline tbody tr');
      expect(steps.map((s) => s[2])).toContain(HOSTILE.action);
      expect(await first(page, '#run-1 ul.logs li')).toBe(HOSTILE.log);
      expect(await first(page, '#run-1 article.touched')).toContain(
        JSON.stringify({ stdout: HOSTILE.output }),
      );
      // ECharts wrote the name into the chart as text too (cut to the axis' width).
      const labels = await texts(page, '#run-1 figure[data-chart="timeline"] svg text');
      expect(labels.some((l) => l.startsWith('method · <img src=x'))).toBe(true);
    });
  },
);
