import { describe, expect, it } from 'vitest';
import { sampleValue } from './promql.js';
import { otlpSpans, spanTree, treeShape } from './spans.js';

// The trace and metric readers on what backends send that the cluster tests' traffic does not
// show: enums by name, missing parents, Prometheus's infinities.

const span = (spanId: string, parentSpanId: string | undefined, name: string, start: number) => ({
  traceId: 't',
  spanId,
  ...(parentSpanId ? { parentSpanId } : {}),
  name,
  kind: 'SPAN_KIND_SERVER',
  startTimeUnixNano: String(start * 1_000_000),
  endTimeUnixNano: String((start + 1) * 1_000_000),
  status: { code: 'STATUS_CODE_ERROR' },
  attributes: [
    { key: 'n', value: { intValue: '42' } },
    { key: 'kv', value: { kvlistValue: { values: [{ key: 'a', value: { doubleValue: 1.5 } }] } } },
  ],
});

describe('otlpSpans', () => {
  it('reads enums written as names and int64 attributes written as strings', () => {
    const [s] = otlpSpans({ resourceSpans: [{ scopeSpans: [{ spans: [span('a', undefined, 'x', 5)] }] }] });
    expect(s).toMatchObject({ kind: 'server', status: { code: 'error' }, startMs: 5, endMs: 6 });
    expect(s!.attributes).toEqual({ n: 42, kv: { a: 1.5 } });
  });
});

describe('spanTree', () => {
  it('roots a span whose parent is missing and orders children by start', () => {
    const spans = otlpSpans({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span('c2', 'r', 'second', 3),
                span('r', undefined, 'root', 1),
                span('c1', 'r', 'first', 2),
                span('o', 'gone', 'orphan', 0),
              ],
            },
          ],
        },
      ],
    });
    expect(treeShape(spanTree(spans))).toEqual(['orphan', { root: ['first', 'second'] }]);
  });
});

describe('sampleValue', () => {
  it("reads Prometheus's infinities and NaN", () => {
    expect([sampleValue('+Inf'), sampleValue('-Inf'), sampleValue('NaN'), sampleValue('0.5')]).toEqual([
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
      0.5,
    ]);
  });
});
