// A one-shot process that sends one small trace, shaped like a chaoskit run's (run > phase >
// activity > API request, a fault event, an error status), and prints its trace id:
// `node test-send-spans.ts <service name>`. Where it goes comes from the standard
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (http/protobuf or grpc) and
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, read by the exporters themselves.
import {
  context,
  DiagConsoleLogger,
  DiagLogLevel,
  diag,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter as GrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as HttpExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const [serviceName = 'chaoskit-test'] = process.argv.slice(2);
diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.WARN);

const exporter =
  process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL === 'grpc' ? new GrpcExporter() : new HttpExporter();
const provider = new TracerProvider({
  resource: resourceFromAttributes({ 'service.name': serviceName }),
  spanProcessors: [new SimpleSpanProcessor({ exporter })],
});
const tracer = provider.getTracer('chaoskit-test');

// Parents are passed explicitly: no context manager is needed for that.
const child = (name: string, parent: ReturnType<typeof tracer.startSpan>, options = {}) =>
  tracer.startSpan(name, options, trace.setSpan(context.active(), parent));

const run = tracer.startSpan('run', { attributes: { 'chaoskit.experiment': 'test' } });
const method = child('method', run);
const activity = child('action kill_pods', method, {
  attributes: { 'chaoskit.activity': 'kill_pods', 'chaoskit.dry_run': false, 'chaoskit.targets': ['a', 'b'] },
});
const request = child('DELETE pods', activity, {
  kind: SpanKind.CLIENT,
  attributes: { 'http.request.method': 'DELETE', 'http.response.status_code': 200 },
});
request.end();
activity.addEvent('fault applied', { 'chaoskit.pods': 2 });
activity.end();
const probe = child('probe pods_ready', method);
probe.setStatus({ code: SpanStatusCode.ERROR, message: '1 of 2 pods not ready' });
probe.end();
method.end();
run.end();

await provider.forceFlush();
await provider.shutdown();
process.stdout.write(`${run.spanContext().traceId}\n`);
