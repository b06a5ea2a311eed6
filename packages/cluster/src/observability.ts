// Observability back ends for tests and demos (`@chaoskit/cluster/observability`): a real
// Prometheus and a real Jaeger, built from the Go module proxy on first use and cached like
// the local cluster's binaries, each on free 127.0.0.1 ports.

export { ensureJaeger, ensurePrometheus, JAEGER_VERSION, PROMETHEUS_VERSION } from './host/binaries.js';
export * from './observability/jaeger.js';
export * from './observability/prometheus.js';
export * from './observability/promql.js';
export * from './observability/spans.js';
export * from './observability/target.js';
