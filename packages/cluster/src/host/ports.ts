import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// Ports for servers a component binds later, after others have started: picked below the
// kernel's ephemeral range, so that no outgoing connection takes one meanwhile (a port the OS
// hands out for port 0 comes from that range, as do the source ports of every connection; under
// load a kube-scheduler lost its port to one between the pick and its bind). At random, each
// checked free, none handed out twice by this process.
const LOWEST = 10_000;

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
function ephemeralStart(): number {
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = Number(first);
    return Number.isInteger(port) && port > LOWEST + 1000 ? port : 32_768;
  } catch {
    return 32_768;
  }
}

const handedOut = new Set<number>();

/** Whether `port` can be bound on 127.0.0.1 now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port free on 127.0.0.1 a moment ago, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  const top = ephemeralStart();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (top - LOWEST));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${top} after 200 tries`);
}

export async function freePorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < n) ports.push(await freePort());
  return ports;
}

/** Whether a start failed because its port was taken between the pick and the bind (its log says so). */
export function isPortTaken(err: Error): boolean {
  return /address already in use/.test(err.message);
}

/**
 * Runs `start` (which picks its own ports and cleans up after its own failure) again, on other
 * ports, when a port was taken before its component bound it; three attempts in all. A port
 * checked free can still go to another process before the bind: another cluster starting beside
 * this one, or, under load, an outgoing connection.
 */
export async function startWhilePortsTaken<T>(
  start: () => Promise<T>,
  onRetry: (err: Error) => void = () => {},
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= attempts || !isPortTaken(err as Error)) throw err;
      onRetry(err as Error);
    }
  }
}
