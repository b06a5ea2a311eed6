import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * Forwards TCP from the host end of the slot's link to the apiserver on loopback: pods and node
 * agents reach the apiserver there (the `kubernetes` Service's endpoint) while the apiserver
 * itself listens on 127.0.0.1 only, and the link never leaves the machine.
 */
export async function startApiProxy(
  host: string,
  port: number,
  apiPort: number,
): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((inbound) => {
    const outbound = connect(apiPort, '127.0.0.1');
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  // The cluster's own clients must not keep a test run's process alive.
  server.unref();
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
