// Traces and metrics of what core does for a run (D130): a span for each API request, and the
// events of each change the write chain makes or a revert undoes, with the meters they count on.
// Only @opentelemetry/api: without an SDK registered (the runner registers one when the OTEL_*
// environment asks for it) every span is a no-op and every instrument counts nothing.

import { AsyncLocalStorage } from 'node:async_hooks';
import { type Meter, metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { redact } from '../errors/redact.js';

/** The instrumentation scope of what core traces and counts. */
const CORE_SCOPE = '@chaoskit/core';

// Asked of the provider at each use, not once at load: the runner's bundled command registers the
// SDK through the @opentelemetry/api of the package @chaoskit/telemetry, another copy of the API,
// whose registration a tracer taken before it never sees (it stays a no-op).
const tracer = () => trace.getTracer(CORE_SCOPE);

/**
 * Instruments made on first use from the meter provider registered then, and made again when
 * another is registered: an instrument of the API's no-op provider stays a no-op for good.
 */
export function instruments<T>(scope: string, make: (meter: Meter) => T): () => T {
  let provider: unknown;
  let made: T;
  return () => {
    const now = metrics.getMeterProvider();
    if (now !== provider) {
      provider = now;
      made = make(now.getMeter(scope));
    }
    return made;
  };
}

// Bucket edges in seconds, the unit recorded (the SDK's defaults, 0 to 10000, are for
// milliseconds): the semantic conventions' edges for HTTP client requests, then up to 5 minutes
// for a request whose retries and throttling waits are counted in it.
const REQUEST_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 300,
];

const meters = instruments(CORE_SCOPE, (meter) => ({
  requests: meter.createCounter('chaoskit.api.requests', {
    description: 'API requests to a cluster, by method and final status (code "error": no answer)',
  }),
  throttled: meter.createCounter('chaoskit.api.throttled', {
    description: 'API answers 429 Too Many Requests, each attempt counted (the retried ones too)',
  }),
  duration: meter.createHistogram('chaoskit.api.request.duration', {
    description: 'API request duration, retries included',
    unit: 's',
    advice: { explicitBucketBoundaries: REQUEST_BUCKETS },
  }),
  faults: meter.createCounter('chaoskit.faults', {
    description:
      'changes made to a cluster by the write chain (event="applied") and undone (event="reverted")',
  }),
  inPlace: meter.createUpDownCounter('chaoskit.faults.in_place', {
    description: 'changes made and not undone yet (by this process)',
  }),
}));

/**
 * The kind of object a request is about, from its path (`pods`, `pods/eviction`, `deployments`):
 * a span name of few values, as the semantic conventions want (the path itself is an attribute).
 */
export function resourceOfPath(path: string): string {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  // /api/v1/… or /apis/group/version/…; anything else (/version, /readyz) is named by its path.
  const rest = parts[0] === 'api' ? parts.slice(2) : parts[0] === 'apis' ? parts.slice(3) : undefined;
  if (!rest || rest.length === 0) return path;
  const inNamespace = rest[0] === 'namespaces' && rest.length > 2 ? rest.slice(2) : rest;
  const [resource, , subresource] = inNamespace;
  return subresource ? `${resource}/${subresource}` : resource!;
}

export interface RequestSpanEnd {
  status?: number;
  attempts?: number;
  throttled?: number;
  error?: unknown;
  durationMs: number;
}

/**
 * Starts the span of an API request (a child of the activity, phase or run under way) and
 * returns what ends it. The server's URL never goes in: only the API path (D90).
 */
export function requestSpan(method: string, path: string, dryRun: boolean): (ended: RequestSpanEnd) => void {
  const span = tracer().startSpan(`${method} ${resourceOfPath(path)}`, { kind: SpanKind.CLIENT });
  // Untraced, the span records nothing: nothing is masked for it either.
  if (span.isRecording())
    span.setAttributes({
      'http.request.method': method,
      'url.path': redact(path),
      ...(dryRun ? { 'chaoskit.dry_run': true } : {}),
    });
  return (ended) => {
    const m = meters();
    const code = ended.status !== undefined ? String(ended.status) : 'error';
    m.requests.add(1, { method, code });
    if (ended.throttled) m.throttled.add(ended.throttled, { method });
    m.duration.record(ended.durationMs / 1000, { method });
    if (span.isRecording()) {
      span.setAttributes({
        ...(ended.status !== undefined ? { 'http.response.status_code': ended.status } : {}),
        'http.request.resend_count': Math.max(0, (ended.attempts ?? 1) - 1),
      });
      if (ended.error !== undefined || (ended.status ?? 0) >= 400) {
        const error = ended.error as Error | undefined;
        span.setAttribute(
          'error.type',
          ended.status !== undefined ? String(ended.status) : (error?.name ?? 'Error'),
        );
        span.setStatus({
          code: SpanStatusCode.ERROR,
          ...(error !== undefined ? { message: redact(String(error?.message ?? error)) } : {}),
        });
      }
    }
    span.end();
  };
}

// Node's own async context, not OpenTelemetry's: it holds without an SDK registered (the Events
// on changed objects tell injected from reverted by it too, traced or not).
const reverting = new AsyncLocalStorage<boolean>();

/**
 * Runs `fn` as an undoing: the changes it makes are events "fault reverted" (a run's rollbacks)
 * and their objects' Events say ChaosReverted.
 */
export function asReverting<T>(fn: () => T): T {
  return reverting.run(true, fn);
}

/** Whether the change under way undoes (within asReverting). */
export const isReverting = (): boolean => reverting.getStore() === true;

/** What a change is about, as span attributes. */
export interface ChangedObject {
  verb: string;
  /** The kind's plural noun (`pods`). */
  resource: string;
  name?: string | undefined;
  namespace?: string | null | undefined;
}

/**
 * A change made (or, `reverted`, undone) to the cluster: an event on the span under way (the
 * activity's), and the faults counted. Within asReverting, a change counts as undone.
 */
export function changeEvent(change: ChangedObject, reverted = isReverting()): void {
  const span = trace.getActiveSpan();
  if (span?.isRecording())
    span.addEvent(reverted ? 'fault reverted' : 'fault applied', {
      'chaoskit.change.verb': change.verb,
      'chaoskit.change.resource': change.resource,
      ...(change.name ? { 'chaoskit.change.name': redact(change.name) } : {}),
      ...(change.namespace ? { 'chaoskit.change.namespace': redact(change.namespace) } : {}),
    });
  const m = meters();
  m.faults.add(1, { event: reverted ? 'reverted' : 'applied' });
  // A pod deleted or evicted is not undone: its controller replaces it.
  const replaced = change.resource === 'pods' && (change.verb === 'delete' || change.verb === 'evict');
  if (!replaced) m.inPlace.add(reverted ? -1 : 1);
}
