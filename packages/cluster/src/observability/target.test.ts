import { describe, expect, it } from 'vitest';
import { serveMetrics } from './target.js';

describe('serveMetrics', () => {
  it('serves what was set in the text format, label values escaped', async () => {
    await using target = await serveMetrics();
    target.set('chaoskit_health', 1, { service: 'shop "eu"' });
    target.set('chaoskit_health', Number.POSITIVE_INFINITY, { service: 'a\\b' });
    target.set('chaoskit_health', 0, { service: 'shop "eu"' });
    const text = await (await fetch(`http://${target.address}/metrics`)).text();
    expect(text).toBe(
      '# TYPE chaoskit_health gauge\nchaoskit_health{service="shop \\"eu\\""} 0\nchaoskit_health{service="a\\\\b"} +Inf\n',
    );
  });

  it('refuses a name Prometheus would not parse', async () => {
    await using target = await serveMetrics();
    expect(() => target.set('chaoskit-health', 1)).toThrow(
      /'chaoskit-health' is not a Prometheus metric name/,
    );
    expect(() => target.set('ok', 1, { 'a-b': 'x' })).toThrow(/'a-b' is not a Prometheus label name/);
  });
});
