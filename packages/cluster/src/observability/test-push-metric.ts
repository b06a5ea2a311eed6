// A one-shot process that pushes a counter over OTLP/HTTP and exits, as a chaoskit run will:
// `node test-push-metric.ts <service name> <count>`. The endpoint comes from the standard
// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT, read by the exporter itself.
import { DiagConsoleLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';

const [serviceName = 'chaoskit-test', count = '1'] = process.argv.slice(2);
diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.WARN);

const provider = new MeterProvider({
  resource: resourceFromAttributes({ 'service.name': serviceName }),
  // Nothing is exported on a timer: the one export is the flush at the end.
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter(),
      exportIntervalMillis: 3_600_000,
    }),
  ],
});
const pushes = provider.getMeter('chaoskit-test').createCounter('chaoskit.test.pushes');
pushes.add(Number(count), { outcome: 'succeeded' });
await provider.forceFlush();
await provider.shutdown();
