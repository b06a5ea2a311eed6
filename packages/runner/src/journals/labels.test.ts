import { describe, expect, it } from 'vitest';
import type { Journal } from '../run/index.js';
import { journalMetadata, journalName, labelValue } from './labels.js';

const VALID = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

describe('the labels of a journal kept in the cluster', () => {
  it('keeps a value that is a label value as it is', () => {
    for (const value of ['kill-web', 'Kill_web.v2', 'a', '20250101-120000-abcdef'])
      expect(labelValue(value)).toBe(value);
  });

  it('makes any title a valid label value, two titles two values', () => {
    const titles = [
      'The web deployment survives losing a pod',
      'the web deployment survives losing a pod!',
      '  -- Été à 50 % --  ',
      '日本語のタイトル',
      `${'long '.repeat(40)}end`,
      '-leading and trailing-',
      '',
    ];
    const values = titles.map(labelValue);
    for (const value of values) {
      expect(value).toMatch(VALID);
      expect(value.length).toBeLessThanOrEqual(63);
    }
    expect(new Set(values).size).toBe(titles.length);
    expect(values[0]).toMatch(/^The-web-deployment-survives-losing-a-pod-[0-9a-f]{10}$/);
    // Nothing readable left: the hash alone.
    expect(values[3]).toMatch(/^[0-9a-f]{10}$/);
  });

  it('labels the run id, the experiment (the deployment, else the title) and the status; the rest is annotated', () => {
    const journal = {
      experiment: { title: 'web survives: 50% of pods' },
      start: '2025-01-01T00:00:00.000Z',
      status: null,
      deviated: false,
    } as unknown as Journal;
    const running = journalMetadata(journal, { runId: '20250101-000000-abcdef' }, false);
    expect(running.labels).toEqual({
      'app.kubernetes.io/managed-by': 'chaoskit',
      'chaoskit.io/journal': '20250101-000000-abcdef',
      'chaoskit.io/experiment': labelValue('web survives: 50% of pods'),
      'chaoskit.io/status': 'running',
    });
    expect(running.annotations).toEqual({
      'chaoskit.io/title': 'web survives: 50% of pods',
      'chaoskit.io/started': '2025-01-01T00:00:00.000Z',
      'chaoskit.io/deviated': 'false',
    });
    const ended = journalMetadata(
      { ...journal, status: 'interrupted', deviated: true, duration: 12.3456 },
      { runId: '20250101-000000-abcdef', experiment: 'kill-web' },
      true,
    );
    expect(ended.labels).toMatchObject({
      'chaoskit.io/experiment': 'kill-web',
      'chaoskit.io/status': 'interrupted',
    });
    expect(ended.annotations).toMatchObject({
      'chaoskit.io/deviated': 'true',
      'chaoskit.io/duration': '12.346',
      'chaoskit.io/truncated': 'true',
    });
    expect(journalName('20250101-000000-abcdef')).toBe('chaoskit-journal-20250101-000000-abcdef');
  });
});
