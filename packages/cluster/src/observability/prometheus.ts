import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrometheus, PROMETHEUS_VERSION } from '../host/binaries.js';
import type { ProgressSink } from '../host/cache.js';
import {
  type PromQueryOptions,
  type PromQueryResult,
  type PromSample,
  promQuery,
  promSamples,
} from './promql.js';
import { answers, startService } from './service.js';

export interface PrometheusScrapeJob {
  /** The `job` label of what is scraped. */
  job: string;
  /** host:port of each target, e.g. `127.0.0.1:9464`. */
  targets: string[];
  /** Default `/metrics`. */
  metricsPath?: string;
  /** A Prometheus duration; default: the global scrapeInterval. */
  interval?: string;
}

export interface PrometheusOptions {
  /** What to scrape (default: nothing; pushes still arrive through the receivers). */
  scrape?: PrometheusScrapeJob[];
  /** A Prometheus duration (default `1s`, so that tests see a change within a couple of seconds). */
  scrapeInterval?: string;
  /** Build progress, when Prometheus must first be built (default: stderr). */
  progress?: ProgressSink;
}

export interface RunningPrometheus extends AsyncDisposable {
  /** The Go module version built (github.com/prometheus/prometheus). */
  readonly version: string;
  /** http://127.0.0.1:<port>: the HTTP API (`/api/v1/…`), `/-/ready`. */
  readonly url: string;
  /** Where remote write (1.0) pushes go. */
  readonly remoteWriteUrl: string;
  /**
   * Where OTLP/HTTP metrics go (what OTEL_EXPORTER_OTLP_METRICS_ENDPOINT takes). Prometheus
   * names them as its OTLP translation does: dots become underscores, a counter gains `_total`,
   * a unit its suffix, and the resource's service.name becomes `job`.
   */
  readonly otlpMetricsUrl: string;
  readonly pid: number;
  readonly logFile: string;
  /** Milliseconds from the process's spawn to /-/ready answering. */
  readonly readyMs: number;
  query(promql: string, options?: PromQueryOptions): Promise<PromQueryResult>;
  /** A vector's samples, or a scalar as one sample (see promSamples). */
  samples(promql: string, options?: PromQueryOptions): Promise<PromSample[]>;
  /** Ends Prometheus and removes its configuration and data. */
  stop(): Promise<void>;
}

/**
 * A real Prometheus on a free 127.0.0.1 port (built from the Go module proxy on first use,
 * then cached), scraping the given jobs, with its remote-write and OTLP receivers on.
 */
export async function startPrometheus(options: PrometheusOptions = {}): Promise<RunningPrometheus> {
  const binary = await ensurePrometheus(options.progress);
  const config = {
    global: {
      scrape_interval: options.scrapeInterval ?? '1s',
      evaluation_interval: options.scrapeInterval ?? '1s',
    },
    scrape_configs: (options.scrape ?? []).map((job) => ({
      job_name: job.job,
      metrics_path: job.metricsPath ?? '/metrics',
      ...(job.interval ? { scrape_interval: job.interval } : {}),
      static_configs: [{ targets: job.targets }],
    })),
  };
  const service = await startService({
    name: 'prometheus',
    binary,
    ports: 1,
    setUp: async (dir, [port]) => {
      const configFile = join(dir, 'prometheus.yml');
      // JSON is YAML: no YAML writer needed for a configuration made of plain values.
      await writeFile(configFile, `${JSON.stringify(config, null, 2)}\n`);
      return [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--web.enable-remote-write-receiver',
        '--web.enable-otlp-receiver',
      ];
    },
    ready: ([port]) => answers(`http://127.0.0.1:${port}/-/ready`),
  });
  const url = `http://127.0.0.1:${service.ports[0]}`;
  return {
    version: PROMETHEUS_VERSION,
    url,
    remoteWriteUrl: `${url}/api/v1/write`,
    otlpMetricsUrl: `${url}/api/v1/otlp/v1/metrics`,
    pid: service.pid,
    logFile: service.logFile,
    readyMs: service.readyMs,
    query: (promql, opts) => promQuery(url, promql, opts),
    samples: (promql, opts) => promSamples(url, promql, opts),
    stop: service.stop,
    [Symbol.asyncDispose]: service.stop,
  };
}
