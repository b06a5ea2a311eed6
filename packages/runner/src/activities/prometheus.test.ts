import { describe, expect, it } from 'vitest';
import { instantValue, prometheusQueryActivity } from './prometheus.js';

const vector = (...values: string[]) => ({
  status: 'success',
  data: { resultType: 'vector', result: values.map((v, i) => ({ metric: { i: String(i) }, value: [1, v] })) },
});

describe('chaoskit.prometheus.query', () => {
  it('returns the one value of a scalar or a vector of one sample, null for an empty vector', () => {
    expect(instantValue({ data: { resultType: 'scalar', result: [1, '0.25'] } }, 'q')).toBe(0.25);
    expect(instantValue(vector('3'), 'q')).toBe(3);
    expect(instantValue(vector(), 'q')).toBeNull();
  });

  it('fails on several series or a range, saying how to fix the query', () => {
    expect(() => instantValue(vector('1', '2'), 'up')).toThrow(/query up returns 2 series.*aggregate them/);
    expect(() => instantValue({ data: { resultType: 'matrix', result: [] } }, 'up[1m]')).toThrow(
      /returns a matrix, not an instant vector or a scalar/,
    );
  });

  it('refuses a query that is empty and a URL that is not http(s), naming the argument', () => {
    expect(() => prometheusQueryActivity.validate({ query: '' })).toThrow(/query/);
    expect(() => prometheusQueryActivity.validate({ query: 'up', url: 'file:///etc/passwd' })).toThrow(/url/);
    expect(prometheusQueryActivity.validate({ query: 'up' })).toMatchObject({ url: null, timeout: 10 });
  });
});
