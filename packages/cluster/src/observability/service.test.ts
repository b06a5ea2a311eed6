import { connect, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as ports from '../host/ports.js';
import { startService } from './service.js';

// A service binding the ports it is given on 127.0.0.1, one after the other, as Prometheus and
// Jaeger do: it dies at the first it cannot bind, before binding the next.
const LISTENER = `const bind = ([p, ...rest]) => p && require('node:net').createServer().listen(Number(p), '127.0.0.1', () => bind(rest));
bind(process.argv.slice(1));`;

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('startService', () => {
  it('starts again on other ports when one of its ports was taken before it bound it', async () => {
    const taken = await ports.freePort();
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(taken, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    // The first pick is the taken port: what another process's bind between the pick and
    // the service's own looks like.
    const real = ports.freePorts;
    const picks = vi
      .spyOn(ports, 'freePorts')
      .mockImplementationOnce(async (n) => [taken, ...(await real(n - 1))])
      .mockImplementation(real);
    const service = await startService({
      name: 'listener',
      binary: process.execPath,
      ports: 2,
      setUp: async (_dir, given) => ['-e', LISTENER, ...given.map(String)],
      ready: async (given) => (await Promise.all(given.map(accepts))).every(Boolean),
      readyTimeoutMs: 10_000,
    });
    cleanups.push(() => service.stop());
    expect(picks).toHaveBeenCalledTimes(2);
    expect(service.ports).toHaveLength(2);
    expect(service.ports).not.toContain(taken);
    service.assertRunning();
  });
});
