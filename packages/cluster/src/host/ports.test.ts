import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startWhilePortsTaken } from './ports.js';
import { listensOn, ProcessGroup, waitFor } from './processes.js';

// A component that binds one port on 127.0.0.1, as the control plane's do: it dies, and says
// why in its log, when the port is taken.
const LISTENER = `require('node:net').createServer().listen(Number(process.argv[1]), '127.0.0.1')`;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function takePort(): Promise<number> {
  const port = await freePort();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return port;
}

describe('startWhilePortsTaken', () => {
  it('starts again when the port was taken, and the start succeeds on another port', async () => {
    const taken = await takePort();
    const picks = [taken, await freePort()];
    const tried: number[] = [];
    const retries: string[] = [];
    const started = await startWhilePortsTaken(
      async () => {
        const port = picks.shift()!;
        tried.push(port);
        const dir = await mkdtemp(join(tmpdir(), 'chaoskit-ports-test-'));
        const group = new ProcessGroup(dir);
        try {
          group.start('listener', process.execPath, ['-e', LISTENER, String(port)]);
          await waitFor(
            `listener on ${port}`,
            'listener',
            group,
            async () => listensOn(group.pidOf('listener'), port),
            10_000,
          );
          cleanups.push(async () => {
            await group.stop(1000);
            await rm(dir, { recursive: true, force: true });
          });
          return port;
        } catch (err) {
          await group.stop(1000);
          await rm(dir, { recursive: true, force: true });
          throw err;
        }
      },
      (err) => retries.push(err.message),
    );
    expect(tried).toEqual([taken, started]);
    expect(started).not.toBe(taken);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/address already in use/);
  });

  it('gives up after three attempts, and fails at once for any other reason', async () => {
    let attempts = 0;
    await expect(
      startWhilePortsTaken(async () => {
        attempts++;
        throw new Error('listen tcp 127.0.0.1:1: bind: address already in use');
      }),
    ).rejects.toThrow(/address already in use/);
    expect(attempts).toBe(3);
    attempts = 0;
    await expect(
      startWhilePortsTaken(async () => {
        attempts++;
        throw new Error('no such binary');
      }),
    ).rejects.toThrow('no such binary');
    expect(attempts).toBe(1);
  });
});
