import { describe, expect, it } from 'vitest';
import * as charts from './charts.js';
import { esc, renderHtml } from './html.js';
import { reportModel } from './model.js';
import { fixture, HOSTILE, hostileJournal } from './test-journals.js';

const page = (...journals: Array<[string, unknown]>) =>
  renderHtml(
    reportModel(journals.map(([source, journal]) => ({ source, journal }))),
    'chaoskit test',
    charts,
  );

describe('the HTML report', () => {
  it('shows every text of a journal as text: no tag, script or attribute of its own', () => {
    const html = page(['hostile.json', hostileJournal()]);
    for (const text of Object.values(HOSTILE)) expect(html).not.toContain(text);
    for (const text of [HOSTILE.title, HOSTILE.action, HOSTILE.log]) expect(html).toContain(esc(text));
    // Outputs are shown as JSON.
    expect(html).toContain(esc(JSON.stringify(HOSTILE.output)));
    expect(html).not.toMatch(/<script|<img|<iframe/i);
  });

  it('needs nothing but itself: no script, nothing loaded, a policy that forbids loading', () => {
    const html = page(
      ['completed.json', fixture('chaostoolkit-completed.json')],
      ['drain.json', fixture('chaoskit-drain-a-node.json')],
    );
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toMatch(/<script|<link|\ssrc=|@import|url\(/i);
    // The only URLs are SVG's XML namespaces, which are names, not requests.
    const urls = [...html.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]);
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink']));
  });

  it('one timeline chart per run and a comparison chart for several', () => {
    const one = page(['completed.json', fixture('chaostoolkit-completed.json')]);
    expect(one.match(/<figure data-chart="timeline"><svg /g)).toHaveLength(1);
    expect(one).not.toContain('data-chart="comparison"');
    const two = page(
      ['completed.json', fixture('chaostoolkit-completed.json')],
      ['deviated.json', fixture('chaostoolkit-deviated.json')],
    );
    expect(two.match(/<figure data-chart="timeline"><svg /g)).toHaveLength(2);
    expect(two.match(/<figure data-chart="comparison"><svg /g)).toHaveLength(1);
  });

  it('bounds what one output shows', () => {
    const journal = fixture('chaostoolkit-completed.json') as { run: Array<{ output: unknown }> };
    journal.run[0]!.output = 'x'.repeat(50_000);
    const html = page(['big.json', journal]);
    expect(html).toContain('… 30000 more characters not shown');
    expect(html).not.toContain('x'.repeat(20_001));
  });
});
