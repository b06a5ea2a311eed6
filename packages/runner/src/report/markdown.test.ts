import { describe, expect, it } from 'vitest';
import { md, renderMarkdown } from './markdown.js';
import { reportModel } from './model.js';
import { fixture, HOSTILE, hostileJournal } from './test-journals.js';

const report = (...journals: Array<[string, unknown]>) =>
  renderMarkdown(reportModel(journals.map(([source, journal]) => ({ source, journal }))), 'chaoskit test');

describe('the Markdown report', () => {
  it('makes user text literal: no tag, link, emphasis, code or table cell of its own', () => {
    expect(md('<b>x</b> & [a](b) *c* _d_ `e` | f ~g~ \\')).toBe(
      '&lt;b&gt;x&lt;/b&gt; &amp; \\[a\\](b) \\*c\\* \\_d\\_ \\`e\\` \\| f \\~g\\~ \\\\',
    );
    expect(md('# not a heading')).toBe('\\# not a heading');
    expect(md('- not a list')).toBe('\\- not a list');
    expect(md('1. not a list')).toBe('1\\. not a list');
    expect(md('two\nlines')).toBe('two lines');
    const text = report(['hostile.json', hostileJournal()]);
    for (const hostile of Object.values(HOSTILE)) expect(text).not.toContain(hostile);
    expect(text).not.toMatch(/<script|<img|<iframe|(?<!\\)\]\(/);
    expect(text).toContain(md(HOSTILE.action));
    // Every table row keeps its number of cells: no `|` of a journal opens one.
    for (const table of text.split('\n\n').filter((b) => b.startsWith('|'))) {
      const widths = table.split('\n').map((row) => row.split(/(?<!\\)\|/).length);
      expect(new Set(widths).size, table).toBe(1);
    }
  });

  it('says the status, deviation, timeline, probes and what the actions touched', () => {
    const text = report(
      ['completed.json', fixture('chaostoolkit-completed.json')],
      ['deviated.json', fixture('chaostoolkit-deviated.json')],
      ['drain.json', fixture('chaoskit-drain-a-node.json')],
    );
    expect(text).toContain('# Chaos report: 3 runs');
    expect(text).toContain(
      '| deviated.json | A service file survives its cache being cleared | completed | **yes** | met | not met | 1.55 s | 1 |',
    );
    expect(text).toContain('| method | wait-for-the-cache-to-refill | – | 505 ms failed | – |');
    expect(text).toContain(
      // The JSON string's backslashes, escaped.
      String.raw`| hypothesis after | status-file-says-ok | stdout: "&lt;b&gt;degraded&lt;/b&gt; &amp; \\"quoted\\"\\n" |`,
    );
    expect(text).toContain(
      '- **drain-the-demo-node** (method, action, succeeded, 1.46 s): chaoscluster.node.actions.drain\\_nodes',
    );
    expect(text).toContain('  - cordoned node-a');
    expect(text).toContain(
      '  - error: chaoslib.exceptions.ActivityFailed: process activity took too long to complete',
    );
  });
});
