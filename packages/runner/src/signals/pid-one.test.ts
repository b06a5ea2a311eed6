// chaoskit as a container's PID 1 (D120): the kernel delivers to PID 1 no signal it has no
// handler for, so SIGTERM before a run installs its own must still end the command. Here in a
// pid namespace of its own (unshare, as root), chaoskit waiting for its experiment from a server
// that never answers.

import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

it('ends on SIGTERM as PID 1 before a run has handlers of its own, with 143', async (ctx) => {
  if (process.getuid?.() !== 0) return ctx.skip('needs root for a pid namespace of its own (unshare --pid)');
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const requested = new Promise((resolve) => server.once('request', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/experiment.json`;
  const child = spawn('unshare', ['--pid', '--fork', '--kill-child', process.execPath, bin, 'run', url], {
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await requested;
    const [inner] = (await readFile(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8'))
      .trim()
      .split(' ');
    const status = await readFile(`/proc/${inner}/status`, 'utf8');
    expect(/^NSpid:\s+(.+)$/m.exec(status)?.[1]?.split(/\s+/).at(-1)).toBe('1');
    process.kill(Number(inner), 'SIGTERM');
    expect(await exited).toBe(143);
  } finally {
    child.kill('SIGKILL');
    server.closeAllConnections();
    server.close();
  }
});
