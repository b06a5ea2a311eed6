// Spans as a trace backend gives them back in OTLP's JSON form (resourceSpans → scopeSpans →
// spans), made plain: hex ids, milliseconds, attributes as JS values, and a tree by parent.

export type AttributeValue =
  | string
  | number
  | boolean
  | null
  | AttributeValue[]
  | { [key: string]: AttributeValue };

export type SpanKind = 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';

export interface SpanEvent {
  name: string;
  timeMs: number;
  attributes: Record<string, AttributeValue>;
}

export interface TraceSpan {
  traceId: string;
  spanId: string;
  /** Absent on a root span. */
  parentSpanId?: string;
  name: string;
  kind: SpanKind;
  /** The resource's service.name. */
  service: string;
  /** The instrumentation scope (the tracer's name). */
  scope: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  events: SpanEvent[];
  status: { code: 'unset' | 'ok' | 'error'; message?: string };
}

export interface SpanNode extends TraceSpan {
  children: SpanNode[];
}

interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number | string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  events?: Array<{ name: string; timeUnixNano: string | number; attributes?: OtlpKeyValue[] }>;
  status?: { code?: number | string; message?: string };
}
export interface OtlpTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: Array<{ scope?: { name?: string }; spans?: OtlpSpan[] }>;
  }>;
}

const KINDS: SpanKind[] = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
const STATUSES = ['unset', 'ok', 'error'] as const;

/** An OTLP enum, written as its number or as its name (`SPAN_KIND_SERVER`, `STATUS_CODE_ERROR`). */
function enumValue<T extends string>(
  names: readonly T[],
  raw: number | string | undefined,
  prefix: string,
): T {
  if (typeof raw === 'number') return names[raw] ?? names[0]!;
  const name = (raw ?? '').replace(prefix, '').toLowerCase();
  return names.find((n) => n === name) ?? names[0]!;
}

function anyValue(v: OtlpAnyValue | undefined): AttributeValue {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.bytesValue !== undefined) return v.bytesValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(anyValue);
  if (v.kvlistValue) return attributes(v.kvlistValue.values);
  return null;
}

function attributes(kvs: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((kvs ?? []).map((kv) => [kv.key, anyValue(kv.value)]));
}

const ms = (nanos: string | number) => Number(BigInt(nanos) / 1000n) / 1000;

/** The spans of an OTLP JSON document, in the order they appear. */
export function otlpSpans(doc: OtlpTraces): TraceSpan[] {
  return (doc.resourceSpans ?? []).flatMap((rs) => {
    const service = String(attributes(rs.resource?.attributes)['service.name'] ?? '');
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map(
        (s): TraceSpan => ({
          traceId: s.traceId,
          spanId: s.spanId,
          ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
          name: s.name,
          kind: enumValue(KINDS, s.kind, 'SPAN_KIND_'),
          service,
          scope: ss.scope?.name ?? '',
          startMs: ms(s.startTimeUnixNano),
          endMs: ms(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          events: (s.events ?? []).map((e) => ({
            name: e.name,
            timeMs: ms(e.timeUnixNano),
            attributes: attributes(e.attributes),
          })),
          status: {
            code: enumValue(STATUSES, s.status?.code, 'STATUS_CODE_'),
            ...(s.status?.message ? { message: s.status.message } : {}),
          },
        }),
      ),
    );
  });
}

/**
 * The spans as trees: the roots are the spans whose parent is not among them; children are
 * in start order.
 */
export function spanTree(spans: TraceSpan[]): SpanNode[] {
  const nodes = new Map(spans.map((s) => [s.spanId, { ...s, children: [] as SpanNode[] }]));
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentSpanId ? nodes.get(node.parentSpanId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const byStart = (a: SpanNode, b: SpanNode) => a.startMs - b.startMs;
  for (const node of nodes.values()) node.children.sort(byStart);
  return roots.sort(byStart);
}

/** A tree as nested names (a leaf: its name; else `{ name: children }`), for a test to compare whole. */
export function treeShape(nodes: SpanNode[]): unknown[] {
  return nodes.map((n) => (n.children.length ? { [n.name]: treeShape(n.children) } : n.name));
}
