import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, startWhilePortsTaken } from '../host/ports.js';
import { ProcessGroup } from '../host/processes.js';
import { until } from '../host/until.js';

export interface Service {
  readonly pid: number;
  /** The process's stdout and stderr (gone after stop(), with its directory). */
  readonly logFile: string;
  /** Milliseconds from spawn to ready. */
  readonly readyMs: number;
  /** The 127.0.0.1 ports it was given (ServiceSpec.ports of them). */
  readonly ports: number[];
  /** Throws with the log's tail when the process has exited. */
  assertRunning(): void;
  stop(): Promise<void>;
}

interface ServiceSpec {
  name: string;
  binary: string;
  /** How many 127.0.0.1 ports it binds: picked free for each attempt at a start. */
  ports?: number;
  /** Gets the service's own scratch directory (removed by stop()) and its ports; returns its arguments. */
  setUp: (dir: string, ports: number[]) => Promise<string[]>;
  /** Ready means answering: checked every 100 ms until it holds. */
  ready: (ports: number[]) => Promise<boolean>;
  readyTimeoutMs?: number;
}

/**
 * One long-running process in a scratch directory of its own: started, awaited until `ready`,
 * and stop() ends it (SIGTERM, SIGKILL after 5 s) and removes the directory. A start that
 * fails leaves nothing behind either; one whose port was taken before the process bound it
 * is made again on other ports.
 */
export function startService(spec: ServiceSpec): Promise<Service> {
  return startWhilePortsTaken(async () => startOnce(spec, await freePorts(spec.ports ?? 0)));
}

async function startOnce(spec: ServiceSpec, ports: number[]): Promise<Service> {
  const dir = await mkdtemp(join(tmpdir(), `chaoskit-${spec.name}-`));
  const group = new ProcessGroup(dir);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await group.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const args = await spec.setUp(dir, ports);
    const began = Date.now();
    group.start(spec.name, spec.binary, args, loopbackEnv());
    await until(spec.name, () => spec.ready(ports), {
      timeoutMs: spec.readyTimeoutMs ?? 60_000,
      alive: () => group.assertRunning(),
    });
    return {
      pid: group.pids[0]!,
      logFile: group.logFiles[spec.name]!,
      readyMs: Date.now() - began,
      ports,
      assertRunning: () => group.assertRunning(),
      stop,
    };
  } catch (err) {
    await stop();
    throw new Error(`${spec.name} failed to start: ${(err as Error).message}`, { cause: err });
  }
}

// Everything these services reach is on 127.0.0.1: a proxy set for the machine must not
// catch a scrape.
function loopbackEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy']) delete env[name];
  return env;
}

/** Whether a GET of `url` answers 200 (any failure is a no). */
export async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}
